package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"capplan/web/store"
)

// benchQwenSanity is a 4-request GuideLLM run of another model (Qwen3-4B,
// 1,024 output tokens at concurrency 4): off the demo's contract on every
// count.
const benchQwenSanity = "../../shared/benchmarks/guidellm/danielkorat__guidellm-bench__sanity_Qwen_Qwen3-4B-Thinking-2507_tp4_quant-fp8_benchmarks.json"

// seedDemoInto seeds the demo report into the app's database (its owner is
// an "admin" account made for it) and returns the report.
func seedDemoInto(t *testing.T, app *testApp) store.Report {
	t.Helper()
	ctx := context.Background()
	if _, err := app.store.CreateUser(ctx, "admin", "Demo admin", store.RoleAdmin, testPassword); err != nil {
		t.Fatal(err)
	}
	if err := SeedDemo(ctx, app.store, t.TempDir()); err != nil {
		t.Fatal(err)
	}
	reports, err := app.store.Reports(ctx)
	if err != nil || len(reports) != 1 {
		t.Fatalf("reports %v %v", reports, err)
	}
	return reports[0]
}

// apiGet fetches path with a bearer token and decodes the JSON answer.
func apiGet(t *testing.T, app *testApp, token, path string, into any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, app.srv.URL+path, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: status %d", path, res.StatusCode)
	}
	if err := json.NewDecoder(res.Body).Decode(into); err != nil {
		t.Fatal(err)
	}
}

// TestOffContractFileLeavesTheDemoCeiling: pushing the 4-request Qwen file
// into the demo report (Llama-3.1-8B, 512/256 tokens) leaves the ceiling at
// 8 streams, max in flight at 8 and the capacity as it was; the row is in
// the API with counted false and its reasons, after the counted rows.
func TestOffContractFileLeavesTheDemoCeiling(t *testing.T) {
	app := newTestApp(t)
	r := seedDemoInto(t, app)
	ctx := context.Background()
	tok, err := app.store.CreateAPIToken(ctx, app.users["admin"].ID, "ci")
	if err != nil {
		t.Fatal(err)
	}
	type apiRow struct {
		Load       float64 `json:"load"`
		Counted    bool    `json:"counted"`
		NotCounted []struct {
			Code, Message string
		} `json:"not_counted"`
		Row struct {
			Model string `json:"model"`
		} `json:"row"`
	}
	var got struct {
		Result struct {
			Matrix   []apiRow `json:"matrix"`
			Envelope struct {
				Ceiling     *float64  `json:"ceiling"`
				NonMonotone []float64 `json:"non_monotone"`
				Text        string    `json:"text"`
			} `json:"envelope"`
			Admission struct {
				MaxInFlight *int `json:"max_in_flight"`
			} `json:"admission"`
			Capacity struct {
				PerBoxRate *float64 `json:"per_box_rate"`
			} `json:"capacity"`
		} `json:"result"`
	}
	path := fmt.Sprintf("/api/v1/reports/%d", r.ID)
	apiGet(t, app, tok, path, &got)
	before := *got.Result.Capacity.PerBoxRate

	data, err := os.ReadFile(benchQwenSanity)
	if err != nil {
		t.Fatal(err)
	}
	res, body := apiPost(t, app, tok, fmt.Sprintf("/api/v1/reports/%d/results?name=qwen.json", r.ID), "application/json", data)
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("import: %d %s", res.StatusCode, body)
	}
	got.Result.Matrix = nil
	apiGet(t, app, tok, path, &got)
	res2 := got.Result
	if res2.Envelope.Ceiling == nil || *res2.Envelope.Ceiling != 8 || len(res2.Envelope.NonMonotone) != 0 {
		t.Errorf("envelope %+v", res2.Envelope)
	}
	if res2.Admission.MaxInFlight == nil || *res2.Admission.MaxInFlight != 8 {
		t.Errorf("max in flight %v", res2.Admission.MaxInFlight)
	}
	if res2.Capacity.PerBoxRate == nil || *res2.Capacity.PerBoxRate != before {
		t.Errorf("capacity %v, was %v", res2.Capacity.PerBoxRate, before)
	}
	if len(res2.Matrix) != 6 {
		t.Fatalf("%d rows", len(res2.Matrix))
	}
	for _, rr := range res2.Matrix[:5] {
		if !rr.Counted || len(rr.NotCounted) != 0 {
			t.Errorf("demo row at %v not counted: %+v", rr.Load, rr.NotCounted)
		}
	}
	q := res2.Matrix[5]
	var reasons []string
	for _, w := range q.NotCounted {
		reasons = append(reasons, w.Message)
	}
	all := strings.Join(reasons, "; ")
	if q.Counted || !strings.Contains(q.Row.Model, "Qwen") || !strings.Contains(all, "not the contract's meta-llama/Llama-3.1-8B-Instruct") ||
		!strings.Contains(all, "mean output tokens 1024 vs the contract's 256 (+300 %") || !strings.Contains(all, "p95 TTFT: no 95 % upper bound from 4 requests (a p95 needs 59)") {
		t.Errorf("the Qwen row: counted %v, reasons %q", q.Counted, reasons)
	}

	// The page shows it, marked.
	_, page := do(t, app.client("reviewer"), http.MethodGet, app.srv.URL+fmt.Sprintf("/reports/%d/print", r.ID), nil)
	if strings.Count(page, `data-testid="not-counted"`) != 1 || !strings.Contains(page, "no 95 % upper bound from 4 requests") {
		t.Errorf("the page does not mark the Qwen row not counted")
	}
}
