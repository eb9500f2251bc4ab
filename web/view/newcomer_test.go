package view

import (
	"strings"
	"testing"

	"capplan/planner"
	"capplan/web/store"
)

// The residency table scrolls sideways in a box the keyboard reaches: a
// named region with tabindex 0 (axe: scrollable-region-focusable).
func TestResidencyTableReachableByKeyboard(t *testing.T) {
	v := demoReport(t)
	v.CanEdit, v.CanEditCosts = false, false // as a reviewer reads it
	page := stepPageOf(t, v, "decision")
	box := between(page, `data-testid="routes-scroll"`, ">")
	if !strings.Contains(page, `tabindex="0" role="region" aria-label="Routes and their residency" data-testid="routes-scroll"`) {
		t.Errorf("the residency table's scroll box is not a named, focusable region: %q", box)
	}
}

// "Why the plan's boxes stand" is asked for only when a scenario's busy
// hour needs more boxes than the plan allows: a report with no scenario
// beyond it says optional; the demo's expected busy hour needs more boxes
// than its plan with random arrivals, so there it is needed. (The
// recommendation's form, as its lazy part serves it.)
func TestBeyondPlanOptionalWhenTheScenariosFit(t *testing.T) {
	form := func(v Report) string {
		return renderHTML(t, RecommendationFormBody(v, WithStoredValues(v, MoneyForm{})))
	}
	demo := demoReport(t)
	if need := testid(form(demo), "beyond-plan-need"); !strings.HasPrefix(need, "needed") {
		t.Errorf("with the demo's busy hour beyond its plan the field says %q, want needed", need)
	}
	blank := Report{R: store.Report{ID: 3, Title: "Within the plan", Version: 1}, CanEdit: true, CanEditCosts: true}
	blank = withInputs(blank, planner.Inputs{})
	page := form(blank)
	if need := testid(page, "beyond-plan-need"); !strings.HasPrefix(need, "optional") {
		t.Errorf("with every scenario within the plan the field says %q, want optional", need)
	}
	if strings.Contains(page, "required to keep the plan") {
		t.Error("the field is still labelled required")
	}
}
