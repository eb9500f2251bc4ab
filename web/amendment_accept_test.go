package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"capplan/planner"
	"capplan/web/browsertest"
	"capplan/web/store"
)

// TestAmendedWorkloadBlocksApprovalUntilAccepted: after results the
// demo's workload is amended (more output tokens); the reviewer cannot
// approve until they accept the terms in force in writing, a lead may not
// accept, and the acceptance is in the history. (The marks and the
// acceptance form on the page: web/view's
// TestAmendedWorkloadAsksTheReviewerToAccept.)
func TestAmendedWorkloadBlocksApprovalUntilAccepted(t *testing.T) {
	app := newTestApp(t)
	r := seedDemoInto(t, app)
	ctx := context.Background()
	demoAdmin, err := app.store.UserByEmail(ctx, "admin")
	if err != nil {
		t.Fatal(err)
	}
	c := r.Contract
	old := c.Workload.String()
	c.Workload.OutputTokens += 10
	e := store.Edit{ReportID: r.ID, BaseVersion: r.Version, UserID: demoAdmin.ID, Action: "contract amended", Section: "contract"}
	if err := app.store.SaveContract(ctx, e, c, []planner.Amendment{{Field: "workload", OldValue: old, NewValue: c.Workload.String(),
		Reason: "production answers run longer", ResultsExisted: true}}); err != nil {
		t.Fatal(err)
	}
	r, _ = app.store.Report(ctx, r.ID)
	e = store.Edit{ReportID: r.ID, BaseVersion: r.Version, UserID: demoAdmin.ID, Action: "submitted for review", Section: "review"}
	if err := app.store.Transition(ctx, e, store.StateInReview, ""); err != nil {
		t.Fatal(err)
	}
	rev := app.client("reviewer")
	base := fmt.Sprintf("%s/reports/%d", app.srv.URL, r.ID)

	terms := planner.AmendedTerms(c.Workload, c.Objective.String())
	res, _ := do(t, rev, http.MethodPost, base+"/approve", url.Values{"version": {app.version(r.ID)}, "confirm": {"yes"}})
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("approve an amended report: %d", res.StatusCode)
	}
	res, _ = do(t, rev, http.MethodPost, base+"/amendment/accept", url.Values{"version": {app.version(r.ID)}, "terms": {terms}, "text": {" "}})
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("empty acceptance: %d", res.StatusCode)
	}
	res, body := do(t, rev, http.MethodPost, base+"/amendment/accept", url.Values{"version": {app.version(r.ID)}, "terms": {"workload something else"}, "text": {"fine as typed"}})
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("acceptance of other terms: %d", res.StatusCode)
	}
	// The refusal is shown in the review bar, the acceptance open with
	// what was typed kept.
	if !strings.Contains(body, "read the terms now in force") || !strings.Contains(body, `data-testid="accept-amendment-text">fine as typed</textarea>`) ||
		!strings.Contains(body, `open data-testid="accept-amendment"`) {
		t.Errorf("refused acceptance not shown again as typed:\n%s", between(body, `id="review"`, `data-testid="accept-amendment-submit"`))
	}
	res, _ = do(t, app.client("lead"), http.MethodPost, base+"/amendment/accept", url.Values{"version": {app.version(r.ID)}, "terms": {terms}, "text": {"fine"}})
	if res.StatusCode != http.StatusForbidden {
		t.Fatalf("a lead accepts: %d", res.StatusCode)
	}
	res, _ = do(t, rev, http.MethodPost, base+"/amendment/accept", url.Values{"version": {app.version(r.ID)}, "terms": {terms}, "text": {"the rows ran within tolerance of the new workload"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("accept: %d", res.StatusCode)
	}
	hist, _ := app.store.History(ctx, r.ID)
	if hist[0].Action != "amendment after results accepted" || !strings.Contains(hist[0].After, "within tolerance of the new workload") {
		t.Errorf("history %+v", hist[0])
	}
	res, _ = do(t, rev, http.MethodPost, base+"/approve", url.Values{"version": {app.version(r.ID)}, "confirm": {"yes"}})
	if res.StatusCode != http.StatusSeeOther {
		_, page := do(t, rev, http.MethodGet, base+"/print", nil)
		t.Fatalf("approve after the acceptance: %d\n%s", res.StatusCode, between(page, `data-testid="exit-fail"`, "</p>"))
	}
}

// TestBrowserAmendedWorkloadJourney: the lead amends the frozen workload
// after results, with a reason, and sees it marked; in review the
// reviewer sees the mark, cannot approve, accepts the amended contract in
// writing and then approves.
func TestBrowserAmendedWorkloadJourney(t *testing.T) {
	app := newTestApp(t)
	id := seedReviewReport(t, app)
	fixRecommendation(t, app, id)
	ctx := browsertest.New(t)
	// The journey reads the contract, the matrix, the exit check and the
	// review together: the report's print view carries them all.
	report := fmt.Sprintf("%s/reports/%d/print", app.srv.URL, id)
	login := func(who string) []chromedp.Action[chromedp.Void] {
		return append(browserLogin(app, app.users[who].Email), chromedp.Navigate(report), chromedp.WaitVisible(css(`[data-testid="exitcheck"]`)))
	}
	logout := browserLogout(app)
	steps := []struct {
		name    string
		actions []chromedp.Action[chromedp.Void]
	}{
		{"the lead amends the workload after results, with a reason", append(append(login("lead"),
			chromedp.Click(css(`[data-testid="edit-contract"]`)),
			chromedp.WaitVisible(css(`textarea[name="reason"]`)),
			chromedp.SetValue(css(`input[name="workload.output_tokens"]`), "266"),
			chromedp.SendKeys(css(`textarea[name="reason"]`), "production answers run longer"),
			chromedp.Click(css(`[data-testid="save-contract"]`)),
			browsertest.WaitText(`[data-testid="amendments"]`, "production answers run longer"),
			chromedp.WaitVisible(css(`#contract [data-testid="amended-workload"]`)),
			chromedp.Navigate(report),
			browsertest.WaitText(`[data-testid="exit-amended_after_results"]`, "a reviewer must accept it in writing"),
			chromedp.Click(css(`[data-testid="submit-review-open"]`)),
			chromedp.Click(css(`[data-testid="submit-confirm"]`)),
			chromedp.Click(css(`[data-testid="submit-anyway"]`)),
			browsertest.WaitText(`[data-testid="review-state"]`, "in review"),
		), logout...)},
		{"the reviewer sees the mark and cannot approve", append(append(login("reviewer"),
			chromedp.WaitVisible(css(`#contract [data-testid="amended-workload"][title*="266 output tokens"]`)),
			chromedp.WaitVisible(css(`[data-testid="matrix-objective"] [data-testid="amended-workload"]`)),
			chromedp.WaitVisible(css(`button[data-testid="approve"][disabled]`)),
			browsertest.WaitText(`[data-testid="exit-fail"]`, "1 item fails"),
		), logout...)},
		{"the reviewer accepts the amendment in writing and approves", append(login("reviewer"),
			chromedp.Click(css(`[data-testid="accept-amendment-open"]`)),
			browsertest.WaitText(`[data-testid="accept-amendment-what"]`, "266 output tokens"),
			chromedp.SendKeys(css(`textarea[data-testid="accept-amendment-text"]`), "the rows ran within tolerance of the new workload"),
			chromedp.Click(css(`button[data-testid="accept-amendment-submit"]`)),
			browsertest.WaitText(`[data-testid="exit-amended_after_results"]`, "accepted by"),
			chromedp.WaitVisible(css(`button[data-testid="approve"]:not([disabled])`)),
			chromedp.Click(css(`[data-testid="approve-confirm"]`)),
			chromedp.Click(css(`button[data-testid="approve"]`)),
			browsertest.WaitText(`[data-testid="review-state"]`, "approved"),
		)},
	}
	for _, s := range steps {
		if err := chromedp.Do(ctx, browsertest.Steady(s.actions...)...); err != nil {
			browsertest.Screenshot(ctx, t, "amended-workload")
			t.Fatalf("%s: %v", s.name, err)
		}
	}
}
