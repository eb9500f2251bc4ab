package web

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"capplan/planner"
	"capplan/web/store"
)

// matrixRows are concurrency rows 1, 2, 4, 8, 10 of 60 s and 600 requests
// each, every one with 20 % memory headroom; 10 fails p95 end-to-end
// (16.2 s, above the 15 s bound). sha names the file they come from.
func matrixRows(sha string) []planner.Row {
	var rows []planner.Row
	for i, l := range []float64{1, 2, 4, 8, 10} {
		e2e := 6 + l*0.8
		if l == 10 {
			e2e = 16.2
		}
		rows = append(rows, planner.Row{
			Source: planner.Source{File: "sweep.json", SHA256: sha, Format: "guidellm", ToolVersion: "0.5.0"},
			Model:  "meta-llama/Llama-3.1-8B-Instruct", Index: i,
			LoadKind: planner.LoadConcurrency, Load: planner.F(l), AchievedConcurrency: planner.F(l * 0.98),
			Attempted: planner.I(600), Successful: planner.I(600), Errored: planner.I(0), Incomplete: planner.I(0),
			DurationS: planner.F(60), RequestRate: planner.F(l / 7), OutputTokenRate: planner.F(l * 30),
			PromptTokensMean: planner.F(512), OutputTokensMean: planner.F(256),
			TTFT:     planner.Stat{P50: planner.F(0.1 * l), P95: planner.F(0.15 * l), P99: planner.F(0.19 * l)},
			E2E:      planner.Stat{Mean: planner.F(e2e - 0.5), P50: planner.F(e2e - 1), P95: planner.F(e2e), P99: planner.F(e2e + 1)},
			Warnings: []planner.Warning{},
			Observed: planner.Observed{Headroom: planner.F(0.2), PeakMemoryGiB: planner.F(64)},
		})
	}
	return rows
}

// seedMatrix makes a report owned by "lead" with the frozen contract of
// contractValues and the rows of matrixRows imported; it returns the report
// id and the stored row id by load.
func seedMatrix(t testing.TB, app *testApp) (int64, map[float64]int64) {
	t.Helper()
	ctx := context.Background()
	st, lead := app.store, app.users["lead"]
	id, err := st.CreateReport(ctx, lead, "Matrix")
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
	addRows(t, st, id, lead.ID, 0, "sweep.json", sha, matrixRows(sha))
	rows, err := st.Rows(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[float64]int64{}
	for _, sr := range rows {
		ids[*sr.Row.Load] = sr.ID
	}
	return id, ids
}

// addRows imports rows as one file, into the main matrix (candidate 0) or
// a candidate's.
func addRows(t testing.TB, st *store.Store, reportID, userID, candidateID int64, file, sha string, rows []planner.Row) {
	t.Helper()
	ctx := context.Background()
	r, err := st.Report(ctx, reportID)
	if err != nil {
		t.Fatal(err)
	}
	_, err = st.AddImport(ctx, store.Edit{ReportID: reportID, BaseVersion: r.Version, UserID: userID, Action: "imported " + file, Section: "imports"},
		store.Import{CandidateID: candidateID, FileName: file, SHA256: sha, Format: "guidellm", SizeBytes: 1}, rows)
	if err != nil {
		t.Fatal(err)
	}
}

// reportVersion is the report's current version, for forms.
func reportVersion(t testing.TB, app *testApp, id int64) string {
	t.Helper()
	r, err := app.store.Report(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(r.Version)
}

// sectionOf returns the part of s from the element with data-testid=id to
// the end of the section it is in (a rough cut, enough for assertions).
func sectionOf(body, id string) string {
	i := strings.Index(body, `<section id="`+id+`"`)
	if i < 0 {
		return ""
	}
	rest := body[i:]
	if j := strings.Index(rest, "</section>"); j >= 0 {
		return rest[:j]
	}
	return rest
}

func TestObservedFiguresValidateSaveAndSwap(t *testing.T) {
	app := newTestApp(t)
	id, rows := seedMatrix(t, app)
	lead := app.client("lead")
	post := func(load float64, form url.Values, hdr ...string) (*http.Response, string) {
		form.Set("version", reportVersion(t, app, id))
		return do(t, lead, "POST", fmt.Sprintf("%s/reports/%d/rows/%d/observed", app.srv.URL, id, rows[load]), form, hdr...)
	}

	res, body := post(8, url.Values{"peak_memory_gib": {"lots"}, "headroom": {"150"}, "power_watts": {"-3"}, "stopped": {"1"}})
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("bad figures: %d", res.StatusCode)
	}
	for _, field := range []string{"peak_memory_gib", "headroom", "power_watts", "stop_reason"} {
		if !strings.Contains(body, `data-testid="err-`+field+`"`) {
			t.Errorf("no error named %s", field)
		}
	}
	if !strings.Contains(body, `value="lots"`) {
		t.Error("the typed value is not shown again")
	}

	// Headroom 5 % at load 8 fails it: the ceiling drops to 4, and the
	// htmx answer carries the envelope out of band.
	res, body = post(8, url.Values{"peak_memory_gib": {"76"}, "headroom": {"5"}, "power_watts": {"640"}}, "HX-Request", "true")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("save: %d\n%s", res.StatusCode, body)
	}
	for _, want := range []string{
		fmt.Sprintf(`<details id="observed-%d" class="observed" open data-testid="observed-%d">`, rows[8], rows[8]),
		fmt.Sprintf(`data-testid="observed-saved-%d"`, rows[8]),
		`id="matrix-table-wrap" hx-swap-oob="true"`,
		`id="candidates-judged" hx-swap-oob="true"`,
		`<section id="envelope" class="report-section" data-testid="envelope" hx-swap-oob="true"`,
		`<section id="history" class="report-section" data-testid="history" hx-swap-oob="true"`,
		"Demonstrated ceiling: 4",
		"memory headroom 5 %, below 10 %",
		`data-testid="tokens-per-joule">0.375<`, // 240 tok/s / 640 W, 3 significant figures
	} {
		if !strings.Contains(body, want) {
			t.Errorf("swap lacks %s", want)
		}
	}
	if strings.Contains(body, "<html") {
		t.Error("htmx answer is a whole page")
	}
	// Only the saved row's form comes back: other rows' open forms, and
	// what is typed in them, stay on the page.
	if strings.Contains(body, `<section id="matrix"`) || strings.Contains(body, fmt.Sprintf(`observed-form-%d"`, rows[4])) {
		t.Error("a row save re-renders the whole matrix with every row's form")
	}

	// A refused row is answered with its form alone for htmx.
	res, body = post(4, url.Values{"headroom": {"150"}}, "HX-Request", "true")
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.HasPrefix(strings.TrimSpace(body), fmt.Sprintf(`<details id="observed-%d"`, rows[4])) ||
		!strings.Contains(body, `data-testid="err-headroom"`) || strings.Contains(body, "hx-swap-oob") {
		t.Errorf("refused row over htmx: %d\n%.300s", res.StatusCode, body)
	}

	// A stopped row with its reason stays in the matrix, marked.
	res, _ = post(10, url.Values{"stopped": {"1"}, "stop_reason": {"5 errors in a row"}, "headroom": {"20"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("stop: %d", res.StatusCode)
	}
	_, page := do(t, lead, "GET", fmt.Sprintf("%s/reports/%d/print", app.srv.URL, id), nil)
	if !strings.Contains(sectionOf(page, "matrix"), "stopped: 5 errors in a row") {
		t.Error("stopped row not marked with its reason")
	}
	h, _ := app.store.History(context.Background(), id)
	var found bool
	for _, c := range h {
		if strings.HasPrefix(c.Action, "observed figures of load 8") && strings.Contains(c.After, "Memory headroom at peak: 0.05") {
			found = true
		}
	}
	if !found {
		t.Errorf("no history entry for the observed figures: %+v", h)
	}

	// Someone who may not edit the report is refused.
	res, _ = do(t, app.client("lead2"), "POST", fmt.Sprintf("%s/reports/%d/rows/%d/observed", app.srv.URL, id, rows[8]), url.Values{"version": {reportVersion(t, app, id)}})
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("lead2: %d", res.StatusCode)
	}
	// A row of another report is not found.
	other, _ := seedMatrix(t, app)
	res, _ = do(t, lead, "POST", fmt.Sprintf("%s/reports/%d/rows/%d/observed", app.srv.URL, other, rows[8]), url.Values{"version": {reportVersion(t, app, other)}})
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("row of another report: %d", res.StatusCode)
	}
}

