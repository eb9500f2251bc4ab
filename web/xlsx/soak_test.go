package xlsx

import (
	"testing"

	"capplan/planner"
)

// soakInputs is the worked example with a six-hour soak behind its
// admission limit: the hours' GPU watts and tokens/s and the run
// summary's 520 W and 63.0 million output tokens.
func soakInputs() planner.Inputs {
	in := workedInputs()
	h := func(n int, req, r429, failed int64, inSLO, toks, watts float64) planner.SoakHour {
		return planner.SoakHour{Hour: n, Requests: req, Rejected429: r429, Failed: failed, InSLO: planner.F(inSLO), TokensPerS: planner.F(toks), Watts: planner.F(watts)}
	}
	in.Soak = &planner.Soak{Source: "soak.md", MeanPowerW: planner.F(520), OutputTokens: planner.F(63e6), Hours: []planner.SoakHour{
		h(1, 17422, 2164, 1, 0.9999, 1825, 444), h(2, 26748, 2444, 3, 1.0000, 2861, 518), h(3, 36421, 3108, 2, 0.9995, 3943, 592),
		h(4, 36480, 2834, 1, 0.9995, 3953, 598), h(5, 27347, 2216, 2, 0.9996, 2994, 527), h(6, 17622, 1831, 0, 0.9997, 1863, 447),
	}}
	return in
}

// The Overload test sheet carries the soak's run totals as the page shows
// them: 99.994 % available, 99.97 % within the objective, 520 W, 11.2 MJ
// (3.12 kWh), 63,000,000 output tokens, 5.61 per joule; the energy and
// tokens per joule are formulas (LibreOffice recalculates them in
// TestLibreOfficeRecalculatesToThePlannersFigures).
func TestSoakRunTotalsOnTheOverloadSheet(t *testing.T) {
	r := testReport(soakInputs())
	f := openBook(t, writeBook(t, r))
	shown := func(name string) string {
		t.Helper()
		c := namedCell(t, f, name)
		s, err := f.GetCellValue(c.sheet, c.name())
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for name, want := range map[string]string{"Soak_Hours": "6", "Soak_Mean_Power_W": "520", "Soak_Energy_MJ": "11.2", "Soak_Energy_KWh": "3.12",
		"Soak_Output_Tokens": "63,000,000", "Soak_Tokens_Per_Joule": "5.61"} {
		if got := shown(name); got != want {
			t.Errorf("%s shows %q, want %q", name, got, want)
		}
	}
	for _, name := range []string{"Soak_Energy_MJ", "Soak_Energy_KWh", "Soak_Tokens_Per_Joule"} {
		if formula(t, f, namedCell(t, f, name)) == "" {
			t.Errorf("%s is no formula", name)
		}
	}
	rows, err := f.GetRows(shOverload)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, row := range rows {
		if len(row) > 1 {
			got[row[0]] = row[1]
		}
	}
	if got["Availability"] != "99.994%" || got["Accepted within the objective"] != "99.97%" {
		t.Errorf("availability shows %q, within the objective %q", got["Availability"], got["Accepted within the objective"])
	}
}
