package web

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/a-h/templ"

	"capplan/planner"
)

// An error page's heading says what happened in words, never the HTTP
// status's name: a conflict is headed "Not done", on the plain error page
// and on one under a report.
func TestErrorPageHeadingInWords(t *testing.T) {
	for _, c := range []templ.Component{errorPage(http.StatusConflict, "The report is in review."), reportErrorPage(http.StatusConflict, "The report is in review.", 7)} {
		var b strings.Builder
		if err := c.Render(context.Background(), &b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "<h1>Not done: the report stands otherwise</h1>") || strings.Contains(b.String(), "Conflict") {
			t.Errorf("a conflict's error page:\n%s", b.String())
		}
	}
	for _, code := range []int{400, 401, 403, 405, 409, 413, 422, 429, 500, 503} {
		if got := statusText(code); got == http.StatusText(code) || got == "" {
			t.Errorf("heading of %d = %q: the status's name, not words", code, got)
		}
	}
}

// The login page says what capplan is for before asking who you are.
func TestLoginPageSaysWhatCapplanIs(t *testing.T) {
	app := newTestApp(t)
	res, body := do(t, http.DefaultClient, "GET", app.srv.URL+"/login", nil)
	about := testid(body, "login-about")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("login page: %d", res.StatusCode)
	}
	for _, want := range []string{"GPU serving box", "how much load it may admit", "API"} {
		if !strings.Contains(about, want) {
			t.Errorf("the login page's introduction lacks %q: %q", want, about)
		}
	}
}

// "Why the plan's boxes stand" is not marked required: the form says it
// is optional until a scenario's busy hour needs more boxes than the plan,
// and then names that scenario.
func TestBeyondPlanAskedOnlyWhenNeeded(t *testing.T) {
	r := planner.Result{Capacity: planner.Capacity{MaxBoxes: 1}, Scenarios: []planner.ScenarioResult{
		{Scenario: planner.Scenario{Name: "expected"}, BoxesNeeded: planner.I(1)},
	}}
	if got := beyondPlanWhen(r); !strings.HasPrefix(got, "Optional") {
		t.Errorf("within the plan: %q", got)
	}
	r.Scenarios = append(r.Scenarios, planner.ScenarioResult{Scenario: planner.Scenario{Name: "peak"}, BoxesNeeded: planner.I(2)})
	if got := beyondPlanWhen(r); !strings.Contains(got, "Needed to keep the plan") || !strings.Contains(got, "scenario peak") {
		t.Errorf("beyond the plan: %q", got)
	}

	app := newTestApp(t)
	id, _ := seedMatrix(t, app)
	_, body := do(t, app.client("lead"), "GET", fmt.Sprintf("%s/reports/%d", app.srv.URL, id), nil)
	label := between(body, "Why the plan's boxes stand", "</label>")
	if label == "" {
		t.Fatal("no recommendation form on the lead's report")
	}
	if strings.Contains(label, "required") || !strings.Contains(label, `data-testid="beyond-plan-when"`) || !strings.Contains(label, "Optional") {
		t.Errorf("the field is marked required or says nothing of when it is asked:\n%s", label)
	}
}
