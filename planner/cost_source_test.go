package planner

import (
	"strings"
	"testing"
)

// TestCostSource: capacity and costs always come from the report's own
// matrix, and the sentence says so, naming the candidate the comparison
// chooses when that is another matrix.
func TestCostSource(t *testing.T) {
	ceil := 8.0
	cmp := Comparison{Chosen: "fp8", Candidates: []CandidateResult{
		{Name: "bf16", Baseline: true, Compared: true, Envelope: Envelope{Ceiling: &ceil}},
		{Name: "fp8", Compared: true, Envelope: Envelope{Ceiling: &ceil}},
	}}
	for _, tc := range []struct {
		name   string
		chosen string
		want   []string
		not    string
	}{
		{"another candidate chosen", "fp8", []string{"report's own matrix (meta-llama/Llama-3.1-8B-Instruct)", "not from the matrix of fp8, the candidate the comparison chooses", "amend the contract"}, ""},
		{"the baseline chosen", "bf16", []string{"report's own matrix (meta-llama/Llama-3.1-8B-Instruct)", "the baseline the candidates' comparison chooses (bf16)"}, "not from"},
		{"nothing chosen", "", []string{"report's own matrix (meta-llama/Llama-3.1-8B-Instruct)"}, "chooses"},
	} {
		var c Capacity
		cmp.Chosen = tc.chosen
		costSource(&c, "meta-llama/Llama-3.1-8B-Instruct", cmp)
		if c.Source != SourceReport {
			t.Errorf("%s: source %q", tc.name, c.Source)
		}
		for _, w := range tc.want {
			if !strings.Contains(c.SourceText, w) {
				t.Errorf("%s: %q lacks %q", tc.name, c.SourceText, w)
			}
		}
		if tc.not != "" && strings.Contains(c.SourceText, tc.not) {
			t.Errorf("%s: %q says %q", tc.name, c.SourceText, tc.not)
		}
	}
	// Compute states it for every report.
	r := Compute(Inputs{Currency: "EUR", Contract: Contract{BaselineModel: "m"}})
	if r.Capacity.Source != SourceReport || !strings.Contains(r.Capacity.SourceText, "report's own matrix (m)") {
		t.Errorf("Compute: %q %q", r.Capacity.Source, r.Capacity.SourceText)
	}
}
