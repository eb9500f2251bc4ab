package web

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"capplan/web/browsertest"
	"capplan/web/view"
)

// brokenWordsJS lists the words of 4 to 14 letters in the compare tables
// that the browser split over two lines (a column too narrow for them): a
// word laid out whole has one line box. A line may break at a hyphen or a
// slash, and a longer token (a model's path) may wrap.
const brokenWordsJS = `(() => {
	const out = [];
	for (const tb of document.querySelectorAll("table.compare")) {
		const walk = document.createTreeWalker(tb, NodeFilter.SHOW_TEXT);
		for (let n = walk.nextNode(); n; n = walk.nextNode()) {
			const re = /[^\s\/-]{4,14}/g, part = /[^\s\/-]/;
			let m;
			while ((m = re.exec(n.data)) !== null) {
				if (part.test(n.data[m.index + m[0].length] || "") || part.test(n.data[m.index - 1] || "")) continue;
				const r = document.createRange();
				r.setStart(n, m.index);
				r.setEnd(n, m.index + m[0].length);
				const lines = new Set([...r.getClientRects()].filter(b => b.width > 0).map(b => Math.round(b.top)));
				if (lines.size > 1) out.push(m[0]);
			}
		}
	}
	return out;
})()`

// TestBrowserCompareAtPhoneWidth: /compare, reached from the reports list,
// fits 375 px without breaking words letter by letter, its wide tables
// scroll in boxes the keyboard reaches, and axe finds nothing serious.
func TestBrowserCompareAtPhoneWidth(t *testing.T) {
	app := newTestApp(t)
	demo := demoReport(t, app)
	cands, err := app.store.Candidates(t.Context(), demo.ID)
	if err != nil {
		t.Fatal(err)
	}
	var fp8 int64
	for _, cd := range cands {
		if cd.Candidate.Name == "fp8" {
			fp8 = cd.ID
		}
	}
	ctx := browsertest.New(t)
	steps := append(browserLogin(app, app.users["reviewer"].Email),
		chromedp.Click(css(`nav [href="/compare"]`)),
		browsertest.WaitText(`h1`, "Side by side"),
		chromedp.Navigate(fmt.Sprintf("%s/compare?s=%d&s=%d.c%d", app.srv.URL, demo.ID, demo.ID, fp8)),
		chromedp.WaitVisible(css(`[data-testid="compare-table"]`)),
		chromedp.EmulateViewport(375, 800),
	)
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
	browsertest.NoHorizontalScroll(ctx, t, "compare", 375)
	broken, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](brokenWordsJS))
	if err != nil {
		t.Fatal(err)
	}
	if len(broken) > 0 {
		t.Errorf("at 375 px the compare tables split %d words over lines: %q", len(broken), broken)
	}
	regions, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('.table-scroll[role="region"][tabindex="0"][aria-label] > table.compare').length`))
	if err != nil {
		t.Fatal(err)
	}
	if regions < 1 {
		t.Errorf("the compare table's scroll box is no labelled region the keyboard reaches")
	}
	browsertest.CheckAxe(ctx, t, "compare at 375 px")
}

// TestBrowserResidencyTableByKeyboard: a reviewer's read-only residency
// table, too wide for 375 px, scrolls in a labelled region that takes the
// focus, so the keyboard reaches its hidden columns; axe finds nothing
// serious in it.
func TestBrowserResidencyTableByKeyboard(t *testing.T) {
	app := newTestApp(t)
	id, _ := seedMatrix(t, app)
	f := url.Values{"version": {reportVersion(t, app, id)}, "rows": {"2"}}
	for i, vals := range [][]string{
		{"name", "chat", "model", "llama-3.1-8b-instruct", "residency", "resident", "memory_budget_gib", "40", "admitted_concurrency", "8", "owner", "Platform team", "queue_policy", "first come, first served", "overload_outcome", "429 with Retry-After"},
		{"name", "code", "model", "qwen-2.5-coder-14b-instruct", "residency", "switched", "memory_budget_gib", "30", "cold_start_s", "45", "owner", "Developer tools"},
	} {
		for j := 0; j+1 < len(vals); j += 2 {
			f.Set(view.RouteField(i, vals[j]), vals[j+1])
		}
	}
	if res, body := do(t, app.client("lead"), "POST", fmt.Sprintf("%s/reports/%d/residency", app.srv.URL, id), f); res.StatusCode >= 400 {
		t.Fatalf("save routes: %d %.300s", res.StatusCode, body)
	}
	ctx := browsertest.New(t)
	steps := append(browserLogin(app, app.users["reviewer"].Email),
		chromedp.EmulateViewport(375, 800),
		chromedp.Navigate(app.srv.URL+view.SectionURL(id, "residency")),
		chromedp.WaitVisible(css(`#residency table[data-testid="routes"]`)),
	)
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
		const box = document.querySelector('#residency table[data-testid="routes"]').parentElement;
		box.focus();
		return [box.scrollWidth > box.clientWidth, box.getAttribute("tabindex"), box.getAttribute("role"), box.getAttribute("aria-label") || "", document.activeElement === box].join("|");
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(got, "|")
	if parts[0] != "true" {
		t.Fatalf("the routes table does not scroll at 375 px (%s): the test proves nothing", got)
	}
	if parts[1] != "0" || parts[2] != "region" || parts[3] == "" || parts[4] != "true" {
		t.Errorf("the routes table's scroll box (tabindex|role|label|focused) = %s, want 0|region|a label|focused", strings.Join(parts[1:], "|"))
	}
	browsertest.CheckAxe(ctx, t, "residency at 375 px")
}

// TestBrowserQuoteRequestAnswersInPlace: a lead's quote request is
// answered beside its button (sent, and where it now stands), the form
// emptied so it is not sent twice, and its link leads to the comments
// that hold it.
func TestBrowserQuoteRequestAnswersInPlace(t *testing.T) {
	app := newTestApp(t)
	id, _ := seedMatrix(t, app)
	ctx := browsertest.New(t)
	steps := append(browserLogin(app, app.users["lead"].Email),
		chromedp.Navigate(app.srv.URL+view.SectionURL(id, "costs")),
		chromedp.WaitVisible(css(`[data-testid="quote-request-form"] > summary`)),
		chromedp.Click(css(`[data-testid="quote-request-form"] > summary`)),
		chromedp.SendKeys(css(`[data-testid="quote-request-text"]`), "Please price Example AI's 8B model in the EU"),
		chromedp.Click(css(`[data-testid="quote-request-submit"]`)),
		browsertest.WaitText(`[data-testid="quote-request-form"] [data-testid="quote-request-status"]`, "Request sent"),
	)
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
		const st = document.querySelector('[data-testid="quote-request-status"]');
		const r = st.getBoundingClientRect();
		const inView = r.top >= 0 && r.bottom <= window.innerHeight;
		return [st.textContent.includes("comments") && st.textContent.includes("quote library"), inView,
			document.querySelector('[data-testid="quote-request-text"]').value === "",
			document.querySelector('[data-testid="quote-request-form"]').open].join("|");
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if got != "true|true|true|true" {
		t.Errorf("after the request (says where|in view|emptied|open) = %s", got)
	}
	if err := chromedp.Do(ctx, chromedp.Click(css(`[data-testid="quote-request-status"] a[href*="#comments"]`)),
		browsertest.WaitText(`#comments`, "Please price Example AI's 8B model in the EU")); err != nil {
		t.Errorf("the status's link to the comments: %v", err)
	}
	if errs := browsertest.ConsoleErrors(ctx); len(errs) > 0 {
		t.Errorf("console errors: %v", errs)
	}
}
