package view

import (
	"fmt"
	"html"
	"strings"
	"testing"
)

// Where the matrix names a planned row no file has (sweepReport with a
// contract that also plans load 16), the plan amendment is offered in
// place on the results step with the rows run filled in, and the
// overview's path links to it; a reader sees no such form, and with the
// plan amended to the rows run nothing names a missing row. (The
// amendment's refusal without a reason and its save are tested in web.)
func TestPlanAmendedInPlace(t *testing.T) {
	v := sweepReport(t)
	in := v.In
	in.Contract.Loads = []float64{1, 2, 4, 8, 10, 16}
	v.R.Contract = in.Contract // the stored contract: no amendment yet
	v = withInputs(v, in)
	page := html.UnescapeString(stepPageOf(t, v, "results"))
	for _, want := range []string{
		"the contract plans load 16 concurrent streams but no row has it",
		`<details id="plan-amend"`,
		`Run the missing row (16) and import its file, or amend the frozen plan`,
		`name="loads" value="1, 2, 4, 8, 10" data-testid="plan-amend-loads"`,
	} {
		if !strings.Contains(page, want) {
			i := strings.Index(page, `id="plan-amend"`)
			t.Errorf("results step lacks %q: %s", want, page[max(i, 0):min(len(page), max(i, 0)+600)])
		}
	}
	if want := fmt.Sprintf(`href="/reports/%d/results#plan-amend" data-testid="path-next-link"`, v.R.ID); !strings.Contains(stepPageOf(t, v, ""), want) {
		t.Errorf("overview's path lacks %s", want)
	}
	reader := v
	reader.CanEdit, reader.CanEditCosts, reader.CanSubmit = false, false, false
	reader.Imports.CanEdit = false
	if strings.Contains(stepPageOf(t, reader, "results"), `id="plan-amend"`) {
		t.Error("a reader is offered the plan amendment")
	}

	in.Contract.Loads = []float64{1, 2, 4, 8, 10}
	v.R.Contract = in.Contract
	page = stepPageOf(t, withInputs(v, in), "results")
	if strings.Contains(page, `id="plan-amend"`) || strings.Contains(page, "no row has it") {
		t.Error("with the plan amended the results step still names a missing row")
	}
}
