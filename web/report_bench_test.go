package web

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"capplan/web/store"
)

// BenchmarkReportPage measures the report page under 50 concurrent
// clients on loopback and reports the median and p99 time per request:
// "cached" is the page as readers get it while nothing changes, "fresh"
// bypasses the page cache (as the first view after every change does).
//
//	go test -run '^$' -bench ReportPage -benchtime 2000x ./web
func BenchmarkReportPage(b *testing.B) {
	b.Run("cached", func(b *testing.B) { benchReportPage(b, false) })
	b.Run("fresh", func(b *testing.B) { benchReportPage(b, true) })
}

// benchReportPage runs the benchmark; fresh sends a flash message with
// every request, which the page cache never serves.
func benchReportPage(b *testing.B, fresh bool) {
	app := newTestApp(b)
	ctx := context.Background()
	lead := app.users["lead"]
	id, err := app.store.CreateReport(ctx, lead, "Bench")
	if err != nil {
		b.Fatal(err)
	}
	if err := app.store.SaveContract(ctx, store.Edit{ReportID: id, BaseVersion: 1, UserID: lead.ID, Action: "contract edited"}, DemoContract(), nil); err != nil {
		b.Fatal(err)
	}
	if err := app.store.Freeze(ctx, store.Edit{ReportID: id, BaseVersion: 2, UserID: lead.ID, Action: "contract frozen"}); err != nil {
		b.Fatal(err)
	}
	seedRows(b, app.store, id, lead.ID)
	client := app.client("lead")
	client.Transport = &http.Transport{MaxIdleConnsPerHost: 64}
	url := fmt.Sprintf("%s/reports/%d", app.srv.URL, id)

	// Server time: from the request reaching the handler to the response
	// written, measured around the real handler.
	var smu sync.Mutex
	var server []time.Duration
	inner := app.srv.Config.Handler
	app.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		inner.ServeHTTP(w, r)
		d := time.Since(start)
		smu.Lock()
		server = append(server, d)
		smu.Unlock()
	})

	const clients = 50
	var mu sync.Mutex
	var lat []time.Duration
	b.SetParallelism((clients + 1) / 2) // GOMAXPROCS is 2 here: 25 x 2 = 50 goroutines
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		for pb.Next() {
			start := time.Now()
			req, _ := http.NewRequest(http.MethodGet, url, nil)
			if fresh {
				req.AddCookie(&http.Cookie{Name: flashCookie, Value: "bench"})
			}
			res, err := client.Do(req)
			if err != nil {
				b.Error(err)
				return
			}
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				b.Errorf("status %d", res.StatusCode)
				return
			}
			mine = append(mine, time.Since(start))
		}
		mu.Lock()
		lat = append(lat, mine...)
		mu.Unlock()
	})
	b.StopTimer()
	report := func(ds []time.Duration, name string) {
		if len(ds) == 0 {
			return
		}
		slices.Sort(ds)
		b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, name+"-p50-ms")
		b.ReportMetric(float64(ds[(len(ds)*99+99)/100-1].Microseconds())/1000, name+"-p99-ms")
	}
	report(server, "server")
	report(lat, "client")
}
