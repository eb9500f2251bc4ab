package web

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
)

// requestIDHeader carries a request's id: taken from a reverse proxy that
// set it, made up otherwise, and sent back on the response.
const requestIDHeader = "X-Request-Id"

type ctxKey int

const logKey ctxKey = iota

// observe is the outermost middleware: it gives every request an id,
// logs it as one structured line when answered (route, status, duration),
// and records its latency in the metrics. Errors are rendered here, so the
// status logged and measured is the one sent.
func (s *Server) observe(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		req := c.Request()
		id := requestID(req.Header.Get(requestIDHeader))
		c.Response().Header().Set(requestIDHeader, id)
		log := s.log.With("request_id", id)
		c.SetRequest(req.WithContext(context.WithValue(req.Context(), logKey, log)))

		if err := next(c); err != nil {
			c.Error(err)
		}

		route, status, d := c.Path(), c.Response().Status, time.Since(start)
		s.metrics.Request(route, req.Method, status, d)
		level := slog.LevelInfo
		switch {
		case status >= 500:
			level = slog.LevelError
		case route == "/static/*" || route == "/healthz" || route == "/readyz" || route == "/metrics":
			level = slog.LevelDebug // probes and assets: not worth a line each
		}
		attrs := []slog.Attr{
			slog.String("method", req.Method), slog.String("path", req.URL.Path), slog.String("route", route),
			slog.Int("status", status), slog.Float64("duration_ms", float64(d.Microseconds())/1000),
			slog.Int64("bytes", c.Response().Size),
		}
		if u := currentUser(c); u != nil {
			attrs = append(attrs, slog.Int64("user_id", u.ID))
		}
		log.LogAttrs(req.Context(), level, "request", attrs...)
		return nil
	}
}

// requestID keeps an id a proxy sent when it is short and plain, and makes
// one up otherwise.
func requestID(given string) string {
	if n := len(given); n > 0 && n <= 64 && strings.Trim(given, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") == "" {
		return given
	}
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// logFor is the logger of the request c serves, carrying its id.
func (s *Server) logFor(c echo.Context) *slog.Logger {
	if l, ok := c.Request().Context().Value(logKey).(*slog.Logger); ok {
		return l
	}
	return s.log
}

// readyz answers 200 when the server can do its work: the database takes
// writes, its migrations are those of this binary, and the raw files'
// folder takes new files. Otherwise 503 naming what fails. /healthz only
// says the process answers.
func (s *Server) readyz(c echo.Context) error {
	ctx := c.Request().Context()
	checks := map[string]string{}
	ready := true
	fail := func(name string, err error) {
		checks[name] = "failing: " + err.Error()
		ready = false
	}
	if err := s.store.CheckWritable(ctx); err != nil {
		fail("database", err)
	} else {
		checks["database"] = "writable"
	}
	switch pending, err := s.store.PendingMigrations(ctx); {
	case err != nil:
		fail("migrations", err)
	case len(pending) > 0:
		checks["migrations"] = "pending: " + strings.Join(pending, ", ")
		ready = false
	default:
		checks["migrations"] = "current"
	}
	if s.cfg.DataDir != "" {
		if err := probeDir(s.cfg.DataDir); err != nil {
			fail("files", err)
		} else {
			checks["files"] = "writable"
		}
	}
	status, word := http.StatusOK, "ready"
	if !ready {
		status, word = http.StatusServiceUnavailable, "not ready"
		s.logFor(c).Warn("not ready", "checks", checks)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(status, map[string]any{"status": word, "checks": checks})
}

// probeDir proves a new file can be written in dir.
func probeDir(dir string) error {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".readyz-*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

// metricsEndpoint serves the Prometheus metrics, behind the configured
// token when there is one.
func (s *Server) metricsEndpoint() echo.HandlerFunc {
	return echo.WrapHandler(s.metrics.Handler(s.cfg.MetricsToken))
}
