package web

import (
	"context"
	"fmt"
	"testing"

	"capplan/planner"
	"capplan/web/store"
)

// seedHeadroomBlocked is seedMatrix with no row's memory recorded (for the
// browser tests; web/view tests the pages of the same state): the
// objective's headroom >= 10 % leaves every row "not judged: missing
// memory headroom" but load 10's, which fails on its latency.
func seedHeadroomBlocked(t testing.TB, app *testApp) (int64, map[float64]int64) {
	t.Helper()
	ctx := context.Background()
	st, lead := app.store, app.users["lead"]
	id, err := st.CreateReport(ctx, lead, "Headroom blocked")
	if err != nil {
		t.Fatal(err)
	}
	c, errs := contractForm(contractValues(0))
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
	rows := matrixRows(sha)
	for i := range rows {
		rows[i].Observed = planner.Observed{OOMChecked: true}
	}
	addRows(t, st, id, lead.ID, 0, "sweep.json", sha, rows)
	stored, err := st.Rows(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[float64]int64{}
	for _, sr := range stored {
		ids[*sr.Row.Load] = sr.ID
	}
	return id, ids
}
