package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"capplan/planner"
	"capplan/web/store"
)

// walkCandidate adds a candidate to a report for the route walk.
func walkCandidate(t testing.TB, app *testApp, reportID int64) int64 {
	t.Helper()
	ctx := context.Background()
	r, err := app.store.Report(ctx, reportID)
	if err != nil {
		t.Fatal(err)
	}
	id, err := app.store.SaveCandidate(ctx, store.Edit{ReportID: reportID, BaseVersion: r.Version, UserID: app.users["lead"].ID, Action: "candidate added", Section: "candidates"},
		0, planner.Candidate{Name: "walk"})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// candidateValues is a candidate form with a passed gate.
func candidateValues(name string, baseline bool) url.Values {
	f := url.Values{"name": {name}, "model": {"meta-llama/Llama-3.1-8B-Instruct"}, "artifact": {name + " weights"},
		"quantization": {"fp8"}, "gate.gate": {"support-tasks-v3"}, "gate.cases": {"200"}, "gate.pass": {"pass"}, "gate.date": {"2026-11-18"},
		"artifact_size_gib": {"8.5"}, "loaded_memory_gib": {"9"}, "cold_start_s": {"40"}}
	if baseline {
		f.Set("baseline", "1")
		f.Set("quantization", "")
	}
	return f
}

func TestCandidatesAddCompareEditRemove(t *testing.T) {
	app := newTestApp(t)
	id, _ := seedMatrix(t, app)
	lead := app.client("lead")
	base := fmt.Sprintf("%s/reports/%d/candidates", app.srv.URL, id)
	post := func(u string, f url.Values, hdr ...string) (*http.Response, string) {
		f.Set("version", reportVersion(t, app, id))
		return do(t, lead, "POST", u, f, hdr...)
	}

	// Refusals name their fields.
	bad := candidateValues("", false)
	bad.Set("gate.cases", "many")
	bad.Set("gate.pass", "")
	bad.Set("cold_start_s", "-1")
	res, body := post(base, bad)
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("bad candidate: %d", res.StatusCode)
	}
	for _, f := range []string{"name", "gate.cases", "gate.pass", "cold_start_s"} {
		if !strings.Contains(body, `data-testid="err-`+f+`"`) {
			t.Errorf("no error named %s", f)
		}
	}

	// The baseline is judged on the report's matrix (ceiling 8); the fp8
	// variant on its own rows, all passing through 10 with 30 % headroom.
	if res, _ := post(base, candidateValues("bf16", true)); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("add baseline: %d", res.StatusCode)
	}
	if res, _ := post(base, candidateValues("bf16", false)); res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("a second candidate of the same name: %d", res.StatusCode)
	}
	res, body = post(base, candidateValues("fp8", false), "HX-Request", "true")
	if res.StatusCode != http.StatusOK || !strings.Contains(body, `<section id="candidates"`) || !strings.Contains(body, `hx-swap-oob="true"`) {
		t.Fatalf("add fp8 (htmx): %d\n%.400s", res.StatusCode, body)
	}
	cands, _ := app.store.Candidates(context.Background(), id)
	if len(cands) != 2 {
		t.Fatalf("%d candidates", len(cands))
	}
	fp8 := cands[1].ID
	rows := matrixRows(fmt.Sprintf("%064x", 1000+id))
	for i := range rows {
		rows[i].E2E.P95 = planner.F(9)
		rows[i].Observed.Headroom = planner.F(0.3)
		rows[i].Source.File = "fp8.json"
	}
	addRows(t, app.store, id, app.users["lead"].ID, fp8, "fp8.json", rows[0].Source.SHA256, rows)

	_, page := do(t, app.client("reviewer"), "GET", fmt.Sprintf("%s/reports/%d/print", app.srv.URL, id), nil)
	cs := sectionOf(page, "candidates")
	for _, want := range []string{
		"candidate fp8 fits with 30 % observed headroom and meets the objective through load at least 10 concurrent streams",
		`data-testid="candidate-comparison"`,
		"passed support-tasks-v3 (200 cases, 2026-11-18)",
	} {
		if !strings.Contains(cs, want) {
			t.Errorf("candidates lack %q", want)
		}
	}
	if strings.Contains(cs, `data-testid="candidate-upload-fp8"`) {
		t.Error("a reviewer sees the upload form")
	}
	// The report's main matrix is unchanged by the candidate's rows.
	if !strings.Contains(sectionOf(page, "envelope"), "Demonstrated ceiling: 8") {
		t.Error("candidate rows leaked into the main envelope")
	}

	// The lead's page has an upload form per candidate that names it.
	_, page = do(t, lead, "GET", fmt.Sprintf("%s/reports/%d/print", app.srv.URL, id), nil)
	if !strings.Contains(page, fmt.Sprintf(`action="/reports/%d/candidates/%d/imports"`, id, fp8)) {
		t.Error("no upload form into the candidate")
	}

	// A failed gate takes the variant out of the comparison.
	f := candidateValues("fp8", false)
	f.Set("gate.pass", "fail")
	if res, _ := post(fmt.Sprintf("%s/%d", base, fp8), f); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("edit: %d", res.StatusCode)
	}
	_, page = do(t, lead, "GET", fmt.Sprintf("%s/reports/%d/print", app.srv.URL, id), nil)
	if cs := sectionOf(page, "candidates"); !strings.Contains(cs, "candidate bf16 fits with 20 % observed headroom and meets the objective through load 8 concurrent streams") ||
		!strings.Contains(cs, "fp8 is not compared: failed regression gate") {
		t.Errorf("after the failed gate:\n%s", cs)
	}

	// A candidate with imports is not removed; one without is.
	if res, body := post(fmt.Sprintf("%s/%d/remove", base, fp8), url.Values{}); res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "remove its 1 import(s) first") {
		t.Errorf("remove with imports: %d", res.StatusCode)
	}
	if res, _ := post(fmt.Sprintf("%s/%d/remove", base, cands[0].ID), url.Values{}); res.StatusCode != http.StatusSeeOther {
		t.Errorf("remove: %d", res.StatusCode)
	}
	h, _ := app.store.History(context.Background(), id)
	var actions []string
	for _, c := range h {
		actions = append(actions, c.Action)
	}
	for _, want := range []string{"candidate bf16 added", "candidate fp8 edited", "candidate bf16 removed"} {
		if !strings.Contains(strings.Join(actions, "|"), want) {
			t.Errorf("history lacks %q: %q", want, actions)
		}
	}
	if res, _ := do(t, app.client("lead2"), "POST", base, candidateValues("x", false)); res.StatusCode != http.StatusForbidden {
		t.Errorf("lead2 adds a candidate: %d", res.StatusCode)
	}
}

