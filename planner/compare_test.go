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
	got, err := Compare([]CompareSubject{base, fp8}, 0)
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
	got, _ := Compare([]CompareSubject{def, opt}, 0)
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
	if _, err := Compare([]CompareSubject{def}, 0); err == nil {
		t.Error("a comparison of one accepted")
	}
}

// The user's reference, not the list's first, is what the deltas are
// against.
func TestCompareAgainstTheChosenReference(t *testing.T) {
	base := compareSubject("baseline", 8, 8, 3.2, 3000, 600, "25", "varied")
	fp8 := compareSubject("FP8", 10, 10, 4.0, 4500, 625, "20", "varied")
	got, err := Compare([]CompareSubject{fp8, base}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got.Reference != 1 || !got.Columns[1].Reference || got.Columns[0].Reference || got.ReferenceName() != "baseline" {
		t.Fatalf("reference = %d %+v", got.Reference, got.Columns)
	}
	if got.Columns[1].CeilingDelta != nil || got.Columns[0].CeilingDelta == nil || !near(*got.Columns[0].CeilingDelta, 0.25) {
		t.Errorf("FP8's ceiling against the baseline = %v, want +25 %%", got.Columns[0].CeilingDelta)
	}
	if d := got.Columns[0].CostPer1000Delta["expected"]; d == nil || !near(*d, -0.2) {
		t.Errorf("cost delta = %v", d)
	}
	// Out of range: the first.
	if got, _ = Compare([]CompareSubject{fp8, base}, 7); got.Reference != 0 {
		t.Errorf("reference out of range = %d", got.Reference)
	}
}

// Every difference that moves a figure is named, each value under its
// subject: the demand of a scenario, measured against typed power, the
// box's price and the currency.
func TestCompareNamesWhatMovesAFigure(t *testing.T) {
	a := compareSubject("A", 8, 8, 3.2, 3000, 600, "25", "varied")
	b := compareSubject("B", 8, 8, 3.2, 3000, 600, "30", "varied")
	a.Result.Currency, b.Result.Currency = "EUR", "EUR"
	a.Result.Scenarios[0].Scenario.MonthlyRequests, a.Result.Scenarios[0].BusyHourRate = 670931, 0.8
	b.Result.Scenarios[0].Scenario.MonthlyRequests, b.Result.Scenarios[0].BusyHourRate = 1000000, 1.2
	a.Result.Matrix[0].PowerWattsSource = "telemetry: smi.csv"
	b.Result.Matrix[0].PowerWattsSource = SourceTyped
	a.Result.SelfHosted.FixedPerBox = NewMoney(decimal.RequireFromString("2000"))
	b.Result.SelfHosted.FixedPerBox = NewMoney(decimal.RequireFromString("2410.868"))
	got, err := Compare([]CompareSubject{a, b}, 0)
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]CompareDifference{}
	for _, d := range got.Differences {
		by[d.What] = d
	}
	if d := by["demand (expected)"]; len(d.Values) != 2 || d.Values[0] != "670,931 requests a month, busiest hour 0.800 req/s" || d.Values[1] != "1,000,000 requests a month, busiest hour 1.20 req/s" || len(d.Moves) == 0 {
		t.Errorf("demand difference = %+v", d)
	}
	if !got.DemandDiffers["expected"] {
		t.Error("the expected scenario's demand is not marked as differing")
	}
	if d := by["power"]; len(d.Values) != 2 || d.Values[0] != "measured (telemetry: smi.csv)" || d.Values[1] != "typed at the ceiling row" {
		t.Errorf("power difference = %+v", d)
	}
	if d := by["self-hosted cost a month per box"]; len(d.Values) != 2 || d.Values[0] != "2,000.00 EUR" || d.Values[1] != "2,410.87 EUR" {
		t.Errorf("price difference = %+v", d)
	}
	if _, ok := by["currency"]; ok {
		t.Error("the same currency named as a difference")
	}
	// Alike: none of these.
	got, _ = Compare([]CompareSubject{a, a}, 0)
	if len(got.Differences) != 0 || got.DemandDiffers["expected"] {
		t.Errorf("identical subjects differ: %+v", got.Differences)
	}
	// Two logs are both measured: not a difference.
	c := a
	c.Result.Matrix = []RowResult{a.Result.Matrix[0]}
	c.Result.Matrix[0].PowerWattsSource = "telemetry: other.csv"
	got, _ = Compare([]CompareSubject{a, c}, 0)
	for _, d := range got.Differences {
		if d.What == "power" {
			t.Errorf("two measured powers named as a difference: %+v", d)
		}
	}
}

// A ceiling in req/s set against one in concurrent streams takes no
// percentage: the two are different units.
func TestCompareCeilingsOfDifferentUnits(t *testing.T) {
	base := compareSubject("baseline", 8, 8, 3.2, 3000, 600, "25", "varied")
	rate := compareSubject("rate run", 10, 10, 4.0, 4500, 625, "20", "varied")
	rate.Result.Envelope.LoadKind = LoadRate
	got, err := Compare([]CompareSubject{base, rate}, 0)
	if err != nil {
		t.Fatal(err)
	}
	c := got.Columns[1]
	if c.CeilingDelta != nil || !c.CeilingOtherUnit {
		t.Errorf("ceiling delta across units = %v (other unit %v), want none", deref(c.CeilingDelta), c.CeilingOtherUnit)
	}
	if c.PerBoxRateDelta == nil || !near(*c.PerBoxRateDelta, 0.25) {
		t.Errorf("per-box rate delta = %v, want +25 %% (both req/s)", deref(c.PerBoxRateDelta))
	}
}
