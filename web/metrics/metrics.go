// Package metrics holds the server's Prometheus metrics (the official Go
// client) and serves them in the text exposition format. It knows nothing
// of HTTP routing or the database: the server reports requests and
// imports to it, and gives it functions that read the database size and
// the number of active sessions when scraped.
package metrics

import (
	"context"
	"crypto/subtle"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Import outcomes, the values of the outcome label.
const (
	Imported   = "imported"   // stored with its rows
	Unreadable = "unreadable" // not a result file, or a broken one
	TooLarge   = "too_large"  // over the upload limit
	Duplicate  = "duplicate"  // already imported into the report
	Refused    = "refused"    // any other refusal: approved report, no frozen contract, a failed write
	Cancelled  = "cancelled"  // the client went away or the server stopped before the file's end
)

// Probes read what is measured at scrape time.
type Probes struct {
	// DatabaseBytes is the size of the database file and its write-ahead log.
	DatabaseBytes func() (int64, error)
	// ActiveSessions counts the sessions not yet expired.
	ActiveSessions func(ctx context.Context) (int, error)
	// KeptViews counts the report pages and JSON answers served: kept
	// ones, rendered ones (or waited for), superseded ones served while
	// their successor rendered; and the bytes kept now.
	KeptViews func() (kept, rendered, superseded uint64, bytes int)
}

// Metrics is one server's set of metrics, on a registry of its own.
type Metrics struct {
	reg      *prometheus.Registry
	latency  *prometheus.HistogramVec
	imports  *prometheus.CounterVec
	imported *prometheus.CounterVec
}

// New registers the metrics, with the Go runtime's and the process's.
func New(p Probes) *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "capplan_http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by route pattern, method and status.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
		}, []string{"route", "method", "status"}),
		imports: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "capplan_imports_total",
			Help: "Result files received for import, by detected format (unknown when not detected) and outcome.",
		}, []string{"format", "outcome"}),
		imported: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "capplan_import_bytes_total",
			Help: "Bytes of result files imported (stored), by format.",
		}, []string{"format"}),
	}
	m.reg.MustRegister(m.latency, m.imports, m.imported,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if p.DatabaseBytes != nil {
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "capplan_database_bytes",
			Help: "Size of the SQLite database file and its write-ahead log.",
		}, func() float64 {
			n, err := p.DatabaseBytes()
			if err != nil {
				return -1
			}
			return float64(n)
		}))
	}
	if p.ActiveSessions != nil {
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "capplan_active_sessions",
			Help: "Browser sessions not yet expired.",
		}, func() float64 {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			n, err := p.ActiveSessions(ctx)
			if err != nil {
				return -1
			}
			return float64(n)
		}))
	}
	if p.KeptViews != nil {
		for i, served := range []string{"kept", "rendered", "superseded"} {
			m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
				Name:        "capplan_report_views_total",
				Help:        "Report pages and JSON answers served: kept from an earlier view, rendered (or waited for), or superseded, served while their successor rendered.",
				ConstLabels: prometheus.Labels{"served": served},
			}, func() float64 {
				k, r, s, _ := p.KeptViews()
				return float64([]uint64{k, r, s}[i])
			}))
		}
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "capplan_report_views_kept_bytes",
			Help: "Bytes of report pages and JSON answers kept in memory.",
		}, func() float64 {
			_, _, _, b := p.KeptViews()
			return float64(b)
		}))
	}
	return m
}

// Request records one answered request. route is the route pattern
// ("/reports/:id"), never the path, so that the number of series stays
// bounded.
func (m *Metrics) Request(route, method string, status int, d time.Duration) {
	if route == "" {
		route = "unmatched"
	}
	m.latency.WithLabelValues(route, method, strconv.Itoa(status)).Observe(d.Seconds())
}

// Import records one result file's import and, when stored, its bytes.
func (m *Metrics) Import(format, outcome string, bytes int64) {
	if format == "" {
		format = "unknown"
	}
	m.imports.WithLabelValues(format, outcome).Inc()
	if outcome == Imported {
		m.imported.WithLabelValues(format).Add(float64(bytes))
	}
}

// Handler serves the metrics. With a token, a scrape must send
// "Authorization: Bearer <token>".
func (m *Metrics) Handler(token string) http.Handler {
	h := promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
	if token == "" {
		return h
	}
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
			http.Error(w, "metrics: send the token as Authorization: Bearer <token>", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}
