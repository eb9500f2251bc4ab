package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/store"
)

// postEvidence sends an evidence form: its fields, then the file.
func postEvidence(t testing.TB, c *http.Client, u string, fields map[string]string, name string, data []byte) (*http.Response, string) {
	t.Helper()
	return postEvidenceFiles(t, c, u, fields, upload{name: name, data: data})
}

// postEvidenceFiles is postEvidence with several files in the one file
// input.
func postEvidenceFiles(t testing.TB, c *http.Client, u string, fields map[string]string, files ...upload) (*http.Response, string) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		mw.WriteField(k, fields[k])
	}
	for _, f := range files {
		w, _ := mw.CreateFormFile("file", f.name)
		w.Write(f.data)
	}
	mw.Close()
	req, _ := http.NewRequest(http.MethodPost, u, &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// demoReport seeds the demo and returns its report.
func demoReport(t testing.TB, app *testApp) store.Report {
	t.Helper()
	if _, err := app.store.CreateUser(context.Background(), "admin", "Admin", store.RoleAdmin, testPassword); err != nil {
		t.Fatal(err)
	}
	if err := SeedDemo(context.Background(), app.store, t.TempDir()); err != nil {
		t.Fatal(err)
	}
	reports, err := app.store.Reports(context.Background())
	if err != nil || len(reports) != 1 {
		t.Fatalf("reports %v %v", reports, err)
	}
	return reports[0]
}

func apiResult(t testing.TB, app *testApp, id int64) planner.Result {
	t.Helper()
	ctx := context.Background()
	rep, err := reports.New(app.store, "", time.Now).Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return rep.Result
}

// The demo carries telemetry, a soak with drains and a two-tenant
// showback; the JSON API serves them. (Tokens per joule as the page shows
// them: web/view's TestTokensPerJouleShowTheirExactValue.)
func TestDemoEvidenceInAPI(t *testing.T) {
	app := newTestApp(t)
	r := demoReport(t, app)
	res := apiResult(t, app, r.ID)
	if !res.Telemetry.Present || res.Telemetry.RowsCovered != 5 || res.Telemetry.FlatUtilisation == "" {
		t.Errorf("telemetry = %+v", res.Telemetry)
	}
	for _, m := range res.Matrix {
		if m.PowerWattsMean == nil || !strings.HasPrefix(m.PowerWattsSource, "telemetry: ") || m.MemoryHeadroom == nil || !strings.HasPrefix(m.MemoryHeadroomSource, "telemetry: ") {
			t.Errorf("row %v: power %v (%s), headroom %v (%s)", m.Load, m.PowerWattsMean, m.PowerWattsSource, m.MemoryHeadroom, m.MemoryHeadroomSource)
		}
		if m.Load == 8 && (*m.PowerWattsMean < 639.999 || *m.PowerWattsMean > 640.001 || *m.MemoryHeadroom < 0.126 || *m.MemoryHeadroom > 0.127) {
			t.Errorf("ceiling row: %v W, %v headroom", *m.PowerWattsMean, *m.MemoryHeadroom)
		}
	}
	// Soak: 12,900 requests - 1,030 429s - 2 failed = 11,868 successes.
	if s := res.Soak; !s.Present || s.Successes != 11868 || s.Failures != 2 || s.Rejected429 != 1030 || !s.NoInFlightLoss || len(s.Drains) != 3 {
		t.Errorf("soak = %+v", s)
	}
	if len(res.Showback) != 3 || len(res.Showback[0].Tenants) != 2 {
		t.Fatalf("showback = %+v", res.Showback)
	}

	// The same through the HTTP API with a token.
	tok, err := app.store.CreateAPIToken(context.Background(), app.users["reviewer"].ID, "test")
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/api/v1/reports/%d", app.srv.URL, r.ID), nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	hres, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer hres.Body.Close()
	var doc struct {
		Result struct {
			Soak struct {
				Successes    int64    `json:"successes"`
				Failures     int64    `json:"failures"`
				Rejected429  int64    `json:"rejected_429"`
				Availability *float64 `json:"availability"`
			} `json:"soak"`
			Showback []struct {
				Meter   string `json:"meter"`
				Tenants []struct {
					Tenant string  `json:"tenant"`
					Share  float64 `json:"share"`
				} `json:"tenants"`
			} `json:"showback"`
			Matrix []struct {
				PowerWattsMean       *float64 `json:"power_watts_mean"`
				PowerWattsSource     string   `json:"power_watts_source"`
				MemoryHeadroom       *float64 `json:"memory_headroom"`
				MemoryHeadroomSource string   `json:"memory_headroom_source"`
			} `json:"matrix"`
		} `json:"result"`
	}
	if err := json.NewDecoder(hres.Body).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	s := doc.Result.Soak
	if s.Successes != 11868 || s.Failures != 2 || s.Rejected429 != 1030 || s.Availability == nil || *s.Availability != 11868.0/11870 {
		t.Errorf("API soak = %+v", s)
	}
	var sum float64
	for _, ts := range doc.Result.Showback[2].Tenants {
		sum += ts.Share
	}
	if doc.Result.Showback[2].Meter != "time-share" || sum < 0.999999 || sum > 1.000001 {
		t.Errorf("API showback = %+v", doc.Result.Showback)
	}
	if m := doc.Result.Matrix[0]; m.PowerWattsMean == nil || m.PowerWattsSource != "telemetry: nvidia-smi-demo.csv" || m.MemoryHeadroomSource != "telemetry: nvidia-smi-demo.csv" {
		t.Errorf("API matrix row = %+v", m)
	}
}

// An upload goes through the importer into the report; a bad file is
// refused with its name and changes nothing.
func TestEvidenceUpload(t *testing.T) {
	app := newTestApp(t)
	r := frozenReport(t, app)
	lead := app.client("lead")
	base := fmt.Sprintf("%s/reports/%d/evidence/", app.srv.URL, r.ID)

	soak, err := os.ReadFile("../importers/testdata/soak_hours.md")
	if err != nil {
		t.Fatal(err)
	}
	res, body := postEvidence(t, lead, base+"soak", map[string]string{"version": fmt.Sprint(r.Version)}, "soak.md", soak)
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("soak: %d\n%s", res.StatusCode, body)
	}
	got := apiResult(t, app, r.ID).Soak
	if got.Successes != 40827 || got.Failures != 3 || len(got.Drains) != 2 {
		t.Errorf("soak = %+v", got)
	}

	// A usage log that is not one: 422 naming the file, the soak untouched.
	r, _ = app.store.Report(context.Background(), r.ID)
	res, body = postEvidence(t, lead, base+"showback", map[string]string{"version": fmt.Sprint(r.Version), "step_ms": "50"}, "usage.csv", []byte("who,when\nx,1\n"))
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "usage.csv: line 1: not a usage log") {
		t.Errorf("bad usage: %d %s", res.StatusCode, testid(body, "evidence-error-showback"))
	}
	if res := apiResult(t, app, r.ID); len(res.Showback) != 0 || res.Soak.Successes != 40827 {
		t.Errorf("a refused file changed the report: %+v", res.Showback)
	}

	// Telemetry needs rows to align with.
	smi, _ := os.ReadFile("../importers/testdata/nvidia_smi_h100.csv")
	res, body = postEvidence(t, lead, base+"telemetry", map[string]string{"version": fmt.Sprint(r.Version), "start": "2026-11-28T14:00:00"}, "smi.csv", smi)
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "import the load test") {
		t.Errorf("telemetry without rows: %d", res.StatusCode)
	}

	// Traffic, then accept its scenarios.
	traffic, _ := os.ReadFile("../importers/testdata/traffic_hourly.csv")
	res, _ = postEvidence(t, lead, base+"demand", map[string]string{"version": fmt.Sprint(r.Version)}, "traffic.csv", traffic)
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("demand: %d", res.StatusCode)
	}
	r, _ = app.store.Report(context.Background(), r.ID)
	res, _ = do(t, lead, http.MethodPost, base+"demand/accept", map[string][]string{"version": {fmt.Sprint(r.Version)}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("accept: %d", res.StatusCode)
	}
	in := apiResult(t, app, r.ID)
	if len(in.Scenarios) != 3 || in.Scenarios[1].Scenario.MonthlyRequests != 855287 { // 855,286.25 rounded up: demand rounds up
		t.Errorf("scenarios = %+v", in.Scenarios)
	}
	// The accepted shares reach the scenarios' form by the display rule
	// (six significant figures), never as the float the log's division
	// made; the form, the scenarios' table and the demand part show
	// nothing raw.
	_, page := do(t, lead, http.MethodGet, fmt.Sprintf("%s/reports/%d/print", app.srv.URL, r.ID), nil)
	for i, sc := range in.Scenarios {
		share := sc.Scenario.BusyHourShare
		if share == 0 {
			t.Fatalf("scenario %s has no busy-hour share: %+v", sc.Scenario.Name, sc.Scenario)
		}
		field := fmt.Sprintf(`name="scenarios[%d].busy_hour" value="%s"`, i, planner.DisplayInput(share))
		if !strings.Contains(page, field) {
			t.Errorf("the form lacks %s (share %v)", field, share)
		}
	}
	for _, part := range []string{upTo(page, "scenario-form", "</form>"), upTo(page, "scenario-table", "</table>"), upTo(page, "demand", "</dl>")} {
		if part == "" {
			t.Fatal("the page lacks the scenarios' form, table or the demand part")
		}
		for _, raw := range rawFloatsIn(visibleText(part)) {
			t.Errorf("raw float after accepting production demand: %q", raw)
		}
	}
	// A reviewer may not import.
	res, _ = postEvidence(t, app.client("reviewer"), base+"soak", nil, "soak.md", soak)
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("reviewer import: %d", res.StatusCode)
	}
}

