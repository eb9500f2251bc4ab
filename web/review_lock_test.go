package web

import (
	"fmt"
	"net/url"
	"regexp"
	"testing"
)

// In review and after approval the lead sees no edit form (only the
// comment and withdraw forms while in review, the revise form once
// approved). (What the review bar says in each state is tested in
// web/view.)
func TestReviewLocksTheForms(t *testing.T) {
	app := newTestApp(t)
	id := seedReviewReport(t, app)
	fixRecommendation(t, app, id)
	base := fmt.Sprintf("%s/reports/%d", app.srv.URL, id)
	lead, rev := app.client("lead"), app.client("reviewer")
	actions := regexp.MustCompile(fmt.Sprintf(`action="/reports/%d/([a-z/0-9-]+)"`, id))
	posts := func(page string) []string {
		var out []string
		for _, m := range actions.FindAllStringSubmatch(page, -1) {
			out = append(out, m[1])
		}
		return out
	}
	_, draft := do(t, lead, "GET", base+"/print", nil)
	if n := len(posts(draft)); n < 5 {
		t.Fatalf("a draft shows %d forms to its lead, want its edit forms: %v", n, posts(draft))
	}
	do(t, lead, "POST", base+"/submit", url.Values{"version": {app.version(id)}, "confirm": {"yes"}})
	_, inReview := do(t, lead, "GET", base+"/print", nil)
	for _, a := range posts(inReview) {
		if a != "comments" && a != "withdraw" {
			t.Errorf("in review the lead still sees the form posting to %s", a)
		}
	}
	do(t, rev, "POST", base+"/approve", url.Values{"version": {app.version(id)}, "confirm": {"yes"}})
	_, approved := do(t, lead, "GET", base+"/print", nil)
	for _, a := range posts(approved) {
		if a != "revise" {
			t.Errorf("approved, the lead still sees the form posting to %s", a)
		}
	}
}
