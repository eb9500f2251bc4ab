package view

import (
	"strings"
	"testing"

	"capplan/planner"
)

// The matrix shows a row's confidence bounds on demand, in the title of
// its figure's cell, and the success rate's interval beside it
// (docs/method.md, "Confidence").
func TestMatrixCellTitleCarriesTheBounds(t *testing.T) {
	r := planner.Row{LoadKind: planner.LoadConcurrency, Load: planner.F(1), Attempted: planner.I(59), Successful: planner.I(59), Errored: planner.I(0),
		TTFT: planner.Stat{P95: planner.F(0.5)}, E2E: planner.Stat{P95: planner.F(5)}}
	for i := range 59 {
		r.Samples = append(r.Samples, planner.Sample{TTFT: 0.3, E2E: float32(4 + float64(i)/59), ITL: 0.02, OutputTokens: 100, OK: true})
	}
	o := planner.Objective{Percentile: 95, MinSuccess: 0.99, TTFTMax: planner.F(2), E2EMax: planner.F(15)}
	m, _ := planner.JudgeMatrix([]planner.Row{r}, planner.Contract{Objective: o}, o, "")
	if got := checkTitle(m[0], "e2e"); !strings.Contains(got, "p95 end-to-end: 95 % upper bound 4.983 s (the 59th of 59)") || !strings.Contains(got, "a conclusive pass") {
		t.Errorf("e2e title %q", got)
	}
	if got := checkTitle(m[0], "success"); !strings.Contains(got, "95 % CI 93.94 % to 100 %") {
		t.Errorf("success title %q", got)
	}
	r.Samples = nil
	m, _ = planner.JudgeMatrix([]planner.Row{r}, planner.Contract{Objective: o}, o, "")
	if got := checkTitle(m[0], "e2e"); !strings.Contains(got, "a confidence bound cannot be computed from a summary") {
		t.Errorf("summary title %q", got)
	}
}