// NaN and +Inf are valid in a DCGM scrape: the import skips them, says how
// many in its message, and the report (page and API) still renders.
func TestEvidenceDCGMNaN(t *testing.T) {
	app := newTestApp(t)
	r := demoReport(t, app)
	lead := app.client("admin")
	start := DemoTelemetryStart().Add(40 * time.Second)
	var b strings.Builder
	for i := range 120 {
		ms := start.Add(time.Duration(i) * time.Second).UnixMilli()
		power := "550"
		if i%10 == 3 {
			power = "NaN"
		}
		if i%10 == 7 {
			power = "+Inf"
		}
		fmt.Fprintf(&b, "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\"} %s %d\nDCGM_FI_DEV_GPU_TEMP{gpu=\"0\"} NaN %d\nDCGM_FI_DEV_GPU_UTIL{gpu=\"0\"} 97 %d\n", power, ms, ms, ms)
	}
	base := fmt.Sprintf("%s/reports/%d/evidence/", app.srv.URL, r.ID)
	res, body := postEvidence(t, lead, base+"telemetry", map[string]string{"version": fmt.Sprint(r.Version), "start": DemoTelemetryStart().Format("2006-01-02T15:04:05")}, "dcgm.prom", []byte(b.String()))
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("DCGM with NaN: %d\n%s", res.StatusCode, body)
	}
	_, page := do(t, lead, http.MethodGet, app.srv.URL+res.Header.Get("Location"), nil)
	if !strings.Contains(page, "144 readings were NaN or infinite and were skipped") {
		t.Errorf("the page does not tell the skipped readings: %s", testid(page, "flash"))
	}
	if tel := apiResult(t, app, r.ID).Telemetry; tel.Source != "dcgm.prom" || tel.RowsCovered == 0 {
		t.Errorf("telemetry = %+v", tel)
	}
}

