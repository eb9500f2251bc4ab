package web

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestPathAndExitCheckOrder: a report with one failing item shows the path
// with that step next, and its exit check lists the failing item first
// with the passing ones folded; the banner says what a passing check
// means where the report stands (draft, in review, approved).
func TestPathAndExitCheckOrder(t *testing.T) {
	app := newTestApp(t)
	id := seedReviewReport(t, app) // every item holds but the recommendation's owner
	lead := app.client("lead")
	base := fmt.Sprintf("%s/reports/%d", app.srv.URL, id)
	_, page := do(t, lead, http.MethodGet, base+"/print", nil)
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

	// Owner written: every item holds, and the banner says it may be submitted.
	fixRecommendation(t, app, id)
	_, page = do(t, lead, http.MethodGet, base+"/print", nil)
	if got := testid(page, "exit-pass"); got != "" && got != "Every item holds: the report may be submitted for review." {
		t.Errorf("draft banner = %q", got)
	}
	if strings.Contains(page, `data-testid="exit-pass"`) {
		post(t, app, lead, id, "/submit", nil)
		_, page = do(t, lead, http.MethodGet, base+"/print", nil)
		if got := testid(page, "exit-pass"); got != "Every item holds: a reviewer may approve the report." {
			t.Errorf("in review banner = %q", got)
		}
		if strings.Contains(page, `id="path-title"`) {
			t.Error("the path still shows a next step once submitted")
		}
		post(t, app, app.client("reviewer"), id, "/approve", url.Values{"confirm": {"yes"}})
		_, page = do(t, lead, http.MethodGet, base+"/print", nil)
		if got := testid(page, "exit-pass"); got != "Every item held when the report was approved." {
			t.Errorf("approved banner = %q", got)
		}
		if strings.Contains(page, "the report may be approved") {
			t.Error("an approved report still says it may be approved")
		}
	} else {
		t.Errorf("the owner did not make the exit check pass:\n%s", between(page, `id="exitcheck"`, "</details>"))
	}
}
