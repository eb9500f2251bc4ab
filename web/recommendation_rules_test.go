package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"capplan/web/reports"
	"capplan/web/store"
)

// The recommendation's rule is enforced where it is saved: on the demo,
// where the hosted API is cheaper in the expected scenario, "keep" without
// a justification is refused at the justification field, and saved with
// one. (The form's wording before saving is tested in web/view.)
func TestRecommendationCostlierNeedsJustification(t *testing.T) {
	app := newTestApp(t)
	ctx := context.Background()
	owner, err := app.store.CreateUser(ctx, "admin", "Admin", store.RoleAdmin, testPassword)
	if err != nil {
		t.Fatal(err)
	}
	app.users["demo"] = owner
	if err := reports.SeedDemo(ctx, app.store, t.TempDir()); err != nil {
		t.Fatal(err)
	}
	list, _ := app.store.Reports(ctx)
	id := list[0].ID
	base := fmt.Sprintf("%s/reports/%d", app.srv.URL, id)
	c := app.client("demo")

	keep := url.Values{"decision": {"keep"}, "owner": {"A. Lead"}, "review_date": {"2027-03-02"}}
	for i := range 5 {
		keep.Set(fmt.Sprintf("gates[%d].verdict", i), "pass")
	}
	before := reportVersion(t, app, id)
	keep.Set("version", before)
	res, body := do(t, c, "POST", base+"/recommendation", keep)
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, `data-testid="err-justification"`) || !strings.Contains(body, "Why this decision: required: keeping self-hosting") {
		t.Fatalf("keep without a justification: %d, want 422 at the justification:\n%s", res.StatusCode, between(body, `data-testid="form-errors"`, "</div>"))
	}
	if got := reportVersion(t, app, id); got != before {
		t.Fatalf("the refused recommendation was saved (version %s → %s)", before, got)
	}
	keep.Set("justification", "the data stays on our premises until the DPA is signed")
	if res, body := do(t, c, "POST", base+"/recommendation", keep); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("keep with a justification: %d %s", res.StatusCode, between(body, `data-testid="form-errors"`, "</div>"))
	}
	rep, err := reports.New(app.store, t.TempDir(), nil).Load(ctx, id)
	if err != nil || rep.In.Recommendation.Decision != "keep" {
		t.Fatalf("the decision was not saved: %v", err)
	}
}
