package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/store"
)

func TestReportPageSeesEveryWrite(t *testing.T) {
	app := newTestApp(t)
	ctx := context.Background()
	id, _ := app.store.CreateReport(ctx, app.users["lead"], "Before")
	u := fmt.Sprintf("%s/reports/%d/results", app.srv.URL, id)
	lead := app.client("lead")
	if _, page := do(t, lead, "GET", u, nil); !strings.Contains(page, "Before") {
		t.Fatal("first view")
	}
	// A write through the store is seen on the next view.
	if err := app.store.RenameReport(ctx, store.Edit{ReportID: id, BaseVersion: 1, UserID: app.users["lead"].ID, Action: "renamed"}, "After"); err != nil {
		t.Fatal(err)
	}
	if _, page := do(t, lead, "GET", u, nil); !strings.Contains(page, "After") {
		t.Error("the page still shows the old title after a write")
	}
	// Another user's view of the same report is not the lead's.
	if _, page := do(t, app.client("reviewer"), "GET", u, nil); strings.Contains(page, `data-testid="edit-contract"`) {
		t.Error("the reviewer got the lead's cached page with edit buttons")
	}
}

func TestLongMatrixShowsTheContractLevelsAndAllOnRequest(t *testing.T) {
	app := newTestApp(t)
	id := seedBigReport(t, app, 40)
	u := fmt.Sprintf("%s/reports/%d/results", app.srv.URL, id)
	lead := app.client("lead")
	_, page := do(t, lead, "GET", u, nil)
	levels := len(reports.DemoContract().Loads)
	if got := strings.Count(page, `data-testid="matrix-row-`); got != levels {
		t.Errorf("collapsed matrix shows %d rows, want the %d at the contract's levels", got, levels)
	}
	if !strings.Contains(page, `data-testid="matrix-show-all"`) || !strings.Contains(page, "Show all 40 rows") {
		t.Error("no link to every row")
	}
	_, page = do(t, lead, "GET", u+"?rows=all", nil)
	if got := strings.Count(page, `data-testid="matrix-row-`); got != 40 {
		t.Errorf("?rows=all shows %d rows, want 40", got)
	}
	if strings.Contains(page, `data-testid="matrix-collapsed"`) {
		t.Error("?rows=all still says it is collapsed")
	}
}

func TestAPIReportIsTheHeadlineUnlessRowsAreAsked(t *testing.T) {
	app := newTestApp(t)
	id := seedBigReport(t, app, 40)
	tok, err := app.store.CreateAPIToken(context.Background(), app.users["reviewer"].ID, "ci")
	if err != nil {
		t.Fatal(err)
	}
	type answer struct {
		RowsIncluded bool `json:"rows_included"`
		Inputs       struct {
			Rows     []json.RawMessage `json:"rows"`
			Contract json.RawMessage   `json:"contract"`
		} `json:"inputs"`
		Result struct {
			Matrix []struct {
				Row struct {
					Paths map[string]string `json:"paths"`
				} `json:"row"`
				Verdict struct {
					State string `json:"state"`
				} `json:"verdict"`
			} `json:"matrix"`
			Envelope  json.RawMessage `json:"envelope"`
			ExitCheck json.RawMessage `json:"exit_check"`
		} `json:"result"`
	}
	get := func(q string) (answer, int) {
		res, body := do(t, http.DefaultClient, "GET", fmt.Sprintf("%s/api/v1/reports/%d%s", app.srv.URL, id, q), nil, "Authorization", "Bearer "+tok)
		var a answer
		if res.StatusCode != http.StatusOK || json.Unmarshal([]byte(body), &a) != nil {
			t.Fatalf("API%s: %d %.200s", q, res.StatusCode, body)
		}
		return a, len(body)
	}
	head, headBytes := get("")
	full, fullBytes := get("?include=rows")
	if head.RowsIncluded || len(head.Inputs.Rows) != 0 || len(head.Inputs.Contract) == 0 {
		t.Errorf("headline: rows_included %v, %d input rows, contract %q", head.RowsIncluded, len(head.Inputs.Rows), head.Inputs.Contract)
	}
	if len(head.Result.Matrix) != 40 || head.Result.Matrix[0].Verdict.State == "" || len(head.Result.Envelope) == 0 || len(head.Result.ExitCheck) == 0 {
		t.Errorf("headline lacks verdicts, envelope or exit check")
	}
	for _, rr := range head.Result.Matrix {
		if len(rr.Row.Paths) > 0 {
			t.Fatal("headline carries per-row paths")
		}
	}
	if !full.RowsIncluded || len(full.Inputs.Rows) != 40 || len(full.Result.Matrix[0].Row.Paths) == 0 {
		t.Errorf("include=rows: rows_included %v, %d input rows, %d paths", full.RowsIncluded, len(full.Inputs.Rows), len(full.Result.Matrix[0].Row.Paths))
	}
	if headBytes*2 > fullBytes {
		t.Errorf("headline %d bytes, whole %d: the detail is not where the size is", headBytes, fullBytes)
	}
}

// viewFixture is the demo report's view model as web/view's component
// tests read it (web/view/testdata/demo_report.json): what the page would
// render for the demo's owner, without the computed Result, which the tests
// compute again from In with planner.Compute.
const viewFixture = "view/testdata/demo_report.json"

