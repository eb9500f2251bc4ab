package web

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"capplan/planner"
)

// builderValues is contractValues with the objective given as the
// builder's rows in words instead of fields of its own.
func builderValues(version int) url.Values {
	f := contractValues(version)
	for _, k := range []string{"objective.percentile", "objective.ttft_max_s", "objective.e2e_max_s"} {
		f.Del(k)
	}
	rows := [][4]string{{"ttft", "95", "2", "s"}, {"e2e", "95", "15", "s"}, {"", "95", "", "s"}}
	for i, r := range rows {
		f.Set(planner.ObjectiveBoundKey(i, "figure"), r[0])
		f.Set(planner.ObjectiveBoundKey(i, "percentile"), r[1])
		f.Set(planner.ObjectiveBoundKey(i, "bound"), r[2])
		f.Set(planner.ObjectiveBoundKey(i, "unit"), r[3])
	}
	return f
}

// The objective builder, without script: plain fields post, the planner
// stores the objective they write, the form shows it back as rows, and a
// bad row is refused naming its field; nothing is saved then.
func TestContractObjectiveBuilder(t *testing.T) {
	app := newTestApp(t)
	ctx := context.Background()
	id, _ := app.store.CreateReport(ctx, app.users["lead"], "R")
	lead := app.client("lead")
	base := fmt.Sprintf("%s/reports/%d", app.srv.URL, id)

	// A blank contract's builder starts with first tokens and whole
	// answers chosen at the 95th percentile, the limits blank.
	_, edit := do(t, lead, http.MethodGet, base+"/contract/edit", nil)
	for _, want := range []string{`name="objective.bounds[0].percentile" value="95"`, `name="objective.bounds[0].bound" value=""`} {
		if !strings.Contains(edit, want) {
			t.Errorf("blank builder lacks %s", want)
		}
	}
	if n := strings.Count(edit, `data-testid="objective-row-`); n != 3 {
		t.Errorf("blank builder has %d rows, want 3", n)
	}

	form := builderValues(1)
	form.Set("refused_target", "0.5")
	if res, body := do(t, lead, http.MethodPost, base+"/contract", form); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: %d %s", res.StatusCode, testid(body, "form-errors"))
	}
	r, err := app.store.Report(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := r.Contract.Objective.String(), "success>=99%,ttft_p95<=2s,e2e_p95<=15s,headroom>=10%,no_oom"; got != want {
		t.Errorf("stored objective %s, want %s", got, want)
	}
	if rt := r.Contract.RefusedTarget; rt == nil || *rt != 0.005 {
		t.Errorf("stored refused target %v, want 0.005", rt)
	}
	_, page := do(t, lead, http.MethodGet, base+"/contract", nil)
	if got := html.UnescapeString(testid(page, "refused-target")); !strings.Contains(got, "0.5 %") {
		t.Errorf("the contract shows the refused share as %q", got)
	}
	_, edit = do(t, lead, http.MethodGet, base+"/contract/edit", nil)
	if !regexp.MustCompile(`<option value="e2e" selected>whole answers within</option>`).MatchString(edit) ||
		!strings.Contains(edit, `name="objective.bounds[1].bound" value="15"`) ||
		!strings.Contains(html.UnescapeString(edit), "success>=99%,ttft_p95<=2s,e2e_p95<=15s,headroom>=10%,no_oom") {
		t.Error("the edit form does not show the stored objective as rows and text")
	}

	for _, tc := range []struct{ key, value, want string }{
		{planner.ObjectiveBoundKey(1, "percentile"), "99", "differs from row 1's 95 %: one percentile for every bound"},
		{planner.ObjectiveBoundKey(0, "bound"), "soon", `must be a positive number, e.g. 2; got "soon"`},
		{planner.ObjectiveBoundKey(0, "unit"), "tok/s", "first tokens within is given in s or ms"},
		{"refused_target", "100", "above 0 % and below 100 %"},
	} {
		form := builderValues(2)
		form.Set(tc.key, tc.value)
		res, body := do(t, lead, http.MethodPost, base+"/contract", form)
		if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, `data-testid="err-`+tc.key+`"`) || !strings.Contains(html.UnescapeString(body), tc.want) {
			t.Errorf("%s=%s: %d, want 422 naming the field with %q; errors: %s", tc.key, tc.value, res.StatusCode, tc.want, testid(body, "form-errors"))
		}
		if !strings.Contains(body, `value="`+tc.value+`"`) {
			t.Errorf("%s=%s: the refused form does not show it as typed", tc.key, tc.value)
		}
		if r2, _ := app.store.Report(ctx, id); r2.Version != r.Version {
			t.Errorf("%s: a refused save changed the report", tc.key)
		}
	}
}

// The form marks exactly the fields a freeze needs, from the list the
// read view's "To freeze, fill in" comes from, and gives every field a
// line of meaning; the details for the record are folded.
func TestContractFormMarksWhatFreezeNeeds(t *testing.T) {
	app := newTestApp(t)
	id, _ := app.store.CreateReport(context.Background(), app.users["lead"], "R")
	lead := app.client("lead")
	_, edit := do(t, lead, http.MethodGet, fmt.Sprintf("%s/reports/%d/contract/edit", app.srv.URL, id), nil)
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
