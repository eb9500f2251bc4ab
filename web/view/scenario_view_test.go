package view

import (
	"strings"
	"testing"

	"capplan/planner"
)

// A scenario whose busy hour needs thousands of boxes shows a window of
// its hybrid plans, the cheapest marked, and says how many it left out.
func TestHybridTableWindow(t *testing.T) {
	h := &planner.Hybrid{Best: 40, Text: "own 40 boxes"}
	for n := range 3000 {
		h.Options = append(h.Options, planner.HybridOption{Boxes: n, Paid: n})
	}
	r := planner.Result{Currency: "EUR", Scenarios: []planner.ScenarioResult{{Scenario: planner.Scenario{Name: "peak"}, Hybrid: h}}}
	var b strings.Builder
	if err := scenarioQueues(r).Render(t.Context(), &b); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if n := strings.Count(page, `data-testid="hybrid-peak-`); n != 28 {
		t.Errorf("%d hybrid rows, want 28 (8 first, 17 around the best, 3 last)", n)
	}
	if !strings.Contains(page, `class="cheapest" data-testid="hybrid-peak-40"`) {
		t.Error("n = 40 not marked the cheapest")
	}
	if got := testid(page, "hybrid-cut-peak"); !strings.Contains(got, "28 of 3,000 box counts shown") {
		t.Errorf("cut note = %q", got)
	}
}
