package web

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"capplan/web/browsertest"
)

// loadTiming is what a page reports of its own navigation: when its load
// event ended and, on a page with charts, when every chart was drawn (both
// in ms from the navigation's start), the scripts it fetched and the bytes
// it transferred.
type loadTiming struct {
	LoadMS   float64  `json:"load"`
	ChartsMS float64  `json:"charts"`
	Scripts  []string `json:"scripts"`
	Bytes    float64  `json:"bytes"`
}

// timingJS answers once the navigation's load event has ended, and, when
// charts is true, once every chart placeholder holds a canvas.
const timingJS = `new Promise(done => {
	const charts = %t;
	const read = () => {
		const nav = performance.getEntriesByType("navigation")[0];
		if (!nav || nav.loadEventEnd === 0) { setTimeout(read, 5); return; }
		const els = [...document.querySelectorAll(".chart")];
		if (charts && !(els.length > 0 && els.every(c => c.querySelector("canvas")))) { requestAnimationFrame(read); return; }
		const res = performance.getEntriesByType("resource");
		done({
			load: nav.loadEventEnd,
			charts: charts ? performance.now() : 0,
			scripts: [...document.scripts].map(s => s.src).filter(Boolean)
				.concat(res.filter(r => r.initiatorType === "script").map(r => r.name)),
			bytes: nav.transferSize + res.reduce((n, r) => n + r.transferSize, 0),
		});
	};
	read();
})`

// visit navigates to url and reads its timing.
func visit(url string, charts bool) chromedp.Action[loadTiming] {
	return func(ctx context.Context, t *chromedp.Target) (loadTiming, error) {
		if _, err := chromedp.Navigate(url)(ctx, t); err != nil {
			return loadTiming{}, err
		}
		return chromedp.Evaluate[loadTiming](fmt.Sprintf(timingJS, charts), chromedp.EvalAwaitPromise)(ctx, t)
	}
}

func fetchedECharts(lt loadTiming) bool {
	return slices.ContainsFunc(lt.Scripts, func(s string) bool { return strings.Contains(s, "echarts") })
}

// TestBrowserChartCodeOnlyWithCharts: the login page and a page with no
// chart fetch no chart code; the demo report fetches it after its load
// event and draws its charts, those in sections still off screen (not
// laid out yet, as the page is rendered as shown) included.
func TestBrowserChartCodeOnlyWithCharts(t *testing.T) {
	app := newTestApp(t)
	demo := demoReport(t, app)
	ctx := browsertest.New(t, browsertest.AsShown())

	login, err := chromedp.Run(ctx, visit(app.srv.URL+"/login", false))
	if err != nil {
		t.Fatal(err)
	}
	if fetchedECharts(login) {
		t.Errorf("the login page fetched chart code: %q", login.Scripts)
	}
	if err := chromedp.Do(ctx, browserLogin(app, app.users["admin"].Email)...); err != nil {
		t.Fatal(err)
	}
	list, err := chromedp.Run(ctx, visit(app.srv.URL+"/reports", false))
	if err != nil {
		t.Fatal(err)
	}
	if fetchedECharts(list) {
		t.Errorf("the reports list, which has no chart, fetched chart code: %q", list.Scripts)
	}
	overview, err := chromedp.Run(ctx, visit(fmt.Sprintf("%s/reports/%d", app.srv.URL, demo.ID), false))
	if err != nil {
		t.Fatal(err)
	}
	if fetchedECharts(overview) {
		t.Errorf("the overview, which has no chart, fetched chart code: %q", overview.Scripts)
	}
	report, err := chromedp.Run(ctx, visit(fmt.Sprintf("%s/reports/%d/results", app.srv.URL, demo.ID), true))
	if err != nil {
		t.Fatal(err)
	}
	if !fetchedECharts(report) {
		t.Errorf("the demo report drew its charts without fetching ECharts? scripts %q", report.Scripts)
	}
	if report.ChartsMS < report.LoadMS {
		t.Errorf("charts drawn at %.0f ms, before the load event ended (%.0f ms): ECharts held up the page", report.ChartsMS, report.LoadMS)
	}
	if errs := browsertest.ConsoleErrors(ctx); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}

// BenchmarkBrowserReportLoad: the demo report's results step and its overview in headless Chromium,
// cached (visited once before), 20 times: the median load event
// ("load-ms") must stay under 300 ms; "charts-ms" is the median moment its
// charts are all drawn, "login-ms" the login page's load event measured
// the same way in the same run, as the reference.
//
//	go test -run '^$' -bench BrowserReportLoad ./web
func BenchmarkBrowserReportLoad(b *testing.B) {
	app := newTestApp(b)
	demo := demoReport(b, app)
	// 41 page loads: more than browsertest.Timeout allows on a busy machine.
	ctx, cancel := browsertest.Extend(browsertest.New(b, browsertest.AsShown()), 10*time.Minute)
	defer cancel()
	// The results step: the matrix, the envelope and its chart. The
	// overview (no chart) is measured beside it.
	report := fmt.Sprintf("%s/reports/%d/results", app.srv.URL, demo.ID)
	overview := fmt.Sprintf("%s/reports/%d", app.srv.URL, demo.ID)
	var login []float64
	for range 20 {
		lt, err := chromedp.Run(ctx, visit(app.srv.URL+"/login", false))
		if err != nil {
			b.Fatal(err)
		}
		login = append(login, lt.LoadMS)
	}
	if err := chromedp.Do(ctx, browserLogin(app, app.users["admin"].Email)...); err != nil {
		b.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, visit(report, true)); err != nil { // fills the cache
		b.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, visit(overview, false)); err != nil { // fills the cache
		b.Fatal(err)
	}
	var load, drawn, over []float64
	var bytes float64
	b.ResetTimer()
	for b.Loop() {
		for range 20 {
			lt, err := chromedp.Run(ctx, visit(report, true))
			if err != nil {
				b.Fatal(err)
			}
			load, drawn, bytes = append(load, lt.LoadMS), append(drawn, lt.ChartsMS), lt.Bytes
			ov, err := chromedp.Run(ctx, visit(overview, false))
			if err != nil {
				b.Fatal(err)
			}
			over = append(over, ov.LoadMS)
		}
	}
	b.StopTimer()
	med := func(v []float64) float64 { s := slices.Clone(v); slices.Sort(s); return s[len(s)/2] }
	b.ReportMetric(med(load), "load-ms")
	b.ReportMetric(med(drawn), "charts-ms")
	b.ReportMetric(med(login), "login-ms")
	b.ReportMetric(med(over), "overview-load-ms")
	b.ReportMetric(med(load)/med(login), "load/login")
	b.ReportMetric(bytes, "bytes-transferred")
	// The target (docs/ARCHITECTURE.md, "Pages in the browser") is under
	// 300 ms on an unloaded machine; a loaded one slows the reference as
	// much, so load/login is the figure to compare between runs.
	if m := med(load); m >= 300 {
		b.Logf("the demo report's median load event is %.0f ms (target < 300 ms); the login page's %.0f ms", m, med(login))
	}
}
