package view

import (
	"strings"
	"testing"

	"capplan/planner"
)

// messyMatrix is sweepReport with more planned loads than rows (12, 16,
// 24 and 32 have none) and, besides its five rows, four that do not
// count: three of another model (loads 1, 2, 4, with huge latencies) and
// a rate row.
func messyMatrix(t *testing.T) Report {
	t.Helper()
	v := sweepReport(t)
	in := v.In
	in.Contract.Loads = []float64{1, 2, 4, 8, 10, 12, 16, 24, 32}
	other := strings.Repeat("cd", 32)
	var off []planner.Row
	for i, r := range sweepRows("other-model.json", other)[:3] {
		r.Model = "Qwen/Qwen2.5-72B-Instruct"
		r.OutputTokenRate = planner.F(8706)
		r.E2E.P95 = planner.F(600 - float64(i))
		off = append(off, r)
	}
	rate := sweepRows("other-model.json", other)[3]
	rate.LoadKind = planner.LoadRate
	off = append(off, rate)
	in.Rows = append(append([]planner.Row(nil), in.Rows...), off...)
	return withInputs(v, in)
}

// The counted rows stand in the matrix; the others are folded under it
// with one line each; the planned loads no row has are named in one line;
// nothing warns of mixed load kinds among rows that do not count.
func TestMatrixFoldsRowsThatDoNotCount(t *testing.T) {
	page := printOf(t, messyMatrix(t))
	m := sectionIn(page, "matrix")
	main, rest, ok := strings.Cut(m, `data-testid="matrix-not-counted"`)
	if !ok {
		t.Fatal("no fold of rows not counted in the matrix")
	}
	if n := strings.Count(main, `data-counted="true"`); n != 5 || strings.Contains(main, `data-counted="false"`) {
		t.Errorf("the matrix's own table holds %d counted rows and not-counted ones: %v", n, strings.Contains(main, `data-counted="false"`))
	}
	if n := strings.Count(rest, `data-counted="false"`); n != 4 {
		t.Errorf("%d rows in the fold, want 4", n)
	}
	for _, want := range []string{
		"<summary>4 rows not counted: 3 of another model, 1 of another load kind</summary>",
		`data-testid="not-counted-reason">model Qwen/Qwen2.5-72B-Instruct, not the contract&#39;s meta-llama/Llama-3.1-8B-Instruct`,
	} {
		if !strings.Contains(rest, want) {
			t.Errorf("the fold lacks %q", want)
		}
	}
	if n := strings.Count(m, `data-code="planned-row-missing"`); n != 1 {
		t.Errorf("%d warnings of planned rows missing, want one line", n)
	}
	if !strings.Contains(m, "the contract plans loads 12, 16, 24 and 32 concurrent streams but no row has them") {
		t.Errorf("the missing planned rows are not named together")
	}
	if strings.Contains(page, "mixed-load-kinds") || strings.Contains(page, "mixes load kinds") {
		t.Errorf("a warning of mixed load kinds about rows that do not count")
	}
}

// The envelope chart joins only the counted rows (another model's 8,706
// tok/s is not one more point of our line) and says which rows it leaves
// out.
func TestEnvelopeChartDrawsCountedRows(t *testing.T) {
	env := sectionIn(printOf(t, messyMatrix(t)), "envelope")
	if env == "" {
		t.Fatal("no envelope")
	}
	if strings.Contains(env, "8706") {
		t.Error("the envelope chart draws the other model's throughput")
	}
	if !strings.Contains(env, "The chart draws the 5 rows that count; 4 rows not counted are left out") {
		t.Errorf("the chart does not say which rows it leaves out")
	}
	// The other model's 600 s end-to-end is not drawn, so the latency
	// axis stays linear and reaches the 15 s bound.
	if strings.Contains(env, "log scale") {
		t.Error("a log latency axis for rows that are not drawn")
	}
}
