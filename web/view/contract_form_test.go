package view

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"capplan/planner"
	"capplan/web/store"
)

// contractEditOf is the contract's edit page for c, as the app renders it.
func contractEditOf(t *testing.T, c planner.Contract) string {
	t.Helper()
	r := store.Report{ID: 3, Title: "R", Owner: "lead@example.com", Version: 1, Contract: c}
	return renderHTML(t, ContractEditPage(ContractEditView{R: r, C: c}))
}

// A blank contract's objective builder starts with first tokens and whole
// answers chosen at the 95th percentile, the limits blank, in three rows;
// a stored objective comes back as its rows and its text.
func TestContractObjectiveBuilderRows(t *testing.T) {
	edit := contractEditOf(t, planner.Contract{})
	for _, want := range []string{`name="objective.bounds[0].percentile" value="95"`, `name="objective.bounds[0].bound" value=""`} {
		if !strings.Contains(edit, want) {
			t.Errorf("blank builder lacks %s", want)
		}
	}
	if n := strings.Count(edit, `data-testid="objective-row-`); n != 3 {
		t.Errorf("blank builder has %d rows, want 3", n)
	}

	const stored = "success>=99%,ttft_p95<=2s,e2e_p95<=15s,headroom>=10%,no_oom"
	o, err := planner.ParseObjective(stored)
	if err != nil {
		t.Fatal(err)
	}
	edit = contractEditOf(t, planner.Contract{Objective: o})
	if !regexp.MustCompile(`<option value="e2e" selected>whole answers within</option>`).MatchString(edit) ||
		!strings.Contains(edit, `name="objective.bounds[1].bound" value="15"`) ||
		!strings.Contains(html.UnescapeString(edit), stored) {
		t.Error("the edit form does not show the stored objective as rows and text")
	}
}

// The form marks exactly the fields a freeze needs, from the list the
// read view's "To freeze, fill in" comes from, and gives every field a
// line of meaning; the details for the record are folded.
func TestContractFormMarksWhatFreezeNeeds(t *testing.T) {
	edit := contractEditOf(t, planner.Contract{})
	label := regexp.MustCompile(`(?s)<label data-field="([^"]+)">(.*?)</label>`)
	marked := map[string]bool{}
	fields := 0
	for _, m := range label.FindAllStringSubmatch(edit, -1) {
		fields++
		key, body := m[1], m[2]
		marked[key] = strings.Contains(body, `data-testid="needed-to-freeze"`)
		if marked[key] != planner.NeededToFreeze(key) {
			t.Errorf("%s marked %v, freeze needs it: %v", key, marked[key], planner.NeededToFreeze(key))
		}
		if !strings.Contains(body, `class="hint"`) {
			t.Errorf("%s has no line of meaning", key)
		}
	}
	if fields < 30 {
		t.Fatalf("found %d contract fields, want the whole form", fields)
	}
	for _, k := range planner.FreezeFields() {
		if strings.HasPrefix(k, "objective.") {
			continue // the builder, marked as a whole
		}
		if _, ok := marked[k]; !ok {
			t.Errorf("the freeze needs %s, which the form lacks", k)
		}
	}
	if !regexp.MustCompile(`<legend>Service objective <span class="need"`).MatchString(edit) {
		t.Error("the objective builder is not marked as needed to freeze")
	}
	for _, words := range []string{"Proxy / release revision", "Artifact hash", "Stop authority", "Test window"} {
		key := map[string]string{"Proxy / release revision": "release_revision", "Artifact hash": "artifact_hash", "Stop authority": "owners.stop_authority", "Test window": "owners.window"}[words]
		if !strings.Contains(edit, words) || planner.ContractHelp[key] == "" || !strings.Contains(html.UnescapeString(edit), planner.ContractHelp[key]) {
			t.Errorf("%s is not explained", words)
		}
	}
	details := edit[strings.Index(edit, `data-testid="contract-details"`):]
	if strings.Contains(details[:strings.Index(details, ">")], "open") {
		t.Error("the details for the record are open on a blank form")
	}
	if !strings.Contains(details, `name="owners.stop_authority"`) || strings.Contains(details, `name="baseline_model"`) {
		t.Error("the details hold the wrong fields")
	}
}

// The contract's read view gives the share the sizing may refuse as a
// percentage of what was typed.
func TestContractShowsTheRefusedShare(t *testing.T) {
	share := 0.005
	c := planner.Contract{RefusedTarget: &share}
	v := blankReport()
	v.R.Contract = c
	v = withInputs(v, planner.Inputs{Contract: c, Currency: "EUR"})
	page := stepPageOf(t, v, "contract")
	if got := html.UnescapeString(testid(page, "refused-target")); !strings.Contains(got, "0.5 %") {
		t.Errorf("the contract shows the refused share as %q", got)
	}
}
