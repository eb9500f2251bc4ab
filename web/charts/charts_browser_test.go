package charts

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/chromedp/chromedp"

	"capplan/static"
	"capplan/web/browsertest"
)

// chartPage loads the vendored htmx and ECharts and app.js, under a CSP
// that forbids inline script, and swaps a chart into #slot on each click.
var chartPage = fmt.Sprintf(`<!doctype html>
<html><head><meta charset="utf-8"><title>charts</title>
<link rel="stylesheet" href="%s">
<script src="%s"></script>
<script src="%s"></script>
<script src="%s" defer></script>
</head><body><main>
<button id="swap" hx-get="/chart" hx-target="#slot" hx-swap="innerHTML">swap</button>
<div id="slot"></div>
</main></body></html>`,
	static.Path("app.css"),
	static.Path("vendor/htmx/htmx.min.js"),
	static.Path("vendor/echarts/echarts.min.js"),
	static.Path("app.js"))

func chartServer(t *testing.T) *httptest.Server {
	t.Helper()
	var swaps atomic.Int32
	mux := http.NewServeMux()
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static.FS)))
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", "script-src 'self'")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, chartPage)
	})
	mux.HandleFunc("GET /chart", func(w http.ResponseWriter, r *http.Request) {
		n := swaps.Add(1)
		ceiling := 9.0
		var b bytes.Buffer
		err := LoadChart(fmt.Sprintf("swap %d", n),
			[]float64{1, 2, 4, 8},
			[]float64{100, 180, 250, 260},
			map[string][]*float64{"TTFT p95": {ptr(0.2), ptr(0.4), nil, ptr(1.5)}},
			map[string]float64{"TTFT p95": 2},
			&ceiling,
		).Render(r.Context(), &b)
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		fmt.Fprintf(w, "<p>swap %d</p>", n)
		b.WriteTo(w)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func TestChartSurvivesTwoHTMXSwaps(t *testing.T) {
	srv := chartServer(t)
	ctx := browsertest.New(t)

	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/")); err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 2; n++ {
		if err := chromedp.Do(ctx,
			chromedp.Click(chromedp.CSS("#swap")),
			browsertest.WaitText("#slot", fmt.Sprintf("swap %d", n)),
			chromedp.WaitVisible(chromedp.CSS("#slot .chart canvas")),
		); err != nil {
			t.Fatalf("swap %d: %v", n, err)
		}
	}

	// One live instance, drawn from the second swap's option.
	title, err := chromedp.Run(ctx, chromedp.Evaluate[string](
		`echarts.getInstanceByDom(document.querySelector("#slot .chart")).getOption().title[0].text`))
	if err != nil {
		t.Fatal(err)
	}
	if title != "swap 2" {
		t.Errorf("chart title = %q, want %q", title, "swap 2")
	}
	// The bound (2 s) and the ceiling (load 9) lie beyond the data; ECharts
	// must still have room for them.
	for _, c := range []struct {
		axis string
		idx  int
		mark float64
	}{{"yAxis", 1, 2}, {"xAxis", 0, 9}} {
		extent, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](fmt.Sprintf(
			`echarts.getInstanceByDom(document.querySelector("#slot .chart")).getModel().getComponent(%q, %d).axis.scale.getExtent()`,
			c.axis, c.idx)))
		if err != nil {
			t.Fatal(err)
		}
		if len(extent) != 2 || extent[1] < c.mark {
			t.Errorf("%s[%d] extent %v does not reach the mark at %g", c.axis, c.idx, extent, c.mark)
		}
	}
	if errs := browsertest.ConsoleErrors(ctx); len(errs) != 0 {
		t.Errorf("console errors: %q", errs)
	}
}

func ptr(v float64) *float64 { return &v }

// TestChartFitsAPhone: at 375 px a chart's title wraps within the chart
// instead of being clipped, its legend pages instead of being cut, and
// axis labels that would run together are dropped and written short.
func TestChartFitsAPhone(t *testing.T) {
	srv := chartServer(t)
	ctx := browsertest.New(t)
	if err := chromedp.Do(ctx,
		chromedp.EmulateViewport(375, 800),
		chromedp.Navigate(srv.URL+"/"),
		chromedp.Click(chromedp.CSS("#swap")),
		chromedp.WaitVisible(chromedp.CSS("#slot .chart canvas")),
	); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]any](`(() => {
		const el = document.querySelector("#slot .chart");
		const o = echarts.getInstanceByDom(el).getOption();
		const x = o.xAxis[0].axisLabel;
		return [el.clientWidth, o.title[0].textStyle.width, o.title[0].textStyle.overflow, o.legend[0].type,
			x.hideOverlap, typeof x.formatter === "function" ? x.formatter(20000) : "none"];
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 6 || got[1].(float64) > got[0].(float64) || got[2] != "break" || got[3] != "scroll" || got[4] != true || got[5] != "20K" {
		t.Errorf("at 375 px [chart width, title width, overflow, legend, hideOverlap, 20000 as] = %v", got)
	}
}
