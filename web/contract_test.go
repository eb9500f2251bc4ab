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

// contractValues is a complete contract as the form posts it.
func contractValues(version int) url.Values {
	return url.Values{
		"version":                {fmt.Sprint(version)},
		"environment":            {"staging"},
		"service":                {"support chat"},
		"release_revision":       {"r1"},
		"baseline_model":         {"meta-llama/Llama-3.1-8B-Instruct"},
		"artifact":               {"llama bf16"},
		"artifact_hash":          {"sha256:abc"},
		"vllm_version":           {"v0.11.0"},
		"benchmark_tool":         {"guidellm"},
		"tool_version":           {"0.5.0"},
		"driver":                 {"570"},
		"device":                 {"H100"},
		"device_memory_gib":      {"80"},
		"host":                   {"gpu-1"},
		"test_date":              {"2026-11-20"},
		"workload.prompt_tokens": {"512"},
		"workload.output_tokens": {"256"},
		"workload.data":          {"synthetic"},
		"workload.prompts":       {"varied"},
		"load_kind":              {"concurrency"},
		"loads":                  {"1, 2, 4, 8, 10"},
		"row_duration_s":         {"60"},
		"stop_after_errors":      {"5"},
		"objective.percentile":   {"95"},
		"objective.min_success":  {"99"},
		"objective.ttft_max_s":   {"2"},
		"objective.e2e_max_s":    {"15"},
		"objective.min_headroom": {"10"},
		"objective.no_oom":       {"1"},
		"admission_proposal":     {"max 8 in flight"},
		"rollback":               {"revert route"},
		"owners.test_owner":      {"Ann"},
		"owners.observer":        {"Bob"},
		"owners.stop_authority":  {"Ann"},
		"owners.window":          {"09:00-11:00"},
	}
}

func TestContractValidationNamesFieldAndRule(t *testing.T) {
	app := newTestApp(t)
	id, _ := app.store.CreateReport(context.Background(), app.users["lead"], "R")
	lead := app.client("lead")
	cases := []struct {
		field, value, want string
	}{
		{"loads", "1, 4, 2", "rows must be increasing"},
		{"loads", "1, -2", "must be a positive number"},
		{"loads", "1, x", "must be numbers separated by commas"},
		{"objective.percentile", "120", "between 0 and 100"},
		{"objective.min_success", "101", "between 0 % and 100 %"},
		{"objective.ttft_max_s", "-1", "positive"},
		{"objective.e2e_max_s", "abc", "must be a number"},
		{"workload.prompt_tokens", "1.5", "whole number"},
		{"test_date", "20/11/2026", "YYYY-MM-DD"},
	}
	for _, tc := range cases {
		t.Run(tc.field+"="+tc.value, func(t *testing.T) {
			form := contractValues(1)
			form.Set(tc.field, tc.value)
			res, body := do(t, lead, "POST", fmt.Sprintf("%s/reports/%d/contract", app.srv.URL, id), form)
			if res.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("status %d, want 422", res.StatusCode)
			}
			if !strings.Contains(body, `data-testid="err-`+tc.field+`"`) || !strings.Contains(body, tc.want) {
				t.Errorf("body does not name %s with %q", tc.field, tc.want)
			}
			r, _ := app.store.Report(context.Background(), id)
			if r.Version != 1 {
				t.Errorf("a refused save changed the report: version %d", r.Version)
			}
		})
	}
}

func TestContractFreezeAmendAndHistory(t *testing.T) {
	app := newTestApp(t)
	ctx := context.Background()
	id, _ := app.store.CreateReport(ctx, app.users["lead"], "R")
	lead := app.client("lead")
	base := fmt.Sprintf("%s/reports/%d", app.srv.URL, id)

	// An incomplete contract cannot be frozen.
	if res, body := do(t, lead, "POST", base+"/freeze", url.Values{"version": {"1"}, "confirm": {"1"}}); res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "fill in") {
		t.Fatalf("freeze of an empty contract: %d", res.StatusCode)
	}
	if res, _ := do(t, lead, "POST", base+"/contract", contractValues(1)); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: %d", res.StatusCode)
	}
	if res, body := do(t, lead, "POST", base+"/freeze", url.Values{"version": {"2"}}); res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "Confirm the freeze") {
		t.Fatalf("freeze without confirmation: %d", res.StatusCode)
	}
	if res, _ := do(t, lead, "POST", base+"/freeze", url.Values{"version": {"2"}, "confirm": {"1"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("freeze: %d", res.StatusCode)
	}
	r, _ := app.store.Report(ctx, id)
	if !r.Frozen() || r.FrozenBy != "lead" {
		t.Fatalf("frozen=%v by %q", r.Frozen(), r.FrozenBy)
	}

	// After the freeze, loosening the objective needs a reason.
	form := contractValues(r.Version)
	form.Set("objective.e2e_max_s", "20")
	res, body := do(t, lead, "POST", base+"/contract", form)
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, `data-testid="err-reason"`) {
		t.Fatalf("amendment without reason: status %d", res.StatusCode)
	}
	// Pretend results exist, so the loosening must be shown to every reader.
	seedRows(t, app.store, id, app.users["lead"].ID)
	r, _ = app.store.Report(ctx, id)
	form = contractValues(r.Version)
	form.Set("objective.e2e_max_s", "20")
	form.Set("reason", "users accept 20 s for long answers")
	if res, _ := do(t, lead, "POST", base+"/contract", form); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("amend: %d", res.StatusCode)
	}
	ams, _ := app.store.Amendments(ctx, id)
	if len(ams) != 1 || ams[0].Field != "objective" || !ams[0].Loosened || !ams[0].ResultsExisted {
		t.Fatalf("amendments = %+v", ams)
	}
	if !strings.Contains(ams[0].Old, "e2e_p95<=15s") || !strings.Contains(ams[0].New, "e2e_p95<=20s") {
		t.Errorf("old/new = %q / %q", ams[0].Old, ams[0].New)
	}
	// Every reader sees the amendment, the loosened mark and the history.
	for _, who := range []string{"reviewer", "finance", "lead2"} {
		_, page := do(t, app.client(who), "GET", base+"/print", nil)
		for _, want := range []string{`data-testid="loosened"`, "users accept 20 s", "contract amended", "end-to-end at most: 15 → 20"} {
			if !strings.Contains(strings.ToLower(page), strings.ToLower(want)) {
				t.Errorf("%s does not see %q", who, want)
			}
		}
	}
}