// rowFixture holds what viewFixture's JSON leaves out of the demo's rows
// (planner.Row's Source, Samples and Telemetry are not in its JSON), so
// that web/view's tests compute the demo's figures as the app does: the
// capacity under random arrivals draws on the ceiling row's per-request
// records, figures keyed by row on the file's SHA-256. Main matrix rows
// under "rows", each candidate's under its name, in the order of
// planner.Inputs.
const rowFixture = "view/testdata/demo_rows.json"

// rowExtras are the fields of a row viewFixture leaves out.
type rowExtras struct {
	Source    planner.Source
	Samples   []planner.Sample
	Telemetry *planner.RowTelemetry
}

// demoRowsJSON is rowFixture's content for the demo's inputs in.
func demoRowsJSON(t *testing.T, in planner.Inputs) []byte {
	t.Helper()
	extras := func(rows []planner.Row) []rowExtras {
		out := make([]rowExtras, len(rows))
		for i, r := range rows {
			out[i] = rowExtras{Source: r.Source, Samples: r.Samples, Telemetry: r.Telemetry}
		}
		return out
	}
	m := map[string][]rowExtras{"rows": extras(in.Rows)}
	for _, c := range in.Candidates {
		m["candidate "+c.Name] = extras(c.Rows)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// demoFixtures are viewFixture's content (the demo's view model for its
// owner) and rowFixture's, from the demo seeded into a temporary database.
func demoFixtures(t *testing.T) (view, rows []byte) {
	t.Helper()
	ctx := context.Background()
	st := mustOpenDB(t)
	owner, err := st.CreateUser(ctx, "admin", "A. Lead", store.RoleAdmin, testPassword)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := SeedDemo(ctx, st, dir); err != nil {
		t.Fatal(err)
	}
	list, err := st.Reports(ctx)
	if err != nil || len(list) != 1 {
		t.Fatalf("reports %v %v", list, err)
	}
	rep, err := reports.New(st, dir, time.Now).Load(ctx, list[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	v := viewOf(rep, &owner)
	v.Derived = nil
	v.Result = planner.Result{}
	b, err := json.MarshalIndent(v, "", "\t")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n'), demoRowsJSON(t, v.In)
}

// TestWriteViewFixture writes viewFixture and rowFixture from the demo seeded into a
// temporary database, when CAPPLAN_WRITE_VIEW_FIXTURE=1 asks for it (after
// a change of the demo or of the view model):
//
//	CAPPLAN_WRITE_VIEW_FIXTURE=1 go test ./web -run TestWriteViewFixture
func TestWriteViewFixture(t *testing.T) {
	if os.Getenv("CAPPLAN_WRITE_VIEW_FIXTURE") != "1" {
		t.Skip("writes " + viewFixture + " and " + rowFixture + " when CAPPLAN_WRITE_VIEW_FIXTURE=1")
	}
	v, rows := demoFixtures(t)
	if err := os.WriteFile(viewFixture, v, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rowFixture, rows, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestViewFixtureIsCurrent holds that viewFixture has the shape of the
// view model made from the demo today: the same fields at every level
// (its values, dates and ids, differ from day to day), and rowFixture
// the demo's rows' sources and records exactly. A field added to
// the view model, the planner's inputs or the demo asks for the fixture
// to be written again (TestWriteViewFixture).
func TestViewFixtureIsCurrent(t *testing.T) {
	stored, err := os.ReadFile(viewFixture)
	if err != nil {
		t.Fatal(err)
	}
	var was, now any
	if err := json.Unmarshal(stored, &was); err != nil {
		t.Fatal(err)
	}
	viewNow, rowsNow := demoFixtures(t)
	if err := json.Unmarshal(viewNow, &now); err != nil {
		t.Fatal(err)
	}
	// The rows' sources and per-request records are the demo's generated
	// files', the same every day: they are held exactly.
	if rows, err := os.ReadFile(rowFixture); err != nil || !bytes.Equal(rows, rowsNow) {
		t.Errorf("%s differs from the demo's rows today (%v); write it again: CAPPLAN_WRITE_VIEW_FIXTURE=1 go test ./web -run TestWriteViewFixture", rowFixture, err)
	}
	wasKeys, nowKeys := map[string]bool{}, map[string]bool{}
	jsonPaths(was, "", wasKeys)
	jsonPaths(now, "", nowKeys)
	for k := range nowKeys {
		if !wasKeys[k] {
			t.Errorf("%s: %s is new; write it again: CAPPLAN_WRITE_VIEW_FIXTURE=1 go test ./web -run TestWriteViewFixture", viewFixture, k)
		}
	}
	for k := range wasKeys {
		if !nowKeys[k] {
			t.Errorf("%s: %s is gone; write it again: CAPPLAN_WRITE_VIEW_FIXTURE=1 go test ./web -run TestWriteViewFixture", viewFixture, k)
		}
	}
}

// jsonPaths adds to out the path of every field set in v (a decoded JSON
// value), array elements under "[]".
func jsonPaths(v any, at string, out map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if e == nil {
				continue // an absent pointer or list: the demo's values decide it
			}
			out[at+"."+k] = true
			jsonPaths(e, at+"."+k, out)
		}
	case []any:
		for _, e := range v {
			jsonPaths(e, at+"[]", out)
		}
	}
}
