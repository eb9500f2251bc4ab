package web

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"capplan/web/browsertest"
)

// Saving a quote confirms it; a lead on the library is told who adds
// quotes (finance, by name) and how to ask; a lead's request on a report
// reaches finance's library page.
func TestQuoteSaveConfirmsAndLeadsCanRequest(t *testing.T) {
	app := newTestApp(t)
	fin, lead := app.client("finance"), app.client("lead")
	res, body := do(t, fin, http.MethodPost, app.srv.URL+"/quotes", workedQuote("API X"))
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("add quote: %d %s", res.StatusCode, body)
	}
	_, page := do(t, fin, http.MethodGet, app.srv.URL+res.Header.Get("Location"), nil)
	if got := testid(page, "flash"); !strings.Contains(got, "API X") || !strings.Contains(got, "added to the library") {
		t.Errorf("after saving a quote the page confirms %q", got)
	}
	_, page = do(t, lead, http.MethodGet, app.srv.URL+"/quotes", nil)
	note := between(page, `data-testid="quote-keepers"`, "</p>")
	if !strings.Contains(note, "only finance or an admin adds or changes a quote") || !strings.Contains(note, app.users["finance"].Display()) {
		t.Errorf("the lead is not told who adds quotes:\n%s", note)
	}
	id, _ := seedMatrix(t, app)
	_, rp := do(t, lead, http.MethodGet, fmt.Sprintf("%s/reports/%d/print", app.srv.URL, id), nil)
	if !strings.Contains(rp, `data-testid="quote-request-form"`) {
		t.Fatal("the lead's costs offer no way to request a quote")
	}
	res, _ = do(t, lead, http.MethodPost, fmt.Sprintf("%s/reports/%d/comments", app.srv.URL, id), url.Values{"section": {"quotes"}, "comment": {"Please price Example AI's 8B model in the EU"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("request: %d", res.StatusCode)
	}
	_, page = do(t, fin, http.MethodGet, app.srv.URL+"/quotes", nil)
	reqs := between(page, `data-testid="quote-requests"`, "</article>")
	if !strings.Contains(reqs, "Please price Example AI&#39;s 8B model in the EU") || !strings.Contains(reqs, fmt.Sprintf(`/reports/%d/costs#costs`, id)) {
		t.Errorf("finance does not see the lead's request:\n%s", reqs)
	}
	_, fp := do(t, fin, http.MethodGet, fmt.Sprintf("%s/reports/%d/print", app.srv.URL, id), nil)
	if strings.Contains(fp, `data-testid="quote-request-form"`) {
		t.Error("finance, who adds quotes, is offered the request form")
	}
}

// At 1280 px the quote library's list shows Date, Updated and Reports
// without scrolling, with long sources; at 375 px the page does not
// scroll sideways.
func TestBrowserQuoteListFits(t *testing.T) {
	app := newTestApp(t)
	fin := app.client("finance")
	for i, name := range []string{"Hosted Llama 3.1 8B, EU region, committed use", "Example AI flagship"} {
		q := workedQuote(name)
		q.Set("source", strings.Repeat("signed order form with volume discount annex ", 2+i))
		q.Set("quote.provider", "A provider with a long legal name GmbH")
		if res, body := do(t, fin, http.MethodPost, app.srv.URL+"/quotes", q); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("quote: %d %s", res.StatusCode, between(body, "<main", "</main>"))
		}
	}
	ctx := browsertest.New(t)
	if err := chromedp.Do(ctx, browserLogin(app, app.users["finance"].Email)...); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(app.srv.URL+"/quotes"),
		chromedp.WaitVisible(css(`[data-testid="quote-list"]`)),
	); err != nil {
		t.Fatal(err)
	}
	out, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
		const vw = document.documentElement.clientWidth;
		const box = document.querySelector('[data-testid="quote-list"]').closest('.table-scroll');
		const edge = Math.min(vw, box.getBoundingClientRect().right);
		const out = [];
		for (const id of ["quote-col-date", "quote-col-updated", "quote-col-reports"]) {
			const r = document.querySelector('[data-testid="' + id + '"]').getBoundingClientRect();
			if (r.right > edge + 1) out.push(id + " ends at " + Math.round(r.right) + " px, past " + Math.round(edge) + " px");
		}
		return out;
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range out {
		browsertest.ScreenshotView(ctx, t, "quotes-1280")
		t.Errorf("quote list at 1280 px: %s", o)
	}
	browsertest.NoHorizontalScroll(ctx, t, "quotes")
}