func TestMatrixCSV(t *testing.T) {
	app := newTestApp(t)
	id, _ := seedMatrix(t, app)
	res, body := do(t, app.client("finance"), "GET", fmt.Sprintf("%s/reports/%d/matrix.csv", app.srv.URL, id), nil)
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/csv") {
		t.Fatalf("csv: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	recs, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 6 {
		t.Fatalf("%d lines, want header + 5", len(recs))
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	last := recs[5]
	for name, want := range map[string]string{
		"load": "10", "e2e_p95_s": "16.2", "verdict": "fail", "failures": "p95 end-to-end 16.2 s, above the 15 s bound",
		"in_envelope": "false", "success_rate": "1", "headroom": "0.2", "file": "sweep.json",
	} {
		if got := last[col[name]]; got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	if got := recs[4][col["in_envelope"]]; got != "true" {
		t.Errorf("load 8 in_envelope = %q", got)
	}
}

// cutBetween is the part of s after the first from and before the next to.
func cutBetween(s, from, to string) string {
	i := strings.Index(s, from)
	if i < 0 {
		return ""
	}
	s = s[i:]
	if j := strings.Index(s, to); j >= 0 {
		return s[:j]
	}
	return s
}

// The sources page of a matrix row leads back to the matrix, opened from
// the imports back to them. (The matrix's columns, labels, badges and
// objective line are tested in web/view.)
func TestMatrixSourcesLinkBack(t *testing.T) {
	app := newTestApp(t)
	id, rows := seedMatrix(t, app)
	_, body := do(t, app.client("lead"), "GET", fmt.Sprintf("%s/reports/%d/print", app.srv.URL, id), nil)
	m := sectionOf(body, "matrix")
	// The matrix's sources link leads back to the matrix; the imports'
	// to the imports.
	link := fmt.Sprintf("/reports/%d/rows/%d/provenance?from=matrix", id, rows[4])
	if !strings.Contains(m, `href="`+link+`"`) {
		t.Fatalf("matrix lacks sources link %s", link)
	}
	_, page := do(t, app.client("reviewer"), "GET", app.srv.URL+link, nil)
	if !strings.Contains(page, fmt.Sprintf(`href="/reports/%d/results#matrix"`, id)) {
		t.Error("the sources page of a matrix row does not link back to the matrix")
	}
	_, page = do(t, app.client("reviewer"), "GET", fmt.Sprintf("%s/reports/%d/rows/%d/provenance", app.srv.URL, id, rows[4]), nil)
	if !strings.Contains(page, fmt.Sprintf(`href="/reports/%d/results#imports"`, id)) {
		t.Error("the sources page opened from the imports does not link back to them")
	}
}
