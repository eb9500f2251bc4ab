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
// stores the objective they write, and a bad row is refused naming its
// field; nothing is saved then. (The builder's rows, blank and stored:
// web/view's TestContractObjectiveBuilderRows; the refused share
// as read: TestContractShowsTheRefusedShare.)
func TestContractObjectiveBuilder(t *testing.T) {
	app := newTestApp(t)
	ctx := context.Background()
	id, _ := app.store.CreateReport(ctx, app.users["lead"], "R")
	lead := app.client("lead")
	base := fmt.Sprintf("%s/reports/%d", app.srv.URL, id)

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