// seedCandidateRows adds to the seedMatrix report a gate-passing candidate
// fp8 with the five rows of matrixRows imported into it, without memory
// figures; it returns the candidate id and its stored row ids by load.
func seedCandidateRows(t *testing.T, app *testApp, id int64) (int64, map[float64]int64) {
	t.Helper()
	ctx := context.Background()
	r, _ := app.store.Report(ctx, id)
	cid, err := app.store.SaveCandidate(ctx, store.Edit{ReportID: id, BaseVersion: r.Version, UserID: app.users["lead"].ID, Action: "candidate added", Section: "candidates"}, 0,
		planner.Candidate{Name: "fp8", Model: "meta-llama/Llama-3.1-8B-Instruct", Quantization: "fp8",
			Gate: &planner.RegressionGate{Gate: "support-tasks-v3", Cases: 200, Pass: true, Date: "2026-11-18"}})
	if err != nil {
		t.Fatal(err)
	}
	sha := fmt.Sprintf("%064x", id+5000)
	rows := matrixRows(sha)
	for i := range rows {
		rows[i].Source.File = "fp8.json"
		rows[i].Observed = planner.Observed{}
	}
	addRows(t, app.store, id, app.users["lead"].ID, cid, "fp8.json", sha, rows)
	stored, _ := app.store.Rows(ctx, id)
	ids := map[float64]int64{}
	for _, sr := range stored {
		if sr.CandidateID == cid {
			ids[*sr.Row.Load] = sr.ID
		}
	}
	return cid, ids
}

