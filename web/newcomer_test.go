package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"capplan/web/view"
)

// A newcomer's first pages say what they are: the login page what
// capplan is for, an error page's heading what happened (not the
// protocol's "Conflict"), and the navigation offers the comparison.
func TestNewcomerWords(t *testing.T) {
	app := newTestApp(t)
	_, login := do(t, http.DefaultClient, http.MethodGet, app.srv.URL+"/login", nil)
	if about := between(login, `data-testid="login-about"`, "</p>"); !strings.Contains(about, "GPU serving box") || !strings.Contains(about, "API") {
		t.Errorf("the login page does not say what capplan is: %q", about)
	}
	_, list := do(t, app.client("reviewer"), http.MethodGet, app.srv.URL+"/reports", nil)
	if !strings.Contains(list, `href="/compare" data-testid="nav-compare"`) {
		t.Error("the navigation has no way to the comparison")
	}
	// A stale save answers 409 with a heading in words.
	id, _ := app.store.CreateReport(context.Background(), app.users["lead"], "Stale")
	res, body := do(t, app.client("lead"), http.MethodPost, fmt.Sprintf("%s/reports/%d/withdraw", app.srv.URL, id), url.Values{"version": {"1"}})
	if res.StatusCode != http.StatusConflict {
		t.Fatalf("withdrawing a draft: %d", res.StatusCode)
	}
	if strings.Contains(body, "<h1>Conflict</h1>") {
		t.Error(`the error page's heading is the protocol's "Conflict"`)
	}
	for code, want := range map[int]string{409: "Not done: the report has changed or is locked", 422: "Not accepted", 403: "Not allowed"} {
		if got := view.StatusText(code); got != want {
			t.Errorf("view.StatusText(%d) = %q, want %q", code, got, want)
		}
	}
}

// The residency table scrolls sideways in a box the keyboard reaches: a
// named region with tabindex 0 (axe: scrollable-region-focusable).
func TestResidencyTableReachableByKeyboard(t *testing.T) {
	app := newTestApp(t)
	demo := demoReport(t, app)
	_, page := do(t, app.client("reviewer"), http.MethodGet, fmt.Sprintf("%s/reports/%d/decision", app.srv.URL, demo.ID), nil)
	box := between(page, `data-testid="routes-scroll"`, ">")
	if !strings.Contains(page, `tabindex="0" role="region" aria-label="Routes and their residency" data-testid="routes-scroll"`) {
		t.Errorf("the residency table's scroll box is not a named, focusable region: %q", box)
	}
}

// "Why the plan's boxes stand" is asked for only when a scenario's busy
// hour needs more boxes than the plan allows: a report with no scenario
// beyond it says optional; the demo's expected busy hour needs more boxes than
// its plan with random arrivals, so there it is needed.
func TestBeyondPlanOptionalWhenTheScenariosFit(t *testing.T) {
	app := newTestApp(t)
	demo := demoReport(t, app)
	_, page := do(t, app.client("admin"), http.MethodGet, fmt.Sprintf("%s/reports/%d/part/recommendation", app.srv.URL, demo.ID), nil)
	if need := testid(page, "beyond-plan-need"); !strings.HasPrefix(need, "needed") {
		t.Errorf("with the demo's busy hour beyond its plan the field says %q, want needed", need)
	}
	id, err := app.store.CreateReport(context.Background(), app.users["lead"], "Within the plan")
	if err != nil {
		t.Fatal(err)
	}
	_, page = do(t, app.client("admin"), http.MethodGet, fmt.Sprintf("%s/reports/%d/part/recommendation", app.srv.URL, id), nil)
	need := testid(page, "beyond-plan-need")
	if !strings.HasPrefix(need, "optional") {
		t.Errorf("with every scenario within the plan the field says %q, want optional", need)
	}
	if strings.Contains(page, "required to keep the plan") {
		t.Error("the field is still labelled required")
	}
}
