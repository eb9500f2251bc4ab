package web

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// In review and after approval the lead sees no edit form (only the
// comment and withdraw forms while in review), and the review bar says why, with the
// state in words beside its badge, not run into it.
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
	if got := testid(draft, "review-state-text"); !strings.HasPrefix(got, "Draft: its editors may change it") {
		t.Errorf("draft's review text = %q", got)
	}
	do(t, lead, "POST", base+"/submit", url.Values{"version": {app.version(id)}, "confirm": {"yes"}})
	_, inReview := do(t, lead, "GET", base+"/print", nil)
	for _, a := range posts(inReview) {
		if a != "comments" && a != "withdraw" {
			t.Errorf("in review the lead still sees the form posting to %s", a)
		}
	}
	if got := testid(inReview, "review-state-text"); !strings.Contains(got, "sections are locked until a reviewer approves the report or sends it back") {
		t.Errorf("in review, the review bar says %q, not why nothing can be edited", got)
	}
	if !regexp.MustCompile(`data-testid="review-state">in review</span>\s+<span`).MatchString(inReview) {
		t.Error("the badge runs into the text after it")
	}
	do(t, rev, "POST", base+"/approve", url.Values{"version": {app.version(id)}, "confirm": {"yes"}})
	_, approved := do(t, lead, "GET", base+"/print", nil)
	for _, a := range posts(approved) {
		if a != "revise" {
			t.Errorf("approved, the lead still sees the form posting to %s", a)
		}
	}
	got := regexp.MustCompile(`<[^>]+>`).ReplaceAllString(between(approved, `data-testid="review-state-text">`, "</span>"), "")
	if !strings.Contains(got, ">Approved by reviewer on ") || !strings.Contains(got, "read-only for everyone; start a new revision to change it.") {
		t.Errorf("approved, the review bar says %q", got)
	}
	if !regexp.MustCompile(`data-testid="review-state">approved</span>\s+<span`).MatchString(approved) {
		t.Error("the approved badge runs into the text after it")
	}
}
