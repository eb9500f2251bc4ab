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

	_, page := do(t, app.client("reviewer"), "GET", fmt.Sprintf("%s/reports/%d", app.srv.URL, id), nil)
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
	_, page = do(t, lead, "GET", fmt.Sprintf("%s/reports/%d", app.srv.URL, id), nil)
	if !strings.Contains(page, fmt.Sprintf(`<input type="hidden" name="candidate" value="%d">`, fp8)) {
		t.Error("no upload form sending candidate=<id>")
	}

	// A failed gate takes the variant out of the comparison.
	f := candidateValues("fp8", false)
	f.Set("gate.pass", "fail")
	if res, _ := post(fmt.Sprintf("%s/%d", base, fp8), f); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("edit: %d", res.StatusCode)
	}
	_, page = do(t, lead, "GET", fmt.Sprintf("%s/reports/%d", app.srv.URL, id), nil)
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
