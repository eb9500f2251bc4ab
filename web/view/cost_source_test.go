package view

import (
	"strings"
	"testing"
)

// The demo's comparison chooses its FP8 candidate while capacity and costs
// come from the report's own matrix: the costs section and the
// candidates' decision say so, in the planner's one sentence.
func TestDemoSaysWhereCostsComeFrom(t *testing.T) {
	page := stepPageOf(t, demoReport(t), PrintStep)
	costs := testid(sectionIn(page, "costs"), "cost-source")
	near := testid(sectionIn(page, "candidates"), "candidate-cost-source")
	if !strings.Contains(costs, "report&#39;s own matrix (meta-llama/Llama-3.1-8B-Instruct)") || !strings.Contains(costs, "not from the matrix of") {
		t.Errorf("costs section: %q", costs)
	}
	if near != costs {
		t.Errorf("beside the candidates' choice: %q, in the costs: %q", near, costs)
	}
}