// AIPerf's GPU telemetry export, gpu_telemetry_export.jsonl, is a GPU log
// like nvidia-smi's: uploaded on the evidence page, its samples give the
// demo's rows their measured power, said where shown.
func TestEvidenceAIPerfGPUTelemetry(t *testing.T) {
	app := newTestApp(t)
	r := demoReport(t, app)
	lead := app.client("admin")
	var b strings.Builder
	for i := range 600 {
		at := DemoTelemetryStart().Add(time.Duration(i) * time.Second)
		fmt.Fprintf(&b, `{"timestamp_ns":%d,"dcgm_url":"http://localhost:9401/metrics","gpu_index":0,"gpu_uuid":"GPU-5e1f","gpu_model_name":"NVIDIA H100 80GB HBM3","hostname":"gpu-01","telemetry_data":{"gpu_power_usage":612.5,"energy_consumption":%d.0,"gpu_utilization":96.0,"gpu_memory_used":70.5,"gpu_temperature":61.0}}`+"\n", at.UnixNano(), i)
	}
	base := fmt.Sprintf("%s/reports/%d/evidence/", app.srv.URL, r.ID)
	res, body := postEvidence(t, lead, base+"telemetry", map[string]string{"version": fmt.Sprint(r.Version), "start": DemoTelemetryStart().Format("2006-01-02T15:04:05")}, "gpu_telemetry_export.jsonl", []byte(b.String()))
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("AIPerf GPU telemetry: %d\n%s", res.StatusCode, body)
	}
	got := apiResult(t, app, r.ID)
	if got.Telemetry.Source != "gpu_telemetry_export.jsonl" || got.Telemetry.RowsCovered == 0 {
		t.Fatalf("telemetry = %+v", got.Telemetry)
	}
	measured := 0
	for _, m := range got.Matrix {
		if pw := m.Row.Measured(); pw.PowerWatts != nil && *pw.PowerWatts == 612.5 && pw.PowerSource != planner.SourceTyped {
			measured++
		}
	}
	if measured == 0 {
		t.Errorf("no row took its power from the AIPerf log: %+v", got.Telemetry)
	}
	// Uploaded as a result instead, it is refused with where it belongs.
	r, _ = app.store.Report(context.Background(), r.ID)
	res, body = postFiles(t, lead, fmt.Sprintf("%s/reports/%d/imports", app.srv.URL, r.ID), r.Version, false, upload{"gpu_telemetry_export.jsonl", []byte(b.String())})
	if res.StatusCode == http.StatusSeeOther || !strings.Contains(body, "AIPerf&#39;s GPU telemetry export") {
		t.Errorf("as a result: %d %s", res.StatusCode, body)
	}
}

