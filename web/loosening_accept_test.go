package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"capplan/planner"
	"capplan/web/store"
)

// TestLoosenedObjectiveBlocksApprovalUntilAccepted: after results the
// demo's end-to-end bound is raised from 15 s to 20 s (so 10 streams
// passes); the reviewer cannot approve until they accept the loosening in
// writing, and the acceptance is in the history. (The acceptance form
// and the failing exit-check item on the page: web/view's
// TestLoosenedObjectiveAsksTheReviewerToAccept.)
func TestLoosenedObjectiveBlocksApprovalUntilAccepted(t *testing.T) {
	app := newTestApp(t)
	r := seedDemoInto(t, app)
	ctx := context.Background()
	demoAdmin, err := app.store.UserByEmail(ctx, "admin")
	if err != nil {
		t.Fatal(err)
	}
	c := r.Contract
	old := c.Objective.String()
	c.Objective.E2EMax = planner.F(20)
	e := store.Edit{ReportID: r.ID, BaseVersion: r.Version, UserID: demoAdmin.ID, Action: "contract amended", Section: "contract"}
	if err := app.store.SaveContract(ctx, e, c, []planner.Amendment{{Field: "objective", OldValue: old, NewValue: c.Objective.String(),
		Reason: "10 streams misses by a second", Loosened: true, ResultsExisted: true}}); err != nil {
		t.Fatal(err)
	}
	r, _ = app.store.Report(ctx, r.ID)
	e = store.Edit{ReportID: r.ID, BaseVersion: r.Version, UserID: demoAdmin.ID, Action: "submitted for review", Section: "review"}
	if err := app.store.Transition(ctx, e, store.StateInReview, ""); err != nil {
		t.Fatal(err)
	}
	rev := app.client("reviewer")
	base := fmt.Sprintf("%s/reports/%d", app.srv.URL, r.ID)

	res, _ := do(t, rev, http.MethodPost, base+"/approve", url.Values{"version": {app.version(r.ID)}, "confirm": {"yes"}})
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("approve a loosened report: %d", res.StatusCode)
	}
	// Words are required.
	res, _ = do(t, rev, http.MethodPost, base+"/loosening/accept", url.Values{"version": {app.version(r.ID)}, "objective": {c.Objective.String()}, "text": {" "}})
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("empty acceptance: %d", res.StatusCode)
	}
	// A lead may not accept.
	res, _ = do(t, app.client("lead"), http.MethodPost, base+"/loosening/accept", url.Values{"version": {app.version(r.ID)}, "objective": {c.Objective.String()}, "text": {"fine"}})
	if res.StatusCode != http.StatusForbidden {
		t.Fatalf("a lead accepts: %d", res.StatusCode)
	}
	res, _ = do(t, rev, http.MethodPost, base+"/loosening/accept", url.Values{"version": {app.version(r.ID)}, "objective": {c.Objective.String()}, "text": {"16 s at 10 streams is fine for the support desk"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("accept: %d", res.StatusCode)
	}
	hist, _ := app.store.History(ctx, r.ID)
	if hist[0].Action != "loosened objective accepted" || !strings.Contains(hist[0].After, "16 s at 10 streams is fine") {
		t.Errorf("history %+v", hist[0])
	}
	res, _ = do(t, rev, http.MethodPost, base+"/approve", url.Values{"version": {app.version(r.ID)}, "confirm": {"yes"}})
	if res.StatusCode != http.StatusSeeOther {
		_, page := do(t, rev, http.MethodGet, base+"/print", nil)
		t.Fatalf("approve after the acceptance: %d\n%s", res.StatusCode, between(page, `data-testid="exit-fail"`, "</p>"))
	}
}
