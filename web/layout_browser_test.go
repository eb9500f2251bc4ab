package web

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"capplan/web/browsertest"
)

// TestBrowserPagesFitNarrowAndWide: the main pages, the demo report above
// all, never scroll sideways at 375 px nor at 1280 px (a wide table
// scrolls inside its own box), and at 1280 px the matrix's judged
// columns, up to end-to-end p95, are in view without scrolling its box;
// at 375 px the tables of text (exit check, cost breakdown and evidence,
// history, the reports list) stack, each cell in view.
// CAPPLAN_SCREENSHOTS=dir keeps a screenshot of each page at each width.
func TestBrowserPagesFitNarrowAndWide(t *testing.T) {
	app := newTestApp(t)
	demo := demoReport(t, app)
	// Eight pages at two widths: more than browsertest.Timeout on a busy
	// machine.
	ctx, cancel := browsertest.Extend(browsertest.New(t), 5*time.Minute)
	defer cancel()

	check := func(name, path, selector string) {
		t.Helper()
		if err := chromedp.Do(ctx,
			chromedp.EmulateViewport(1280, 900),
			chromedp.Navigate(app.srv.URL+path),
			chromedp.WaitVisible(css(selector)),
		); err != nil {
			t.Fatalf("%s (%s): %v", name, path, err)
		}
		browsertest.NoHorizontalScroll(ctx, t, name)
	}

	check("login", "/login", `[data-testid="login-submit"]`)
	if err := chromedp.Do(ctx, browserLogin(app, app.users["admin"].Email)...); err != nil {
		t.Fatal(err)
	}
	report := fmt.Sprintf("/reports/%d", demo.ID)
	check("reports", "/reports", `h1`)
	check("report", report, `[data-testid="headline"]`)
	check("results", report+"/results", `[data-testid="matrix-table"]`)
	check("exitcheck", report+"/exitcheck", `#exitcheck`)
	check("history", report+"/history", `#history`)
	check("quotes", "/quotes", `h1`)
	check("users", "/users", `h1`)
	check("account", "/account", `h1`)

	// At 375 px the tables of text stack (the exit check, the cost
	// breakdown, the cost evidence, the history, the reports list):
	// every cell is read without scrolling its box sideways.
	inView := func(path, cells string) {
		t.Helper()
		if err := chromedp.Do(ctx,
			chromedp.EmulateViewport(375, 900),
			chromedp.Navigate(app.srv.URL+path),
			chromedp.WaitVisible(css(`#main`)),
		); err != nil {
			t.Fatal(err)
		}
		sel, _ := json.Marshal(cells)
		cut, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
			const vw = document.documentElement.clientWidth;
			const out = [];
			const cells = document.querySelectorAll(`+string(sel)+`);
			if (cells.length === 0) return ["no cells match"];
			for (const c of cells) {
				const r = c.getBoundingClientRect();
				if (r.width > 0 && r.right > vw + 1) out.push(c.closest("table").dataset.testid + " " + JSON.stringify(c.innerText.slice(0, 40)) + " reaches " + Math.round(r.right) + " px in a " + vw + " px viewport");
			}
			return out.slice(0, 5);
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range cut {
			t.Errorf("%s at 375 px: %s", path, o)
		}
	}
	inView(report+"/exitcheck", `[data-testid="exit-table"] [data-testid="exit-detail"]`)
	inView(report+"/costs", `table[data-testid="self-hosted-breakdown"] td, table[data-testid="evidence"] td`)
	inView(report+"/history", `#history td`)
	inView("/reports", `table[data-testid="report-list"] td`)

	// At 1280 px the matrix's objective figures are in view.
	if err := chromedp.Do(ctx,
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(app.srv.URL+report+"/results"),
		chromedp.WaitVisible(css(`[data-testid="matrix-table"]`)),
	); err != nil {
		t.Fatal(err)
	}
	out, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
		const vw = document.documentElement.clientWidth;
		const row = document.querySelector('[data-testid="matrix-table"] tbody tr[data-counted="true"]') ||
			document.querySelector('[data-testid="matrix-table"] tbody tr');
		const out = [];
		for (const id of ["ttft-p95", "e2e-p95"]) {
			const cell = row && row.querySelector('[data-testid="' + id + '"]');
			if (!cell) { out.push(id + ": no such cell"); continue; }
			const r = cell.getBoundingClientRect();
			if (r.right > vw || r.left < 0) out.push(id + ": at " + Math.round(r.left) + "-" + Math.round(r.right) + " px in a " + vw + " px viewport");
		}
		return out;
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range out {
		t.Errorf("matrix at 1280 px: %s", o)
	}
}
