package web

import (
	"context"
	"fmt"
	"html"
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
// has, the plan amendment is offered in place with the rows run filled
// in; the overview's path links to it; without a reason it is refused
// with the contract's rule, with one it amends the frozen rows and the
// amendment carries the reason.
func TestPlanAmendedInPlace(t *testing.T) {
	app := newTestApp(t)
	id := seedPlannedRowMissing(t, app)
	lead := app.client("lead")
	_, page := do(t, lead, http.MethodGet, fmt.Sprintf("%s/reports/%d/results", app.srv.URL, id), nil)
	page = html.UnescapeString(page)
	for _, want := range []string{
		"the contract plans load 16 concurrent streams but no row has it",
		`<details id="plan-amend"`,
		`Run the missing row (16) and import its file, or amend the frozen plan`,
		`name="loads" value="1, 2, 4, 8, 10" data-testid="plan-amend-loads"`,
	} {
		if !strings.Contains(page, want) {
			i := strings.Index(page, `id="plan-amend"`)
			t.Errorf("results step lacks %q: %s", want, page[max(i, 0):max(i, 0)+600])
		}
	}
	_, overview := do(t, lead, http.MethodGet, fmt.Sprintf("%s/reports/%d", app.srv.URL, id), nil)
	if want := fmt.Sprintf(`href="/reports/%d/results#plan-amend" data-testid="path-next-link"`, id); !strings.Contains(overview, want) {
		t.Errorf("overview's path lacks %s", want)
	}
	// A reviewer sees no such form.
	if _, rv := do(t, app.client("reviewer"), http.MethodGet, fmt.Sprintf("%s/reports/%d/results", app.srv.URL, id), nil); strings.Contains(rv, `id="plan-amend"`) {
		t.Error("a reviewer is offered the plan amendment")
	}

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
	_, page = do(t, lead, http.MethodGet, fmt.Sprintf("%s/reports/%d/results", app.srv.URL, id), nil)
	if strings.Contains(page, `id="plan-amend"`) || strings.Contains(page, "no row has it") {
		t.Error("after the amendment the results step still names a missing row")
	}
}
