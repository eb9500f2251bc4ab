package web

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"capplan/web/browsertest"
)

// TestBrowserHeadroomBlockedLeadsToTheRow: a report whose every row lacks
// the memory headroom its objective needs. The overview's headline and
// path name the figure and the row and link to that row's figures form;
// following the link lands on the results step with the form open; typing
// the figure and saving unblocks the row (a demonstrated ceiling at last)
// and the overview then names the next row.
func TestBrowserHeadroomBlockedLeadsToTheRow(t *testing.T) {
	app := newTestApp(t)
	id, rows := seedHeadroomBlocked(t, app)
	ctx := browsertest.New(t)
	form := fmt.Sprintf(`[data-testid="observed-form-%d"]`, rows[1])
	wantHref := fmt.Sprintf("/reports/%d/results#observed-%d", id, rows[1])

	run := func(name string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, browsertest.Steady(actions...)...); err != nil {
			t.Fatalf("%s: %v (console: %q)", name, err, browsertest.ConsoleErrors(ctx))
		}
	}
	attr := func(sel, name string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`document.querySelector(%q).getAttribute(%q) || ""`, sel, name)))
		if err != nil {
			t.Fatalf("%s %s: %v", sel, name, err)
		}
		return v
	}

	run("log in and open the overview", append(browserLogin(app, app.users["lead"].Email),
		chromedp.Navigate(fmt.Sprintf("%s/reports/%d", app.srv.URL, id)),
		browsertest.WaitText(`[data-testid="headline-serve-answer"]`, "type the memory headroom (or the peak memory) of load 1 concurrent stream"),
		browsertest.WaitText(`[data-testid="path-next"]`, "Open the row's figures"),
	)...)
	if h := attr(`[data-testid="headline-serve-missing"] a`, "href"); h != wantHref {
		t.Errorf("headline links to %q, want %q", h, wantHref)
	}
	if h := attr(`[data-testid="path-next-link"]`, "href"); h != wantHref {
		t.Errorf("path links to %q, want %q", h, wantHref)
	}
	title, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("path-title").innerText`))
	if err != nil || title != "Next step: Type the memory headroom of load 1 concurrent stream" {
		t.Errorf("path title = %q (%v)", title, err)
	}

	run("follow the path's link: the form lands open",
		chromedp.Click(css(`[data-testid="path-next-link"]`)),
		chromedp.WaitVisible(css(form+` input[name="headroom"]`)),
	)
	loc, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname + location.hash`))
	if err != nil || loc != wantHref {
		t.Errorf("landed on %q (%v)", loc, err)
	}
	open, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`document.getElementById("observed-%d").open`, rows[1])))
	if err != nil || !open {
		t.Errorf("the row's form is not open (%v)", err)
	}
	// The form is in view, not below the fold of a long matrix.
	inView, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => { const r = document.getElementById("observed-%d").getBoundingClientRect(); return r.top > -2 && r.top < innerHeight; })()`, rows[1])))
	if err != nil || !inView {
		where, _ := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`(() => { const e = document.getElementById("observed-%d"); const r = e.getBoundingClientRect(); let p = e.parentElement, boxes = []; while (p) { const cs = getComputedStyle(p); if (/(auto|scroll|hidden)/.test(cs.overflowY)) boxes.push(p.tagName + "." + p.className + " " + p.scrollTop + "/" + p.clientHeight); p = p.parentElement; } return "top " + r.top + " of " + innerHeight + ", scrollY " + scrollY + ", boxes " + boxes.join("; "); })()`, rows[1])))
		t.Errorf("the row's form is not in view: %s (%v)", where, err)
	}

	run("type the headroom and save: the row is judged",
		chromedp.SetValue(css(form+` input[name="headroom"]`), "20"),
		chromedp.Click(css(fmt.Sprintf(`[data-testid="save-observed-%d"]`, rows[1]))),
		browsertest.WaitText(fmt.Sprintf(`[data-testid="observed-saved-%d"]`, rows[1]), "Saved"),
		browsertest.WaitText(`[data-testid="ceiling"]`, "Demonstrated ceiling: 1"),
	)
	run("the overview names the next row",
		chromedp.Navigate(fmt.Sprintf("%s/reports/%d", app.srv.URL, id)),
		browsertest.WaitText(`[data-testid="headline-serve-answer"]`, "of load 2 concurrent streams"),
	)
	if h := attr(`[data-testid="path-next-link"]`, "href"); h != fmt.Sprintf("/reports/%d/results#observed-%d", id, rows[2]) {
		t.Errorf("after load 1: path links to %q", h)
	}
	serve, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid="headline-serve-answer"]').innerText`))
	if strings.Contains(serve, "load 1 concurrent stream ") {
		t.Errorf("headline still names load 1: %q", serve)
	}
	if errs := browsertest.ConsoleErrors(ctx); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}
