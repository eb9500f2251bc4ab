package web

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"capplan/web/browsertest"
)

// TestBrowserReviewJourney: the lead submits a report whose exit check
// fails, withdraws it from review by keyboard (the form fitting 375 px) and
// submits it again; a reviewer cannot approve it and sends it back with a
// comment; the lead sees it sent back, names the recommendation's owner in
// the form and submits again; the reviewer confirms, approves and
// downloads the workbook.
func TestBrowserReviewJourney(t *testing.T) {
	app := newTestApp(t)
	id := seedReviewReport(t, app)
	ctx := browsertest.New(t)
	// The reviewer's one-page view: the exit check, the review bar and
	// the sections they name together.
	report := fmt.Sprintf("%s/reports/%d/print", app.srv.URL, id)

	login := func(who string) []chromedp.Action[chromedp.Void] {
		return append(browserLogin(app, app.users[who].Email), chromedp.Navigate(report), chromedp.WaitVisible(css(`[data-testid="exitcheck"]`)))
	}
	logout := browserLogout(app)

	steps := []struct {
		name    string
		actions []chromedp.Action[chromedp.Void]
		after   func() // checks of the page the actions leave
	}{
		{name: "the lead is asked first, goes back, then submits with the item failing", actions: append(login("lead"),
			browsertest.WaitText(`[data-testid="exit-recommendation"]`, "owner missing"),
			chromedp.Click(css(`[data-testid="submit-review-open"]`)),
			browsertest.WaitText(`[data-testid="submit-failing"]`, "owner missing"),
			chromedp.Click(css(`[data-testid="submit-go-back"]`)),
			waitTrue("the exit check in view", `location.hash === "#exitcheck"`),
			browsertest.WaitText(`[data-testid="review-state"]`, "draft"),
			chromedp.Click(css(`[data-testid="submit-confirm"]`)),
			chromedp.Click(css(`[data-testid="submit-anyway"]`)),
			browsertest.WaitText(`[data-testid="review-state"]`, "in review"),
			browsertest.WaitText(`[data-testid="review-state-text"]`, "sections are locked"),
			waitTrue("no edit form while in review", `document.querySelector('[data-testid="recommendation-form"], [data-testid="scenario-form"]') === null`),
			chromedp.Focus(css(`[data-testid="withdraw-open"]`)),
			chromedp.KeyEvent("\r"),
			browsertest.WaitText(`[data-testid="withdraw"]`, "Returns the report to draft so you can edit it; submit it again when ready."),
		), after: func() {
			browsertest.NoHorizontalScroll(ctx, t, "withdraw form open", 375)
			browsertest.CheckAxe(ctx, t, "withdraw form open")
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "the lead withdraws it by keyboard, saying why, and submits it again", actions: append([]chromedp.Action[chromedp.Void]{
			chromedp.Focus(css(`textarea[data-testid="withdraw-reason"]`)),
			chromedp.SendKeys(css(`textarea[data-testid="withdraw-reason"]`), "Typed the wrong owner."),
			chromedp.Focus(css(`[data-testid="withdraw-submit"]`)),
			chromedp.KeyEvent("\r"),
			browsertest.WaitText(`[data-testid="flash"]`, "Withdrawn from review"),
			browsertest.WaitText(`[data-testid="review-state"]`, "draft"),
			browsertest.WaitText(`[data-testid="review-state-text"]`, "its editors may change it"),
			waitTrue("the edit forms back", `document.querySelector('[data-testid="scenario-form"]') !== null && document.querySelector('[data-testid="withdraw"]') === null`),
			// The history is off screen, laid out only when near it: its
			// text is read from the document.
			waitTrue("the withdrawal in the history", `(() => { const h = document.querySelector('#history tbody tr'); return !!h && h.textContent.includes("withdrawn from review") && h.textContent.includes("Typed the wrong owner."); })()`),
			chromedp.Click(css(`[data-testid="submit-review-open"]`)),
			chromedp.Click(css(`[data-testid="submit-confirm"]`)),
			chromedp.Click(css(`[data-testid="submit-anyway"]`)),
			browsertest.WaitText(`[data-testid="review-state"]`, "in review"),
		}, logout...)},
		{name: "the reviewer cannot approve while the exit check fails", actions: append(append(login("reviewer"),
			browsertest.WaitText(`[data-testid="exit-fail"]`, "1 item fails"),
			chromedp.WaitVisible(css(`button[data-testid="approve"][disabled]`)),
			browsertest.WaitText(`[data-testid="approve-why"]`, "Cannot approve"),
		), logout...)},
		{name: "the reviewer sends it back with a comment", actions: append(append(login("reviewer"),
			chromedp.Click(css(`[data-testid="send-back-open"]`)),
			chromedp.SendKeys(css(`textarea[data-testid="send-back-comment"]`), "Name the owner."),
			chromedp.Click(css(`button[data-testid="send-back"]`)),
			browsertest.WaitText(`[data-testid="review-state"]`, "sent back"),
			browsertest.WaitText(`blockquote[data-testid="sent-back-comment"]`, "Name the owner."),
		), logout...)},
		{name: "the lead names the recommendation's owner and submits again", actions: append(append(login("lead"),
			browsertest.WaitText(`[data-testid="review-state"]`, "sent back"),
			chromedp.Click(css(`#recommendation details > summary`)),
			chromedp.SendKeys(css(`[data-testid="recommendation-form"] input[name="owner"]`), "A. Lead"),
			chromedp.Click(css(`[data-testid="save-recommendation"]`)),
			browsertest.WaitText(`#recommendation`, "A. Lead"),
			chromedp.Navigate(report),
			browsertest.WaitText(`[data-testid="exit-pass"]`, "Every item holds"),
			chromedp.Click(css(`[data-testid="submit-review"]`)),
			browsertest.WaitText(`[data-testid="review-state"]`, "in review"),
		), logout...)},
		{name: "the reviewer confirms and approves", actions: append(login("reviewer"),
			chromedp.WaitVisible(css(`button[data-testid="approve"]:not([disabled])`)),
			chromedp.Click(css(`[data-testid="approve-confirm"]`)),
			chromedp.Click(css(`button[data-testid="approve"]`)),
			browsertest.WaitText(`[data-testid="review-state"]`, "approved"),
			browsertest.WaitText(`[data-testid="flash"]`, "read-only"),
		)},
	}
	for _, s := range steps {
		if err := chromedp.Do(ctx, browsertest.Steady(s.actions...)...); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if s.after != nil {
			s.after()
		}
	}

	// Download the workbook with the reviewer's session, as the link does.
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(async () => {
		const a = document.querySelector('[data-testid="export-xlsx"]');
		const r = await fetch(a.href);
		const b = new Uint8Array(await r.arrayBuffer());
		return [r.status, r.headers.get('Content-Type'), r.headers.get('Content-Disposition'), String.fromCharCode(b[0], b[1]), b.length].join('|');
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(got, "|")
	if len(parts) != 5 || parts[0] != "200" || parts[1] != xlsxType || !strings.Contains(parts[2], "attachment") || parts[3] != "PK" {
		t.Fatalf("download: %s", got)
	}
	if errs := browsertest.ConsoleErrors(ctx); len(errs) > 0 {
		t.Fatalf("console errors: %v", errs)
	}
}
