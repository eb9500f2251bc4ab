package view

import (
	"html"
	"strings"
	"testing"

	"capplan/web/store"
)

// A report with one failing item (the demo with no owner on its
// recommendation) shows the path with that step next, and its exit check
// lists the failing item first with the passing ones folded; the banner
// says what a passing check means where the report stands (draft, in
// review, approved).
func TestPathAndExitCheckOrder(t *testing.T) {
	demo := demoReport(t)
	in := demo.In
	rec := *in.Recommendation
	rec.Owner = ""
	in.Recommendation = &rec
	v := withInputs(demo, in)
	page := printOf(t, v)
	text := html.UnescapeString(page)

	if !strings.Contains(text, `<h2 id="path-title">Next step: Write the recommendation</h2>`) {
		t.Errorf("path: next step is not the recommendation:\n%s", between(page, `data-testid="path"`, "</section>"))
	}
	for step, done := range map[string]string{"contract": "true", "freeze": "true", "results": "true", "recommendation": "false", "submit": "false"} {
		if !strings.Contains(page, `data-testid="path-step-`+step+`" data-done="`+done+`"`) {
			t.Errorf("path step %s is not done=%s", step, done)
		}
	}
	if !strings.Contains(page, `href="#recommendation" data-testid="path-next-link"`) {
		t.Error("the next step does not link to the recommendation")
	}

	ec := between(page, `id="exitcheck"`, "</section>")
	fail, folded := strings.Index(ec, `data-testid="exit-recommendation"`), strings.Index(ec, `<details class="exit-passing" data-testid="exit-passing">`)
	if fail < 0 || folded < 0 || fail > folded {
		t.Errorf("exit check: failing item at %d, passing folded at %d:\n%s", fail, folded, ec)
	}
	if pass := strings.Index(ec, `data-testid="exit-identities"`); pass < folded {
		t.Errorf("a passing item is not inside the folded list (%d < %d)", pass, folded)
	}
	if !strings.Contains(ec, "items hold</summary>") {
		t.Error("the folded list does not say how many items hold")
	}
	if strings.Contains(page, `data-testid="exit-pass"`) {
		t.Error("a failing exit check says every item holds")
	}

	// The demo as it is (owner written): every item holds, and the banner
	// says what that allows where the report stands.
	for _, c := range []struct {
		state store.State
		want  string
	}{
		{store.StateDraft, "Every item holds: the report may be submitted for review."},
		{store.StateInReview, "Every item holds: a reviewer may approve the report."},
		{store.StateApproved, "Every item held when the report was approved."},
	} {
		v := demo
		if c.state != store.StateDraft {
			v = inReviewState(demo, c.state)
		}
		page := printOf(t, v)
		if got := testid(page, "exit-pass"); got != c.want {
			t.Errorf("%s banner = %q, want %q", c.state, got, c.want)
		}
		if c.state != store.StateDraft && strings.Contains(page, `id="path-title"`) {
			t.Errorf("%s: the path still shows a next step once submitted", c.state)
		}
		if c.state == store.StateApproved && strings.Contains(page, "the report may be approved") {
			t.Error("an approved report still says it may be approved")
		}
	}
}
