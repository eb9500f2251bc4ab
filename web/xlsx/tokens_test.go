package xlsx

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"capplan/planner"
)

// TestLibreOfficeTokenCosts: the sheet of costs per million tokens,
// recalculated by LibreOffice after finance changes the GPU-hour price and
// the GPUs per box in the workbook, gives the planner's figures for the
// same inputs: every option's cost per million input, output and blended
// tokens, the frontier-comparable figure and each step from it to the
// all-in figure, the steps summing to the gap.
func TestLibreOfficeTokenCosts(t *testing.T) {
	in := workedInputs()
	in.SelfHosted.GPUHourPrice = planner.Fig("1.30", "EUR/GPU-h", "neocloud list price", "2026-11-01")
	data := writeBook(t, testReport(in))
	f := openBook(t, data)
	for name, val := range map[string]float64{"SH_GPU_Hour_Price": 2.6, "SH_GPUs_Per_Box": 2} {
		c := namedCell(t, f, name)
		if err := f.SetCellValue(c.sheet, c.name(), val); err != nil {
			t.Fatal(err)
		}
	}
	in.SelfHosted.GPUHourPrice = planner.Fig("2.6", "EUR/GPU-h", "neocloud list price", "2026-11-01")
	in.SelfHosted.GPUsPerBox = planner.Fig("2", "GPUs", "spec sheet", "2026-11-01")
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	want := planner.Compute(in)
	fr := want.Frontier
	if fr.PerMTokens == nil || len(fr.Gaps) != len(want.Scenarios) || fr.GPUs != 2 {
		t.Fatalf("planner frontier: %+v", fr)
	}
	sheets := recalc(t, buf.Bytes())
	book := openBook(t, buf.Bytes())
	check := func(what, name string, m planner.Money) {
		t.Helper()
		got := at(sheets, namedCell(t, book, name))
		if !near(got, m.Exact.InexactFloat64(), math.Max(1e-9, m.Exact.Abs().InexactFloat64()*1e-9)) {
			t.Errorf("%s (%s): LibreOffice %q, planner %s", what, name, got, m.Exact)
		}
	}
	check("frontier-comparable", "Frontier_Per_M", *fr.PerMTokens)
	check("GPU-hour price", "Frontier_GPU_Hour_Price", *fr.GPUHourPrice)
	for _, g := range fr.Gaps {
		n := "Gap_" + defName(titleCase(g.Scenario))
		check(g.Scenario+" all-in", n+"_All_In", g.AllIn)
		check(g.Scenario+" sum of the steps", n+"_Sum", g.Gap)
		check(g.Scenario+" gap", n+"_Gap", g.Gap)
		// Each step on its own row, in the planner's order.
		c := namedCell(t, book, n+"_All_In")
		rows := sheets[shTokens]
		for i, st := range g.Steps {
			r := c.row - len(g.Steps) + i
			if got := rows[r-1][0]; got != "+ "+st.Label {
				t.Errorf("%s step %d: row %q, want %q", g.Scenario, i, got, st.Label)
			}
			if got := rows[r-1][2]; !near(got, st.Amount.Exact.InexactFloat64(), math.Max(1e-9, st.Amount.Exact.Abs().InexactFloat64()*1e-9)) {
				t.Errorf("%s %s: LibreOffice %q, planner %s", g.Scenario, st.Key, got, st.Amount.Exact)
			}
		}
	}
	// Every option of every scenario, per million input, output, blended.
	found := 0
	for _, row := range sheets[shTokens] {
		if len(row) < 8 {
			continue
		}
		for _, sr := range want.Scenarios {
			for _, o := range sr.Options {
				if row[0] != sr.Scenario.Name || row[1] != o.Option || o.PerMTokens == nil {
					continue
				}
				found++
				for i, m := range []planner.Money{o.PerMTokens.Input, o.PerMTokens.Output, o.PerMTokens.Blended} {
					v, err := strconv.ParseFloat(strings.TrimSpace(row[5+i]), 64)
					if err != nil || planner.DisplayMoney(m.Exact) != planner.DisplayMoney(decimal.NewFromFloat(v)) {
						t.Errorf("%s %s column %d: LibreOffice %q, planner %s", sr.Scenario.Name, o.Option, 6+i, row[5+i], m.Display())
					}
				}
			}
		}
	}
	if found != len(want.Scenarios)*len(want.Scenarios[0].Options) {
		t.Errorf("%d option rows found", found)
	}
}
