package xlsx

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"capplan/planner"
)

func writeBook(t *testing.T, r Report) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, r); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func openBook(t *testing.T, data []byte) *excelize.File {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// cell is a reference resolved to its sheet and coordinates.
type cell struct {
	sheet    string
	col, row int
}

// namedCell resolves a defined name to its cell.
func namedCell(t *testing.T, f *excelize.File, name string) cell {
	t.Helper()
	for _, dn := range f.GetDefinedName() {
		if dn.Name == name {
			return parseRef(t, dn.RefersTo)
		}
	}
	t.Fatalf("no named range %s", name)
	return cell{}
}

func parseRef(t *testing.T, ref string) cell {
	t.Helper()
	i := strings.LastIndex(ref, "!")
	sheet := strings.Trim(ref[:i], "'")
	col, row, err := excelize.CellNameToCoordinates(strings.ReplaceAll(ref[i+1:], "$", ""))
	if err != nil {
		t.Fatal(err)
	}
	return cell{sheet, col, row}
}

func (c cell) name() string { n, _ := excelize.CoordinatesToCellName(c.col, c.row); return n }

func raw(t *testing.T, f *excelize.File, c cell) string {
	t.Helper()
	v, err := f.GetCellValue(c.sheet, c.name(), excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func formula(t *testing.T, f *excelize.File, c cell) string {
	t.Helper()
	v, err := f.GetCellFormula(c.sheet, c.name())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// near reports whether a cell's text is the number want to within tol.
// LibreOffice writes percent-formatted cells as shown ("100%").
func near(got string, want, tol float64) bool {
	got = strings.TrimSpace(got)
	scale := 1.0
	if p, ok := strings.CutSuffix(got, "%"); ok {
		got, scale = p, 100
		tol = max(tol, 0.00005) // two decimals of a percentage
	}
	g, err := strconv.ParseFloat(got, 64)
	return err == nil && math.Abs(g/scale-want) <= tol
}

// promised lists the figures the workbook must hold as live formulas, each
// with the planner's value and the precision it is held to.
type promise struct {
	what string
	at   cell
	want float64
	tol  float64
	// shown is the amount as the page shows it (planner.DisplayMoney),
	// for money: the recalculated value, rounded by the same rule, must
	// read the same to the cent.
	shown string
}

func promises(t *testing.T, f *excelize.File, res planner.Result) []promise {
	t.Helper()
	cent := 0.005
	// The names resolved once: the workbook holds many.
	refs := map[string]string{}
	for _, dn := range f.GetDefinedName() {
		refs[dn.Name] = dn.RefersTo
	}
	named := func(name string) cell {
		ref, ok := refs[name]
		if !ok {
			t.Fatalf("no named range %s", name)
		}
		return parseRef(t, ref)
	}
	var ps []promise
	add := func(what string, at cell, want, tol float64) {
		ps = append(ps, promise{what: what, at: at, want: want, tol: tol})
	}
	addMoney := func(what string, at cell, m planner.Money) {
		ps = append(ps, promise{what: what, at: at, want: money(m), tol: cent, shown: m.Display()})
	}
	addMoney("F_local", named("SH_Fixed_Per_Box"), res.SelfHosted.FixedPerBox)
	for i, q := range res.Quotes {
		p := quotePrefix(i)
		add(q.Name+" V_api", named(p+"Per_Request"), money(q.PerRequest), 1e-9)
		addMoney(q.Name+" F_api", named(p+"Fixed"), q.Fixed)
	}
	if res.Capacity.PerBoxRate != nil {
		add("capacity per box", named("Capacity_Per_Box_Rate"), *res.Capacity.PerBoxRate, 1e-9)
	}
	if res.Envelope.Ceiling != nil {
		add("ceiling", named("Ceiling_Load"), *res.Envelope.Ceiling, 0)
	}
	for i, sr := range res.Scenarios {
		r := 2 + i
		add(sr.Scenario.Name+" busy-hour rate", cell{shScenarios, scBusyRate, r}, sr.BusyHourRate, 1e-9)
		if sr.BoxesNeeded != nil {
			add(sr.Scenario.Name+" boxes", cell{shScenarios, scBoxesNeeded, r}, float64(*sr.BoxesNeeded), 0)
		}
		for o, oc := range sr.Options {
			mc, pc := optionCols(o)
			addMoney(sr.Scenario.Name+" "+oc.Option+" monthly", cell{shScenarios, mc, r}, oc.MonthlyCost)
			if oc.CostPer1000 != nil {
				addMoney(sr.Scenario.Name+" "+oc.Option+" per 1,000", cell{shScenarios, pc, r}, *oc.CostPer1000)
			}
		}
	}
	// The hybrid plan (docs/method.md, "The hybrid plan"): each n's
	// overflow, monthly cost and cost per 1,000, and the best n.
	for _, sr := range res.Scenarios {
		h := sr.Hybrid
		if h == nil {
			continue
		}
		base := scenarioBase(sr)
		add(sr.Scenario.Name+" hybrid best n", named(base+"_Hybrid_Best"), float64(h.Best), 0)
		for n, o := range h.Options {
			p := fmt.Sprintf("%s_Hybrid_%d_", base, n)
			if _, shown := refs[p+"Monthly"]; !shown {
				continue // beyond the block's columns (hybridShown)
			}
			add(fmt.Sprintf("%s hybrid overflow with %d", sr.Scenario.Name, n), named(p+"Overflow"), float64(o.Overflow), 0)
			addMoney(fmt.Sprintf("%s hybrid monthly with %d", sr.Scenario.Name, n), named(p+"Monthly"), o.Monthly)
			if o.CostPer1000 != nil {
				addMoney(fmt.Sprintf("%s hybrid per 1,000 with %d", sr.Scenario.Name, n), named(p+"Per_1000"), *o.CostPer1000)
			}
		}
	}
	add("V_local", named("V_Local"), money(res.SelfHosted.PerRequest), 1e-12)
	for i, x := range res.Crossovers {
		p := quotePrefix(i)
		addMoney("crossing piece F_api "+x.Quote, named(p+"Crossing_Fixed"), x.FAPI)
		add("crossing piece V_api "+x.Quote, named(p+"Crossing_Per_Request"), money(x.VAPI), 1e-9)
		if x.N != nil {
			add("crossover "+x.Quote, named(quotePrefix(i)+"Crossover_N"), x.N.InexactFloat64(), 0.5)
			add("crossover rounded up "+x.Quote, named(quotePrefix(i)+"Crossover_N_Rounded"), float64(*x.NRounded), 0)
		}
	}
	for i, rr := range res.Matrix {
		if rr.SuccessRate != nil {
			add("success rate row "+strconv.Itoa(i), cell{shMatrix, colSuccessRate, i + 2}, *rr.SuccessRate, 1e-12)
		}
	}
	if sk := res.Soak; sk.EnergyMJ != nil {
		add("soak energy (MJ)", named("Soak_Energy_MJ"), *sk.EnergyMJ, 1e-9)
		add("soak energy (kWh)", named("Soak_Energy_KWh"), *sk.EnergyKWh, 1e-9)
		if sk.TokensPerJoule != nil {
			add("soak output tokens per joule", named("Soak_Tokens_Per_Joule"), *sk.TokensPerJoule, 1e-9)
		}
	}
	return ps
}

func TestWorkbookSheetsFormulasAndCachedValues(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   planner.Inputs
	}{{"worked", workedInputs()}, {"crossover", crossoverInputs()}} {
		t.Run(tc.name, func(t *testing.T) {
			r := testReport(tc.in)
			f := openBook(t, writeBook(t, r))
			if got := f.GetSheetList(); !slices.Equal(got, SheetNames) {
				t.Fatalf("sheets %v, want %v", got, SheetNames)
			}
			for _, p := range promises(t, f, r.Result) {
				if formula(t, f, p.at) == "" {
					t.Errorf("%s at %s!%s: no formula", p.what, p.at.sheet, p.at.name())
				}
				if got := raw(t, f, p.at); !near(got, p.want, p.tol) {
					t.Errorf("%s at %s!%s: cached %q, want %v", p.what, p.at.sheet, p.at.name(), got, p.want)
				}
			}
			for i, rr := range r.Result.Matrix {
				c := cell{shMatrix, colVerdict, i + 2}
				if !strings.Contains(formula(t, f, c), "COUNTIF") {
					t.Errorf("matrix row %d verdict: no formula", i)
				}
				if got := raw(t, f, c); got != string(rr.Verdict.State) {
					t.Errorf("matrix row %d verdict %q, want %q", i, got, rr.Verdict.State)
				}
			}
			for _, n := range []string{"Objective_E2E_Max_S", "Objective_Percentile", "Quote1_Price_Input_Per_M", "Quote1_Price_Output_Per_M",
				"SH_Purchase_Price", "SH_Labour_Rate", "Scenario_Expected_Requests", "Max_Boxes"} {
				namedCell(t, f, n)
			}
		})
	}
}

func TestWorkbookWorkedNumbers(t *testing.T) {
	r := testReport(workedInputs())
	res := r.Result
	exp := res.Scenarios[1]
	// The expected busy hour (2.22 req/s) needs 2 boxes with random
	// arrivals (one holds the objective up to 1.336 req/s, 3 closed loop):
	// 2 x 2,000 / 80 = 50 per 1,000.
	if got := exp.Options[0].CostPer1000.Rounded.String(); got != "50" {
		t.Fatalf("planner self-hosted per 1,000 = %s, want 50", got)
	}
	if got := exp.Options[1].CostPer1000.Rounded.String(); got != "30" {
		t.Fatalf("planner API per 1,000 = %s, want 30", got)
	}
	if *res.Envelope.Ceiling != 8 {
		t.Fatalf("ceiling %v, want 8", *res.Envelope.Ceiling)
	}
	x := planner.Compute(crossoverInputs()).Crossovers[0]
	if x.N == nil || x.N.String() != "75000" {
		t.Fatalf("crossover %v, want 75000", x.N)
	}
}

// TestSummaryCrossoverRoundedUp: the summary's N is the page's, rounded
// up to a whole request (8,275,383.31 reads 8,275,384), not the quotient.
func TestSummaryCrossoverRoundedUp(t *testing.T) {
	in := crossoverInputs()
	in.SelfHosted.Hosting = planner.Fig("1400.01", "EUR/month", "hosting contract", "2026-11-01")
	r := testReport(in)
	x := r.Result.Crossovers[0]
	if x.N == nil || x.N.IsInteger() {
		t.Fatalf("crossover %v: want one that is not whole", x.N)
	}
	f := openBook(t, writeBook(t, r))
	rows, err := f.GetRows(shSummary)
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range rows {
		if len(row) < 2 || !strings.HasPrefix(row[0], "Self-hosting vs "+x.Quote+": N") {
			continue
		}
		c := cell{shSummary, 2, i + 1}
		if got, want := row[1], planner.DisplayCount(*x.NRounded); got != want || raw(t, f, c) != strconv.FormatInt(*x.NRounded, 10) {
			t.Errorf("summary N shows %q (holds %s), want %s: N %s rounded up", got, raw(t, f, c), want, x.N)
		}
		if fm := formula(t, f, c); !strings.Contains(fm, "Crossover_N_Rounded") {
			t.Errorf("summary N formula %q: not the rounded-up cell", fm)
		}
		return
	}
	t.Fatal("no crossover row on the summary")
}

func TestWorkbookOfAnEmptyReport(t *testing.T) {
	r := Report{ID: 1, Title: "Empty", Result: planner.Compute(planner.Inputs{})}
	f := openBook(t, writeBook(t, r))
	if got := f.GetSheetList(); !slices.Equal(got, SheetNames) {
		t.Fatalf("sheets %v", got)
	}
}

type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) { w.n += len(p); return 0, errors.New("disk full") }

func TestWriteBuildsBeforeWriting(t *testing.T) {
	// A report that cannot be built writes nothing at all.
	r := testReport(workedInputs())
	r.Result.Scenarios = append(r.Result.Scenarios, r.Result.Scenarios[0])
	r.Result.Scenarios[len(r.Result.Scenarios)-1].Scenario.Name = strings.Repeat("x", 300) // a name too long for a defined name
	var w failWriter
	err := Write(&w, r)
	if err == nil {
		t.Skip("the long name was accepted; nothing to prove here")
	}
	if w.n != 0 {
		t.Fatalf("%d bytes written before the failure", w.n)
	}
}

// TestOpenEndedPieceReadsNoEnd: the last piece of a quote's price has no
// end; its To cell holds the stand-in 9E+99 under a number format that
// reads "no end", never the number itself.
func TestOpenEndedPieceReadsNoEnd(t *testing.T) {
	data := writeBook(t, testReport(bandsInputs()))
	f := openBook(t, data)
	rows, err := f.GetRows(shCrossover)
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for i, row := range rows {
		if len(row) < 3 || !strings.HasPrefix(row[0], "piece ") {
			continue
		}
		c := cell{shCrossover, 3, i + 1}
		if v, err := strconv.ParseFloat(raw(t, f, c), 64); err != nil || v < 1e18 {
			continue
		}
		found++
		id, err := f.GetCellStyle(shCrossover, c.name())
		if err != nil {
			t.Fatal(err)
		}
		st, err := f.GetStyle(id)
		if err != nil || st.CustomNumFmt == nil || !strings.Contains(*st.CustomNumFmt, `"no end"`) {
			t.Errorf("%s: open-ended piece's To has format %v", c.name(), st.CustomNumFmt)
		}
	}
	if found != 1 {
		t.Fatalf("%d open-ended pieces, want 1", found)
	}
	for _, sh := range SheetNames {
		rows, _ := f.GetRows(sh)
		for _, row := range rows {
			for _, v := range row {
				if strings.Contains(strings.ToUpper(v), "E+99") || strings.Contains(strings.ToUpper(v), "E+099") {
					t.Errorf("%s shows %q", sh, v)
				}
			}
		}
	}
}
