package planner

import (
	"testing"

	"github.com/shopspring/decimal"
)

func compareSubject(name string, ceiling float64, inFlight int, perBox, tokRate, watts float64, per1000 string, prompts string) CompareSubject {
	row := 0
	c := Contract{BaselineModel: "qwen3-30b", Device: "H100", Driver: "580.105.08", VLLMVersion: "0.31.0", BenchmarkTool: "guidellm", ToolVersion: "0.5",
		Workload: Workload{PromptTokens: 256, OutputTokens: 128, Data: "synthetic", Prompts: prompts}}
	m := NewMoney(decimal.RequireFromString(per1000))
	return CompareSubject{Name: name, Contract: c, Result: Result{
		Envelope:  Envelope{Ceiling: F(ceiling), CeilingRow: &row, LoadKind: LoadConcurrency},
		Matrix:    []RowResult{{Row: Row{OutputTokenRate: F(tokRate), Observed: Observed{PowerWatts: F(watts)}}}},
		Admission: Admission{MaxInFlight: &inFlight},
		Capacity:  Capacity{PerBoxRate: F(perBox)},
		Scenarios: []ScenarioResult{{Scenario: Scenario{Name: "expected"}, Options: []OptionCost{{Kind: "self-hosted", CostPer1000: &m}}}},
	}}
}

func TestCompareDeltasAndDifferences(t *testing.T) {
	base := compareSubject("baseline", 8, 8, 3.2, 3000, 600, "25", "varied")
	fp8 := compareSubject("FP8", 10, 10, 4.0, 4500, 625, "20", "varied")
	fp8.Contract.VLLMVersion = "0.32.0"
	got, err := Compare([]CompareSubject{base, fp8})
	if err != nil {
		t.Fatal(err)
	}
	c := got.Columns[1]
	// Ceiling 8 -> 10: +25 %; per box 3.2 -> 4.0: +25 %; tokens/J 5 -> 7.2: +44 %;
	// cost per 1,000 25 -> 20: -20 %.
	if !near(*c.CeilingDelta, 0.25) || !near(*c.PerBoxRateDelta, 0.25) || !near(*c.MaxInFlightDelta, 0.25) {
		t.Errorf("deltas = %v %v %v", *c.CeilingDelta, *c.PerBoxRateDelta, *c.MaxInFlightDelta)
	}
	if !near(*got.Columns[0].TokensPerJ, 5) || !near(*c.TokensPerJ, 7.2) || !near(*c.TokensPerJDelta, 0.44) {
		t.Errorf("tokens/J = %v -> %v (%v)", *got.Columns[0].TokensPerJ, *c.TokensPerJ, *c.TokensPerJDelta)
	}
	if d := c.CostPer1000Delta["expected"]; d == nil || !near(*d, -0.2) {
		t.Errorf("cost delta = %v", d)
	}
	if len(got.Differences) != 1 || got.Differences[0].What != "vLLM version" {
		t.Errorf("differences = %+v", got.Differences)
	}
	if len(got.UpperBound) != 0 {
		t.Errorf("upper bound = %v", got.UpperBound)
	}
}

func TestCompareIdenticalPromptsNamed(t *testing.T) {
	def := compareSubject("default", 16, 16, 0.4, 100, 500, "90", "varied")
	opt := compareSubject("optimized", 64, 64, 3.6, 900, 600, "10", "identical")
	got, _ := Compare([]CompareSubject{def, opt})
	if len(got.UpperBound) != 1 || got.UpperBound[0] != "optimized" {
		t.Errorf("upper bound = %v", got.UpperBound)
	}
	found := false
	for _, d := range got.Differences {
		found = found || (d.What == "prompt variety" && d.Values[1] == "identical")
	}
	if !found {
		t.Errorf("prompt variety not named: %+v", got.Differences)
	}
	if _, err := Compare([]CompareSubject{def}); err == nil {
		t.Error("a comparison of one accepted")
	}
}