func TestStaleSaveIsRefusedWithWhatChanged(t *testing.T) {
	app := newTestApp(t)
	ctx := context.Background()
	id, _ := app.store.CreateReport(ctx, app.users["lead"], "R")
	app.store.SetEditors(ctx, store.Edit{ReportID: id, BaseVersion: 1, UserID: app.users["lead"].ID, Action: "editors changed"}, []int64{app.users["lead2"].ID})
	base := fmt.Sprintf("%s/reports/%d", app.srv.URL, id)

	// Both open the form at version 2; lead saves first.
	first := contractValues(2)
	first.Set("host", "gpu-first")
	if res, _ := do(t, app.client("lead"), "POST", base+"/contract", first); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("first save: %d", res.StatusCode)
	}
	second := contractValues(2)
	second.Set("host", "gpu-second")
	res, body := do(t, app.client("lead2"), "POST", base+"/contract", second)
	if res.StatusCode != http.StatusConflict {
		t.Fatalf("stale save: status %d, want 409", res.StatusCode)
	}
	if !strings.Contains(body, `data-testid="conflict"`) || !strings.Contains(body, "Host: gpu-first") || !strings.Contains(body, `value="gpu-second"`) {
		t.Errorf("conflict page must show what changed and keep the user's input")
	}
	r, _ := app.store.Report(ctx, id)
	if r.Contract.Host != "gpu-first" {
		t.Errorf("host = %q: the stale save overwrote the first", r.Contract.Host)
	}
}

func TestHTMXContractSaveSwapsSectionAndHistory(t *testing.T) {
	app := newTestApp(t)
	id, _ := app.store.CreateReport(context.Background(), app.users["lead"], "R")
	res, body := do(t, app.client("lead"), "POST", fmt.Sprintf("%s/reports/%d/contract", app.srv.URL, id), contractValues(1), "HX-Request", "true")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d", res.StatusCode)
	}
	if strings.Contains(body, "<html") || !strings.Contains(body, `id="contract"`) || !strings.Contains(body, `hx-swap-oob="true"`) {
		t.Errorf("htmx save must answer the section partial with the history out of band:\n%.400s", body)
	}
	if got := res.Header.Get("X-Report-Version"); got != "2" {
		t.Errorf("X-Report-Version = %q, want 2: other forms on the page would save as stale", got)
	}
	if !strings.Contains(res.Header.Get("Vary"), "HX-Request") {
		t.Errorf("Vary = %q", res.Header.Get("Vary"))
	}
}

// seedRows imports one small row directly, for tests that need results.
func seedRows(t testing.TB, st *store.Store, reportID, userID int64) {
	t.Helper()
	ctx := context.Background()
	r, err := st.Report(ctx, reportID)
	if err != nil {
		t.Fatal(err)
	}
	row := planner.Row{LoadKind: planner.LoadConcurrency, Load: planner.F(1), Successful: planner.I(100), Errored: planner.I(0),
		Source: planner.Source{File: "seed.json", SHA256: fmt.Sprintf("%064d", reportID), Format: "guidellm"}}
	_, err = st.AddImport(ctx, store.Edit{ReportID: reportID, BaseVersion: r.Version, UserID: userID, Action: "imported seed.json", Section: "imports"},
		store.Import{FileName: "seed.json", SHA256: row.Source.SHA256, Format: "guidellm", SizeBytes: 1}, []planner.Row{row})
	if err != nil {
		t.Fatal(err)
	}
}

func TestRefusedContractKeepsWhatWasTyped(t *testing.T) {
	app := newTestApp(t)
	id, _ := app.store.CreateReport(context.Background(), app.users["lead"], "R")
	form := builderValues(1)
	form.Set(planner.ObjectiveBoundKey(0, "percentile"), "abc")
	form.Set("device_memory_gib", "eighty")
	form.Set("loads", "10, 4, x")
	_, body := do(t, app.client("lead"), "POST", fmt.Sprintf("%s/reports/%d/contract", app.srv.URL, id), form)
	for _, want := range []string{`value="abc"`, `value="eighty"`, `value="10, 4, x"`, `value="gpu-1"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the refused form lost %s", want)
		}
	}
}
