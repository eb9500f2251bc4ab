package xlsx

import (
	"strings"
	"testing"

	"capplan/planner"
)

// The Matrix sheet carries each row's confidence as values beside its
// figures (docs/method.md, "Confidence"), and an output-speed floor is
// judged on the ITL columns (docs/method.md, "Interactivity").
func TestMatrixSheetConfidenceAndSpeed(t *testing.T) {
	in := workedInputs()
	r := &in.Rows[3] // the ceiling row, 8 streams
	for i := range 200 {
		r.Samples = append(r.Samples, planner.Sample{TTFT: 0.4, E2E: float32(5 + float64(i)*0.01), ITL: 0.02, OutputTokens: 500, OK: true})
	}
	in.Contract.Objective.TPOTMax, in.Contract.Objective.TPOTAsSpeed = planner.F(0.05), true
	for i := range in.Rows {
		in.Rows[i].ITL = planner.Stat{P50: planner.F(0.02), P95: planner.F(0.03), P99: planner.F(0.04)}
		in.Rows[i].TPOT = planner.Stat{P50: planner.F(0.06), P95: planner.F(0.07), P99: planner.F(0.08)} // first token included
	}
	rep := testReport(in)
	f := openBook(t, writeBook(t, rep))
	row := -1
	for i, rr := range rep.Result.Matrix {
		if rr.LoadKnown && rr.Load == 8 {
			row = i + 2
		}
	}
	if got := raw(t, f, cell{shMatrix, colE2EUpper, row}); !near(got, 6.95, 1e-5) {
		t.Errorf("E2E upper bound %q, want the 196th of 200 (6.95)", got)
	}
	if got := raw(t, f, cell{shMatrix, colSuccessLow, row}); !strings.HasPrefix(got, "0.98") {
		t.Errorf("success CI lower %q", got)
	}
	if got := raw(t, f, cell{shMatrix, colBounds, row}); !strings.Contains(got, "p95 end-to-end: 95 % upper bound") {
		t.Errorf("confidence text %q", got)
	}
	if got := raw(t, f, cell{shMatrix, colChkTPOT, 1}); got != "Output speed check (on ITL)" {
		t.Errorf("header %q", got)
	}
	if fm := formula(t, f, cell{shMatrix, colChkTPOT, row}); !strings.Contains(fm, cell{shMatrix, colITL95, row}.name()) || strings.Contains(fm, cell{shMatrix, colTPOT95, row}.name()) {
		t.Errorf("speed check formula %s reads the TPOT, not the ITL", fm)
	}
	if got := raw(t, f, cell{shMatrix, colChkTPOT, row}); got != "pass" {
		t.Errorf("speed check %q, want a pass on ITL 30 ms (TPOT 70 ms would fail)", got)
	}
}
