package view

import (
	"regexp"
	"strings"
	"testing"

	"capplan/web/store"
)

// The review bar says where the report stands and why it can or cannot be
// edited, with the state in words beside its badge, not run into it.
// (Which forms web's viewOf leaves to the lead in each state is tested in
// web.)
func TestReviewBarSaysWhy(t *testing.T) {
	demo := demoReport(t)
	draft := printOf(t, demo)
	if got := testid(draft, "review-state-text"); !strings.HasPrefix(got, "Draft: its editors may change it") {
		t.Errorf("draft's review text = %q", got)
	}
	inReview := printOf(t, inReviewState(demo, store.StateInReview))
	if got := testid(inReview, "review-state-text"); !strings.Contains(got, "sections are locked until a reviewer approves the report or sends it back") {
		t.Errorf("in review, the review bar says %q, not why nothing can be edited", got)
	}
	if !regexp.MustCompile(`data-testid="review-state">in review</span>\s+<span`).MatchString(inReview) {
		t.Error("the badge runs into the text after it")
	}
	approved := printOf(t, inReviewState(demo, store.StateApproved))
	got := regexp.MustCompile(`<[^>]+>`).ReplaceAllString(between(approved, `data-testid="review-state-text">`, "</span>"), "")
	if !strings.Contains(got, ">Approved by B. Reviewer on ") || !strings.Contains(got, "read-only for everyone; start a new revision to change it.") {
		t.Errorf("approved, the review bar says %q", got)
	}
	if !regexp.MustCompile(`data-testid="review-state">approved</span>\s+<span`).MatchString(approved) {
		t.Error("the approved badge runs into the text after it")
	}
}
