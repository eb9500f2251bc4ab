package web

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"capplan/planner"
	"capplan/web/browsertest"
	"capplan/web/store"
)

// seedMessyMatrix is seedMatrix's report with more planned loads than
// rows (12, 16, 24 and 32 have none) and, besides its five rows, four that
// do not count: three of another model (loads 1, 2, 4, with huge
// latencies) and a rate row.
func seedMessyMatrix(t testing.TB, app *testApp) int64 {
	t.Helper()
	ctx := context.Background()
	st, lead := app.store, app.users["lead"]
	id, err := st.CreateReport(ctx, lead, "Messy matrix")
	if err != nil {
		t.Fatal(err)
	}
	vals := contractValues(0)
	vals.Set("loads", "1, 2, 4, 8, 10, 12, 16, 24, 32")
	c, errs := contractForm(vals)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if err := st.SaveContract(ctx, store.Edit{ReportID: id, BaseVersion: 1, UserID: lead.ID, Action: "contract edited", Section: "contract"}, c, nil); err != nil {
		t.Fatal(err)
	}
	if err := st.Freeze(ctx, store.Edit{ReportID: id, BaseVersion: 2, UserID: lead.ID, Action: "contract frozen", Section: "contract"}); err != nil {
		t.Fatal(err)
	}
	sha := fmt.Sprintf("%064x", id)
	addRows(t, st, id, lead.ID, 0, "sweep.json", sha, matrixRows(sha))
	other := fmt.Sprintf("%064x", id+1000)
	var off []planner.Row
	for i, r := range matrixRows(other)[:3] {
		r.Source.File = "other-model.json"
		r.Model = "Qwen/Qwen2.5-72B-Instruct"
		r.OutputTokenRate = planner.F(8706)
		r.E2E.P95 = planner.F(600 - float64(i))
		off = append(off, r)
	}
	rate := matrixRows(other)[3]
	rate.Source.File, rate.Index = "other-model.json", 3
	rate.LoadKind = planner.LoadRate
	off = append(off, rate)
	addRows(t, st, id, lead.ID, 0, "other-model.json", other, off)
	return id
}

// TestMatrixFoldsRowsThatDoNotCount: the counted rows stand in the
// matrix; the others are folded under it with one line each; the planned
// loads no row has are named in one line; nothing warns of mixed load
// kinds among rows that do not count.
func TestMatrixFoldsRowsThatDoNotCount(t *testing.T) {
	app := newTestApp(t)
	id := seedMessyMatrix(t, app)
	_, page := do(t, app.client("reviewer"), http.MethodGet, fmt.Sprintf("%s/reports/%d/print", app.srv.URL, id), nil)
	m := sectionOf(page, "matrix")
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

// TestBrowserMessyMatrixFits: at 1280 px the messy matrix's judged
// columns are in view, the fold opens on its rows, and neither width
// scrolls sideways.
func TestBrowserMessyMatrixFits(t *testing.T) {
	app := newTestApp(t)
	id := seedMessyMatrix(t, app)
	ctx := browsertest.New(t)
	if err := chromedp.Do(ctx, append(browserLogin(app, app.users["lead"].Email),
		chromedp.Navigate(fmt.Sprintf("%s/reports/%d#matrix", app.srv.URL, id)),
		chromedp.WaitVisible(css(`[data-testid="matrix-table"]`)),
	)...); err != nil {
		t.Fatal(err)
	}
	inView := func() []string {
		t.Helper()
		out, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
			const vw = document.documentElement.clientWidth, out = [];
			for (const row of document.querySelectorAll('#matrix tr[data-counted]')) {
				if (row.offsetParent === null) continue;
				for (const id of ["success-rate", "ttft-p95", "e2e-p95"]) {
					const r = row.querySelector('[data-testid="' + id + '"]').getBoundingClientRect();
					if (r.right > vw) out.push(row.dataset.testid + " " + id + " ends at " + Math.round(r.right) + " px of " + vw);
				}
			}
			return out;
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, o := range inView() {
		t.Errorf("counted rows: %s", o)
	}
	if err := chromedp.Do(ctx,
		chromedp.Click(css(`[data-testid="matrix-not-counted"] > summary`)),
		chromedp.WaitVisible(css(`[data-testid="matrix-not-counted-table"]`)),
	); err != nil {
		t.Fatal(err)
	}
	for _, o := range inView() {
		t.Errorf("with the fold open: %s", o)
	}
	browsertest.NoHorizontalScroll(ctx, t, "messy-matrix")
}

// TestEnvelopeChartDrawsCountedRows: the envelope chart joins only the
// counted rows (another model's 8,706 tok/s is not one more point of our
// line) and says which rows it leaves out.
func TestEnvelopeChartDrawsCountedRows(t *testing.T) {
	app := newTestApp(t)
	id := seedMessyMatrix(t, app)
	_, page := do(t, app.client("reviewer"), http.MethodGet, fmt.Sprintf("%s/reports/%d/print", app.srv.URL, id), nil)
	env := sectionOf(page, "envelope")
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