func TestCandidateOwnMatrixAndTypedFigures(t *testing.T) {
	app := newTestApp(t)
	id, _ := seedMatrix(t, app)
	cid, rows := seedCandidateRows(t, app, id)
	lead := app.client("lead")

	// The card shows fp8's own matrix, its rows not judged for want of
	// headroom, and a form per row to type it in.
	_, body := do(t, lead, "GET", fmt.Sprintf("%s/reports/%d/print", app.srv.URL, id), nil)
	card := cutBetween(sectionOf(withParts(t, lead, app.srv.URL, body), "candidates"), `data-testid="candidate-fp8"`, "</article>")
	for _, want := range []string{
		fmt.Sprintf(`data-testid="candidate-matrix-%d"`, cid),
		fmt.Sprintf(`data-testid="candidate-%d-row-3" data-verdict="not-judged"`, cid),
		"memory headroom",
		fmt.Sprintf(`data-testid="observed-form-%d"`, rows[8]),
		fmt.Sprintf(`hx-target="#observed-%d"`, rows[8]),
		fmt.Sprintf(`/rows/%d/provenance?from=candidates`, rows[8]),
	} {
		if !strings.Contains(card, want) {
			t.Errorf("fp8's card lacks %s", want)
		}
	}
	if strings.Contains(card, `data-testid="import"`) {
		t.Error("the imports list is drawn inside the candidate card")
	}

	// Typing headroom into every row judges them: fp8 gets its envelope.
	var res *http.Response
	for _, l := range []float64{1, 2, 4, 8, 10} {
		res, body = do(t, lead, "POST", fmt.Sprintf("%s/reports/%d/rows/%d/observed", app.srv.URL, id, rows[l]),
			url.Values{"version": {reportVersion(t, app, id)}, "headroom": {"20"}, "peak_memory_gib": {"40"}}, "HX-Request", "true")
		if res.StatusCode != http.StatusOK {
			t.Fatalf("load %g: %d\n%.300s", l, res.StatusCode, body)
		}
	}
	judged := cutBetween(body, fmt.Sprintf(`<div id="candidate-%d-judged"`, cid), "</table>")
	if !strings.Contains(judged, `hx-swap-oob="true"`) || !strings.Contains(judged, "demonstrated ceiling: 8") ||
		!strings.Contains(judged, fmt.Sprintf(`data-testid="candidate-%d-row-3" data-verdict="pass"`, cid)) {
		t.Errorf("the saved row's answer lacks fp8's judged matrix out of band:\n%.600s", judged)
	}
	if !strings.HasPrefix(strings.TrimSpace(body), fmt.Sprintf(`<details id="observed-%d"`, rows[10])) {
		t.Errorf("the answer does not start with the saved row's form: %.200s", body)
	}
	cmp := cutBetween(body, `data-testid="candidate-comparison"`, "</table>")
	for _, want := range []string{
		">TTFT p95 at the ceiling (s)<", "Errors over its counted rows (of finished)<", "Successful req/s at the ceiling<",
		"Peak memory, highest in the envelope (GiB)<", ">fp8",
	} {
		if !strings.Contains(cmp, want) {
			t.Errorf("comparison lacks %s", want)
		}
	}
	if strings.Contains(cmp, ">Error rate<") || strings.Contains(cmp, ">TTFT at the ceiling") {
		t.Error("comparison keeps a label that does not say what the figure is")
	}
	// A plain post goes back to the card.
	res, _ = do(t, lead, "POST", fmt.Sprintf("%s/reports/%d/rows/%d/observed", app.srv.URL, id, rows[1]),
		url.Values{"version": {reportVersion(t, app, id)}, "headroom": {"25"}})
	if loc := res.Header.Get("Location"); res.StatusCode != http.StatusSeeOther || !strings.HasSuffix(loc, fmt.Sprintf("#candidate-%d", cid)) {
		t.Errorf("plain post: %d %s", res.StatusCode, loc)
	}
}

func TestCandidateUploadRefreshesCandidates(t *testing.T) {
	app := newTestApp(t)
	ctx := context.Background()
	r := frozenReport(t, app)
	cid, err := app.store.SaveCandidate(ctx, store.Edit{ReportID: r.ID, BaseVersion: r.Version, UserID: app.users["lead"].ID, Action: "candidate added"}, 0,
		planner.Candidate{Name: "fp8", Model: "llama-fp8"})
	if err != nil {
		t.Fatal(err)
	}
	u := fmt.Sprintf("%s/reports/%d/candidates/%d/imports", app.srv.URL, r.ID, cid)
	lead := app.client("lead")
	res, body := postCandidateFile(t, lead, u, r.Version+1, "", readUpload(t, benchVLLM))
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("status %d\n%.400s", res.StatusCode, body)
	}
	if res.Header.Get("X-Report-Version") == "" {
		t.Error("no X-Report-Version: the page's other forms would save as stale")
	}
	stored, _ := app.store.Rows(ctx, r.ID)
	if len(stored) != 1 || stored[0].CandidateID != cid {
		t.Fatalf("rows = %+v, want one row of candidate %d", stored, cid)
	}
	body = withParts(t, lead, app.srv.URL, body) // the row's form, as opened
	for _, want := range []string{
		"<h2>Candidates</h2>",
		`data-testid="candidate-import-result"`, "Added 1 row from 1 file.",
		fmt.Sprintf(`data-testid="candidate-matrix-%d"`, cid),
		fmt.Sprintf(`data-testid="observed-form-%d"`, stored[0].ID),
		fmt.Sprintf(`action="/reports/%d/candidates/%d/imports"`, r.ID, cid),
		`data-target="#candidates"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("upload answer lacks %s", want)
		}
	}
	if strings.Contains(body, "<h2>Imported results</h2>") || strings.Contains(body, `data-testid="import"`) || strings.HasPrefix(strings.TrimSpace(body), "<section") {
		t.Error("the upload answer is not the candidates section's inside")
	}

	// The same file again is refused in the card, nothing stored.
	res, body = postCandidateFile(t, lead, u, r.Version+2, "", readUpload(t, benchVLLM))
	if res.StatusCode != http.StatusConflict || !strings.Contains(body, "Nothing was imported.") || !strings.Contains(body, `data-testid="candidate-import-result"`) {
		t.Errorf("duplicate: %d\n%.400s", res.StatusCode, body)
	}
	// A candidate of another report is not found.
	other := frozenReport(t, app)
	res, _ = postCandidateFile(t, lead, fmt.Sprintf("%s/reports/%d/candidates/%d/imports", app.srv.URL, other.ID, cid), other.Version, "", readUpload(t, benchVLLM))
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("candidate of another report: %d", res.StatusCode)
	}
}
