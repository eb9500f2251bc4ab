package view

import (
	"strings"
	"testing"

	"capplan/planner"
)

// The residency plan says whether its routes fit the device: 40 GiB
// resident + the larger switched 30 GiB = 70 GiB of the 72 usable (80 less
// the objective's 10 % headroom) fits, and the owner's form holds the
// routes; with 50 GiB resident it does not fit, and a reader sees the
// routes without the form.
func TestResidencyRoutesAndFit(t *testing.T) {
	v := sweepReport(t)
	in := v.In
	in.Routes = []planner.Route{
		{Name: "chat", Model: "llama-8b", Residency: "resident", MemoryBudgetGiB: planner.F(40), AdmittedConcurrency: planner.I(8), Owner: "Ann"},
		{Name: "code", Model: "qwen-14b", Residency: "switched", MemoryBudgetGiB: planner.F(30), ColdStartS: planner.F(45)},
		{Name: "embed", Model: "e5", Residency: "switched", MemoryBudgetGiB: planner.F(2), ColdStartS: planner.F(5)},
	}
	rs := sectionIn(printOf(t, withInputs(v, in)), "residency")
	for _, want := range []string{`data-testid="residency-fit">fits<`, "resident 40 GiB + largest switched 30 GiB = 70 GiB, within the 72 GiB usable", `value="qwen-14b"`} {
		if !strings.Contains(rs, want) {
			t.Errorf("residency lacks %q", want)
		}
	}

	in.Routes = []planner.Route{
		{Name: "chat", Residency: "resident", MemoryBudgetGiB: planner.F(50)},
		{Name: "code", Residency: "switched", MemoryBudgetGiB: planner.F(30), ColdStartS: planner.F(45)},
	}
	reader := withInputs(v, in)
	reader.CanEdit, reader.CanEditCosts, reader.CanSubmit = false, false, false
	rs = sectionIn(printOf(t, reader), "residency")
	if !strings.Contains(rs, `data-testid="residency-fit">does not fit<`) || strings.Contains(rs, "embed") || strings.Contains(rs, "residency-form") {
		t.Errorf("after the change (reader's view):\n%s", rs)
	}
}
