package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"capplan/web/store"
	"capplan/web/view"
)

// seedPlannedRowMissing is seedMatrix with a contract that also plans load
// 16, which no file has.
func seedPlannedRowMissing(t testing.TB, app *testApp) int64 {
	t.Helper()
	ctx := context.Background()
	st, lead := app.store, app.users["lead"]
	id, err := st.CreateReport(ctx, lead, "Row missing")
	if err != nil {
		t.Fatal(err)
	}
	vals := contractValues(0)
	vals.Set("loads", "1, 2, 4, 8, 10, 16")
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
	return id
}

// TestPlanAmendedInPlace: where the matrix names a planned row no file
// has, the plan amendment (offered in place on the results step: tested in
// web/view) is refused without a reason with the contract's rule, and with
// one it amends the frozen rows and the amendment carries the reason.
func TestPlanAmendSaved(t *testing.T) {
	app := newTestApp(t)
	id := seedPlannedRowMissing(t, app)
	lead := app.client("lead")
	post := func(reason string) (*http.Response, string) {
		return do(t, lead, http.MethodPost, fmt.Sprintf("%s/reports/%d/contract/rows", app.srv.URL, id),
			url.Values{"version": {app.version(id)}, "loads": {"1, 2, 4, 8, 10"}, "reason": {reason}}, "HX-Request", "true")
	}
	res, body := post("  ")
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "required: say why the frozen rows changes") || !strings.HasPrefix(strings.TrimSpace(body), `<details id="plan-amend"`) {
		t.Fatalf("no reason: %d %s", res.StatusCode, body)
	}
	res, _ = post("load 16 was not run: the box ran out of memory at 12")
	if res.StatusCode != http.StatusNoContent || res.Header.Get("HX-Redirect") != fmt.Sprintf("/reports/%d/results#matrix", id) {
		t.Fatalf("amend: %d, redirect %q", res.StatusCode, res.Header.Get("HX-Redirect"))
	}
	r, err := app.store.Report(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if got := view.JoinLoads(r.Contract.Loads); got != "1, 2, 4, 8, 10" || !r.Frozen() {
		t.Errorf("contract loads %q, frozen %t", got, r.Frozen())
	}
	am, err := app.store.Amendments(context.Background(), id)
	if err != nil || len(am) != 1 || am[0].Field != "rows" || am[0].Reason != "load 16 was not run: the box ran out of memory at 12" || !am[0].ResultsExisted {
		t.Fatalf("amendments %+v (%v)", am, err)
	}
}
