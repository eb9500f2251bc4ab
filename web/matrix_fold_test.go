package web

import (
	"context"
	"fmt"
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
