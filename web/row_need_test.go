package web

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"capplan/planner"
	"capplan/web/store"
)

// seedHeadroomBlocked is seedMatrix with no row's memory recorded: the
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

// TestOverviewPointsAtTheRowFigures: with every row lacking the headroom
// the objective needs, the headline's answers and the path's next step
// name the figure and the row and link to that row's figures form on the
// results step, not to the matrix or to the import.
func TestOverviewPointsAtTheRowFigures(t *testing.T) {
	app := newTestApp(t)
	id, rows := seedHeadroomBlocked(t, app)
	res, body := do(t, app.client("lead"), http.MethodGet, fmt.Sprintf("%s/reports/%d", app.srv.URL, id), nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("overview: %d", res.StatusCode)
	}
	body = html.UnescapeString(body)
	link := fmt.Sprintf(`href="/reports/%d/results#observed-%d"`, id, rows[1])
	for _, want := range []string{
		"Not yet: type the memory headroom (or the peak memory) of load 1 concurrent stream (sweep.json row 0) in its row's figures, or import the GPU log of the run; 3 more counted rows lack it.",
		link + `>Open the figures of load 1 concurrent stream</a>`,
		`Next step: Type the memory headroom of load 1 concurrent stream</h2>`,
		link + ` data-testid="path-next-link">Open the row's figures</a>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("overview lacks %q", want)
		}
	}
	for _, bad := range []string{"Next step: Import the results", "Go to Concurrency matrix"} {
		if strings.Contains(body, bad) {
			t.Errorf("overview says %q", bad)
		}
	}
	// The link's anchor is on the results step: the row's form.
	_, results := do(t, app.client("lead"), http.MethodGet, fmt.Sprintf("%s/reports/%d/results", app.srv.URL, id), nil)
	if !strings.Contains(results, fmt.Sprintf(`<details id="observed-%d"`, rows[1])) {
		t.Errorf("results step has no form observed-%d", rows[1])
	}
}

// TestPathStatesOnTheOverview: a report whose costs, quote and scenarios
// are entered but whose rows lost their memory figures shows the costs and
// scenario steps done and the results step naming the row's figure, not
// "Import the results".
func TestPathStatesOnTheOverview(t *testing.T) {
	app := newTestApp(t)
	id := seedReviewReport(t, app)
	lead := app.client("lead")
	stored, err := app.store.Rows(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	for _, sr := range stored {
		res, body := do(t, lead, http.MethodPost, fmt.Sprintf("%s/reports/%d/rows/%d/observed", app.srv.URL, id, sr.ID),
			url.Values{"version": {app.version(id)}, "oom_checked": {"1"}})
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("clear row %d: %d %s", sr.ID, res.StatusCode, body)
		}
	}
	_, page := do(t, lead, http.MethodGet, fmt.Sprintf("%s/reports/%d", app.srv.URL, id), nil)
	page = html.UnescapeString(page)
	for step, done := range map[string]string{"contract": "true", "freeze": "true", "results": "false", "costs": "true", "scenarios": "true", "recommendation": "false", "submit": "false"} {
		if !strings.Contains(page, `data-testid="path-step-`+step+`" data-done="`+done+`"`) {
			t.Errorf("path step %s is not done=%s:\n%s", step, done, between(page, `data-testid="path"`, "</section>"))
		}
	}
	if !strings.Contains(page, `<h2 id="path-title">Next step: Type the memory headroom of load 1 concurrent stream</h2>`) || strings.Contains(page, "Import the results") {
		t.Errorf("path:\n%s", between(page, `data-testid="path"`, "</section>"))
	}
}
