package planner

import (
	"strings"
	"testing"
)

func TestCompareCandidates(t *testing.T) {
	gate := func(pass bool) *RegressionGate {
		return &RegressionGate{Gate: "extraction-24", Cases: 24, Pass: pass, Date: "2026-10-30"}
	}
	withMem := func(rows []Row, gib, head float64) []Row {
		for i := range rows {
			rows[i].Observed.PeakMemoryGiB, rows[i].Observed.Headroom = F(gib), F(head)
		}
		return rows
	}
	base := matrix([]float64{1, 2, 4, 8, 10}, []float64{5, 6, 8, 12, 16.2})
	tests := []struct {
		name         string
		cs           []Candidate
		wantChosen   string
		wantDecision string
		wantExcluded string
	}{
		{name: "higher ceiling wins", cs: []Candidate{
			{Name: "bf16", Baseline: true, Gate: gate(true), Rows: withMem(matrix([]float64{1, 2, 4, 8, 10}, []float64{5, 6, 8, 12, 16.2}), 70, 0.12)},
			{Name: "fp8", Quantization: "fp8", Gate: gate(true), Rows: withMem(matrix([]float64{1, 2, 4, 8, 10}, []float64{4, 5, 6, 9, 13}), 50, 0.35)},
		}, wantChosen: "fp8", wantDecision: "candidate fp8 fits with 35 % observed headroom and meets the objective through load at least 10 concurrent streams (headroom typed)"},
		{name: "tie goes to smaller memory", cs: []Candidate{
			{Name: "bf16", Baseline: true, Gate: gate(true), Rows: withMem(matrix([]float64{1, 2, 4, 8, 10}, []float64{5, 6, 8, 12, 16.2}), 70, 0.12)},
			{Name: "awq", Quantization: "awq-int4", Gate: gate(true), Rows: withMem(matrix([]float64{1, 2, 4, 8, 10}, []float64{5, 6, 8, 12, 17}), 40, 0.45)},
		}, wantChosen: "awq", wantDecision: "candidate awq fits with 45 % observed headroom and meets the objective through load 8 concurrent streams (headroom typed)"},
		{name: "failed gate is not compared", cs: []Candidate{
			{Name: "bf16", Baseline: true, Gate: gate(true)},
			{Name: "int4", Quantization: "int4", Gate: gate(false), Rows: matrix([]float64{1, 2, 4, 8, 10}, []float64{1, 1, 1, 1, 1})},
		}, wantChosen: "bf16", wantExcluded: "int4 is not compared: failed regression gate extraction-24"},
		{name: "no gate recorded", cs: []Candidate{{Name: "bf16", Baseline: true}},
			wantDecision: "no candidate both passed", wantExcluded: "no regression gate recorded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmp := CompareCandidates(tt.cs, base, testContract(), testObjective())
			if cmp.Chosen != tt.wantChosen {
				t.Errorf("chosen = %q, want %q (%q)", cmp.Chosen, tt.wantChosen, cmp.Explanation)
			}
			if !strings.Contains(cmp.Decision, tt.wantDecision) {
				t.Errorf("decision = %q, want %q", cmp.Decision, tt.wantDecision)
			}
			if !strings.Contains(strings.Join(cmp.Explanation, "\n"), tt.wantExcluded) {
				t.Errorf("explanation = %q, want %q", cmp.Explanation, tt.wantExcluded)
			}
		})
	}
}

// TestCandidateErrorRateCountsOwnRows: the error share is the candidate's
// own counted rows', never another model's row in the same matrix.
func TestCandidateErrorRateCountsOwnRows(t *testing.T) {
	own := concRow(4, 8) // 200 successful, 0 errored
	other := concRow(8, 8)
	other.Model = "qwen-2.5-7b-instruct"
	other.Successful, other.Errored = I(170), I(30)
	cs := []Candidate{{Name: "fp8", Model: "llama-3.1-8b-instruct", Gate: &RegressionGate{Gate: "g", Cases: 1, Pass: true}, Rows: []Row{own, other}}}
	cmp := CompareCandidates(cs, nil, testContract(), testObjective())
	cr := cmp.Candidates[0]
	if cr.ErrorRate == nil || *cr.ErrorRate != 0 {
		t.Fatalf("error rate = %v, want 0 (the other model's 30 errors are not the candidate's)", deref(cr.ErrorRate))
	}
	if cr.Matrix[1].Counted {
		t.Fatalf("the other model's row counted: %+v", cr.Matrix[1].NotCounted)
	}
}

func TestCheckResidency(t *testing.T) {
	o := testObjective() // 10 % headroom
	tests := []struct {
		name     string
		routes   []Route
		device   *float64
		wantFits *bool
		wantText string
		// wantUsable is the usable GiB, nil when unknown.
		wantUsable *float64
	}{
		{"resident plus largest switched fits", []Route{
			{Name: "extract", Residency: "resident", MemoryBudgetGiB: F(40)},
			{Name: "classify", Residency: "switched", MemoryBudgetGiB: F(30), ColdStartS: F(45)},
			{Name: "summarise", Residency: "switched", MemoryBudgetGiB: F(25), ColdStartS: F(40)},
		}, F(80), boolp(true), "fits: resident 40 GiB + largest switched 30 GiB = 70 GiB, within the 72 GiB usable", F(72)},
		{"two resident routes do not fit", []Route{
			{Name: "a", Residency: "resident", MemoryBudgetGiB: F(40)},
			{Name: "b", Residency: "resident", MemoryBudgetGiB: F(35)},
		}, F(80), boolp(false), "does not fit: resident 75 GiB", F(72)},
		{"budget missing", []Route{{Name: "a", Residency: "resident"}}, F(80), nil, "route a has no memory budget", F(72)},
		{"device unknown", []Route{{Name: "a", Residency: "resident", MemoryBudgetGiB: F(10)}}, nil, nil, "device memory is not in the contract", nil},
		{"no routes, device known", nil, F(80), nil, "no routes recorded: one resident model; 72 GiB usable (80 GiB less 10 % headroom)", F(72)},
		{"no routes, device unknown", nil, nil, nil, "no routes recorded: one resident model", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := CheckResidency(tt.routes, tt.device, o)
			if (r.Fits == nil) != (tt.wantFits == nil) || (r.Fits != nil && *r.Fits != *tt.wantFits) {
				t.Errorf("fits = %v, want %v", r.Fits, tt.wantFits)
			}
			if !strings.Contains(strings.Join(r.Reasons, "\n"), tt.wantText) {
				t.Errorf("reasons = %q, want %q", r.Reasons, tt.wantText)
			}
			if (r.UsableGiB == nil) != (tt.wantUsable == nil) || (r.UsableGiB != nil && *r.UsableGiB != *tt.wantUsable) {
				t.Errorf("usable = %v, want %v", r.UsableGiB, tt.wantUsable)
			}
		})
	}
}
