package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// hasOOB reports whether body swaps the element with that id out of band.
func hasOOB(body, id string) bool {
	tag := between(body, fmt.Sprintf(` id="%s"`, id), ">")
	return strings.Contains(tag, `hx-swap-oob="true"`)
}

// TestChangesRefreshTheComputedSections: each change the page makes by
// htmx (a row's figures, a contract amendment, an import removed) answers
// with every section computed from the report, out of band, from one load
// after the change: the ceiling, capacity, costs, crossover, recommendation
// and exit check on the page never lag behind.
func TestChangesRefreshTheComputedSections(t *testing.T) {
	app := newTestApp(t)
	id, rows := seedMatrix(t, app)
	lead := app.client("lead")
	base := fmt.Sprintf("%s/reports/%d", app.srv.URL, id)
	computed := []string{"exitcheck", "envelope", "residency", "costs", "scenarios", "crossover", "recommendation",
		"history", "candidates-judged", "report-version"}

	// A row's figures: headroom 5 % at load 8 drops the ceiling to 4.
	res, body := do(t, lead, "POST", fmt.Sprintf("%s/rows/%d/observed", base, rows[8]),
		url.Values{"version": {reportVersion(t, app, id)}, "headroom": {"5"}}, "HX-Request", "true")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("row save: %d", res.StatusCode)
	}
	for _, want := range append(computed, "matrix-table-wrap", "matrix-judgement") {
		if !hasOOB(body, want) {
			t.Errorf("row save: the answer lacks %s", want)
		}
	}
	if res.Header.Get("HX-Trigger") != "" {
		t.Errorf("row save: HX-Trigger %q: the exit check would fetch itself again", res.Header.Get("HX-Trigger"))
	}
	if env := sectionOf(body, "envelope"); !strings.Contains(env, "Demonstrated ceiling: 4") {
		t.Errorf("row save: envelope not recomputed:\n%.300s", env)
	}
	if !strings.Contains(body, `hx-swap-oob="true">`+reportVersion(t, app, id)+`</span>`) {
		t.Error("row save: the head's version is not the saved one")
	}
	if strings.Contains(body, `<section id="matrix"`) {
		t.Error("row save: the whole matrix, every row's form with it, is swapped")
	}
	do(t, lead, "POST", fmt.Sprintf("%s/rows/%d/observed", base, rows[8]),
		url.Values{"version": {reportVersion(t, app, id)}, "headroom": {"20"}})

	// An amendment after results loosens end-to-end from 15 s to 20 s:
	// load 10 passes, the ceiling rises to 10, the matrix says what it is
	// judged against, marked loosened, and the exit check fails the
	// loosening, all in the answer to the save.
	form := contractValues(0)
	form.Set("version", reportVersion(t, app, id))
	form.Set("objective.e2e_max_s", "20")
	form.Set("reason", "10 streams misses by a second")
	res, body = do(t, lead, "POST", base+"/contract", form, "HX-Request", "true")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("amendment: %d\n%.600s", res.StatusCode, body)
	}
	for _, want := range computed {
		if !hasOOB(body, want) {
			t.Errorf("amendment: the answer lacks %s", want)
		}
	}
	judgement := between(body, `id="matrix-judgement" hx-swap-oob="true"`, "</div>")
	if !strings.Contains(judgement, "e2e_p95&lt;=20s") || !strings.Contains(judgement, `data-testid="loosened"`) {
		t.Errorf("amendment: the matrix is not judged against the loosened objective:\n%s", judgement)
	}
	if env := sectionOf(body, "envelope"); !strings.Contains(env, `data-testid="ceiling">At least 10`) {
		t.Errorf("amendment: envelope not recomputed:\n%.300s", env)
	}
	if !strings.Contains(sectionOf(body, "exitcheck"), `data-testid="exit-objective_loosened" data-pass="false"`) {
		t.Error("amendment: the exit check does not fail the loosening")
	}
	// The form's address is replaced by the report's: Back does not come
	// back to the posted form.
	if got := res.Header.Get("HX-Replace-Url"); got != fmt.Sprintf("/reports/%d/contract", id) || res.Header.Get("HX-Push-Url") != "" {
		t.Errorf("amendment: HX-Replace-Url %q, HX-Push-Url %q", got, res.Header.Get("HX-Push-Url"))
	}

	// The import removed: no rows, no ceiling, and the matrix section
	// (its row forms with it) comes back whole.
	ims, err := app.store.Imports(context.Background(), id)
	if err != nil || len(ims) != 1 {
		t.Fatalf("imports %v %v", ims, err)
	}
	res, body = do(t, lead, "POST", fmt.Sprintf("%s/imports/%d/remove", base, ims[0].ID),
		url.Values{"version": {reportVersion(t, app, id)}}, "HX-Request", "true")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("removal: %d", res.StatusCode)
	}
	for _, want := range append(computed, "matrix") {
		if !hasOOB(body, want) {
			t.Errorf("removal: the answer lacks %s", want)
		}
	}
	if env := sectionOf(body, "envelope"); strings.Contains(env, `data-testid="ceiling">At least 10`) || !strings.Contains(sectionOf(body, "matrix"), `data-testid="matrix-empty"`) {
		t.Errorf("removal: the removed rows are still shown:\n%.400s", env)
	}
	if !strings.Contains(sectionOf(body, "exitcheck"), `data-testid="exit-fail"`) {
		t.Error("removal: the exit check still holds without rows")
	}
}

// TestContractSavedFromItsOwnPageRedirects: the contract form on a page of
// its own (opened without htmx) is answered after a save by a redirect to
// the report, not by the report's sections swapped into the form's page.
func TestContractSavedFromItsOwnPageRedirects(t *testing.T) {
	app := newTestApp(t)
	id, _ := app.store.CreateReport(context.Background(), app.users["lead"], "R")
	lead := app.client("lead")
	_, page := do(t, lead, "GET", fmt.Sprintf("%s/reports/%d/contract/edit", app.srv.URL, id), nil)
	if !strings.Contains(page, `name="on_page" value="1"`) {
		t.Fatal("the form's own page does not say so")
	}
	form := contractValues(1)
	form.Set("on_page", "1")
	res, _ := do(t, lead, "POST", fmt.Sprintf("%s/reports/%d/contract", app.srv.URL, id), form, "HX-Request", "true")
	if res.StatusCode != http.StatusNoContent || res.Header.Get("HX-Redirect") != fmt.Sprintf("/reports/%d/contract#contract", id) {
		t.Errorf("saved from its page: %d, HX-Redirect %q", res.StatusCode, res.Header.Get("HX-Redirect"))
	}
	// In place on the report (htmx), the form does not carry the mark.
	_, part := do(t, lead, "GET", fmt.Sprintf("%s/reports/%d/contract/edit", app.srv.URL, id), nil, "HX-Request", "true")
	if strings.Contains(part, `name="on_page"`) {
		t.Error("the form in place on the report is marked as on its own page")
	}
}