// AIPerf's server_metrics_export.json, uploaded with its run's result,
// gives that row what the engine reported: the matrix warns of the
// preemptions and the full KV cache, and the export is not an import of
// its own. Alone it is refused, saying what to upload with it.
func TestImportAIPerfServerMetrics(t *testing.T) {
	app := newTestApp(t)
	r := frozenReport(t, app)
	lead := app.client("lead")
	result, err := os.ReadFile("../importers/testdata/aiperf_0.2.json")
	if err != nil {
		t.Fatal(err)
	}
	metrics := `{"schema_version": "1.0", "aiperf_version": "0.8.0", "benchmark_id": null,
	 "summary": {"endpoints_configured": ["http://localhost:8000/metrics"], "endpoints_successful": ["http://localhost:8000/metrics"]},
	 "metrics": {"vllm:kv_cache_usage_perc": {"type": "gauge", "series": [{"endpoint_url": "http://localhost:8000/metrics", "stats": {"avg": 0.6, "max": 0.98}}]},
	  "vllm:num_preemptions": {"type": "counter", "series": [{"endpoint_url": "http://localhost:8000/metrics", "stats": {"total": 12.0, "rate": 0.2}}]}}}`
	u := fmt.Sprintf("%s/reports/%d/imports", app.srv.URL, r.ID)
	res, body := postFiles(t, lead, u, r.Version, true, upload{"server_metrics_export.json", []byte(metrics)})
	if res.StatusCode == http.StatusCreated || !strings.Contains(body, "upload it together with the run&#39;s profile_export_aiperf.json") {
		t.Errorf("alone: %d %.400s", res.StatusCode, body)
	}
	res, body = postFiles(t, lead, u, r.Version, true, upload{"profile_export_aiperf.json", result}, upload{"server_metrics_export.json", []byte(metrics)})
	if res.StatusCode != http.StatusCreated || !strings.Contains(body, "Added 1 row from 1 file.") {
		t.Fatalf("with its result: %d %.600s", res.StatusCode, body)
	}
	got := apiResult(t, app, r.ID)
	if len(got.Matrix) != 1 || got.Matrix[0].Row.Engine == nil || *got.Matrix[0].Row.Engine.Preemptions != 12 {
		t.Fatalf("matrix %+v", got.Matrix)
	}
	_, page := do(t, lead, http.MethodGet, fmt.Sprintf("%s/reports/%d/print", app.srv.URL, r.ID), nil)
	m := sectionOf(page, "matrix")
	if !strings.Contains(m, "the engine preempted 12 requests during the run (server_metrics_export.json)") || !strings.Contains(m, "the KV cache reached 98") {
		t.Errorf("the matrix does not say what the engine reported: %.2000s", m)
	}
	ims, err := app.store.Imports(context.Background(), r.ID)
	if err != nil || len(ims) != 1 || ims[0].FileName != "profile_export_aiperf.json" {
		t.Errorf("imports %+v (%v): the export is not an import of its own", ims, err)
	}
}
