package xlsx

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"capplan/planner"
)

// The comparison's sheet says what the page says: the reference the user
// chose, each difference under its subject, a lower-bound ceiling as "at
// least" (still a number for the delta's formula), and the scenario whose
// demand differs.
func TestComparisonSheetSaysWhatThePageSays(t *testing.T) {
	row := 0
	subject := func(name string, ceiling float64, state planner.EnvelopeState, monthly int64) planner.CompareSubject {
		return planner.CompareSubject{Name: name, Contract: planner.Contract{BaselineModel: name + "-model"}, Result: planner.Result{
			Envelope:  planner.Envelope{Ceiling: planner.F(ceiling), State: state, CeilingRow: &row, LoadKind: planner.LoadConcurrency, Text: "ceiling text"},
			Matrix:    []planner.RowResult{{}},
			Scenarios: []planner.ScenarioResult{{Scenario: planner.Scenario{Name: "peak", MonthlyRequests: monthly}}},
		}}
	}
	a := subject("A", 10, planner.EnvelopeLowerBound, 670931)
	b := subject("B", 8, planner.EnvelopeCeiling, 1000000)
	sbs, err := planner.Compare([]planner.CompareSubject{a, b}, 1)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteComparison(&buf, sbs); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := f.GetRows("Comparison")
	if err != nil {
		t.Fatal(err)
	}
	find := func(prefix string) []string {
		for _, r := range rows {
			if len(r) > 0 && strings.HasPrefix(r[0], prefix) {
				return r
			}
		}
		t.Fatalf("no row %q in %q", prefix, rows)
		return nil
	}
	if r := find("Changes are against"); r[0] != "Changes are against B, the reference" {
		t.Errorf("reference = %q", r[0])
	}
	if r := find("Not measured or priced alike"); len(r) < 3 || r[1] != "A" || r[2] != "B" {
		t.Errorf("the differences' heads = %q", r)
	}
	if r := find("model differs"); len(r) < 3 || r[1] != "A-model" || r[2] != "B-model" {
		t.Errorf("model difference = %q", r)
	}
	if r := find("demand (peak) differs"); len(r) < 4 || !strings.HasPrefix(r[1], "670,931 requests a month") || !strings.HasPrefix(r[2], "1,000,000 requests a month") || !strings.Contains(r[3], "moves cost per 1,000 (peak)") {
		t.Errorf("demand difference = %q", r)
	}
	find("Cost per 1,000 (peak), for different demand")
	r := find("Demonstrated ceiling")
	if len(r) < 4 || r[1] != "at least 10" || r[2] != "8" {
		t.Fatalf("ceiling row = %q", r)
	}
	// A's delta against B, the reference: 10 / 8 - 1, from the numbers.
	for i, rr := range rows {
		if len(rr) > 0 && rr[0] == "Demonstrated ceiling" {
			cell, _ := excelize.CoordinatesToCellName(4, i+1)
			if fx, _ := f.GetCellFormula("Comparison", cell); !strings.HasPrefix(fx, "B") || !strings.HasSuffix(fx, "-1") || !strings.Contains(fx, "/C") {
				t.Errorf("delta formula = %q", fx)
			}
			raw, _ := f.GetCellValue("Comparison", "B"+strconv.Itoa(i+1), excelize.Options{RawCellValue: true})
			if raw != "10" {
				t.Errorf("the lower-bound ceiling is stored as %q, not the number 10", raw)
			}
		}
	}
}
