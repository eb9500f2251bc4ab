package importers

import (
	"strings"
	"testing"

	"capplan/planner"
)

// TestGuideLLMKnee: a run of GuideLLM's knee profile is a concurrency
// sweep; the knee its conclusion found is marked on the first measured
// level at or above it; a run without a conclusion, or with no knee,
// says so.
func TestGuideLLMKnee(t *testing.T) {
	raw := string(mustRead(t, "testdata/guidellm_e_knee.json"))
	f, err := Parse("benchmarks.json", strings.NewReader(raw), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Rows) != 5 || !strings.Contains(f.Source.FormatVersion, "knee profile") {
		t.Fatalf("%d rows, format %q", len(f.Rows), f.Source.FormatVersion)
	}
	for i, want := range []float64{1, 4, 16, 32, 64} {
		r := f.Rows[i]
		if r.LoadKind != planner.LoadConcurrency || *r.Load != want {
			t.Errorf("row %d: %s %v, want concurrency %g", i, r.LoadKind, *r.Load, want)
		}
		if hasCode(r.Warnings, "knee") != (i == 3) {
			t.Errorf("row %d knee mark: %v", i, r.Warnings)
		}
	}
	if !strings.Contains(f.Rows[3].Paths["knee"], "conclusions[0]") {
		t.Errorf("knee path %q", f.Rows[3].Paths["knee"])
	}
	var said string
	for _, w := range f.Warnings {
		if w.Code == "knee" {
			said = w.Message
		}
	}
	if !strings.Contains(said, "flattening at about 19.6 concurrent streams") || !strings.Contains(said, "marked on row 3 (32 streams)") {
		t.Errorf("file says %q", said)
	}

	none := strings.Replace(raw, `"status":"ok","reason":"A rising segment followed by a substantially flatter tail was detected","knee":19.6,"saturation_concurrency":32.0,"breakpoint_concurrency":16.0,"pre_slope":1.31,"tail_slope":0.05,"slope_ratio":0.038,"fit_improvement":0.93,"throughput_fraction":0.87},"saturation":{"status":"unavailable","reason":"The benchmarks contain no over-saturation detector metadata","points":[{"concurrency":1.0,"is_over_saturated":null},{"concurrency":4.0,"is_over_saturated":null},{"concurrency":16.0,"is_over_saturated":null},{"concurrency":32.0,"is_over_saturated":null},{"concurrency":64.0,"is_over_saturated":null}]},"assessment":{"status":"throughput_only","reason":"Only the throughput knee is available","selection_center":19.6}}}`,
		`"status":"no_knee","reason":"The throughput curve is approximately linear"}}}`, 1)
	if none == raw {
		t.Fatal("fixture changed: the final analysis was not found")
	}
	f, err = Parse("benchmarks.json", strings.NewReader(none), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !hasCode(f.Warnings, "knee-none") || !strings.Contains(f.Warnings[len(f.Warnings)-1].Message, "approximately linear") {
		t.Errorf("no knee: %v", f.Warnings)
	}
	bare := strings.Replace(raw, `"conclusions":[{"kind":"knee_detection"`, `"conclusions":[],"conclusions_":[{"kind":"knee_detection"`, 1)
	if bare == raw {
		t.Fatal("fixture changed: no conclusions")
	}
	f, err = Parse("benchmarks.json", strings.NewReader(bare), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !hasCode(f.Warnings, "knee-unknown") {
		t.Errorf("no conclusion: %v", f.Warnings)
	}
	for _, r := range f.Rows {
		if hasCode(r.Warnings, "knee") {
			t.Errorf("a knee marked without a conclusion")
		}
	}
}

// TestGuideLLMServerMetrics: what GuideLLM's server-metrics collector
// scraped from vLLM over each benchmark (Prometheus gauges' summaries and
// counters' increases) becomes the row's engine figures, each with its
// path; a source never scraped says so.
func TestGuideLLMServerMetrics(t *testing.T) {
	raw := string(mustRead(t, "testdata/guidellm_e_server_metrics.json"))
	f, err := Parse("benchmarks.json", strings.NewReader(raw), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Rows) != 2 || f.Rows[0].Engine == nil || f.Rows[1].Engine == nil {
		t.Fatalf("%d rows, engine figures %v", len(f.Rows), f.Rows)
	}
	e := f.Rows[1].Engine
	checkF(t, "kv cache max", e.KVCacheMax, 0.97)
	checkF(t, "waiting max", e.WaitingMax, 7)
	checkF(t, "running max", e.RunningMax, 9)
	checkF(t, "preemptions", e.Preemptions, 12)
	if e.Source != "benchmarks.json" || f.Rows[1].Paths["engine.kv_cache_max"] != "benchmarks[1].server_metrics[0].gauges.vllm:kv_cache_usage_perc[0].summary.max" {
		t.Errorf("source %q, path %q", e.Source, f.Rows[1].Paths["engine.kv_cache_max"])
	}
	checkF(t, "row 0 preemptions", f.Rows[0].Engine.Preemptions, 0)
	failed := strings.Replace(raw, `"scrapes":22,"scrape_errors":0,"gauges":{`, `"scrapes":0,"scrape_errors":22,"gauges":{},"gauges_":{`, 1)
	failed = strings.Replace(failed, `"counters":{"vllm:prompt_tokens":[{"labels":{"engine":"0","model_name":"Qwen/Qwen3-8B"},"increase":4096.0`, `"counters":{},"counters_":{"vllm:prompt_tokens":[{"labels":{"engine":"0","model_name":"Qwen/Qwen3-8B"},"increase":4096.0`, 1)
	f, err = Parse("benchmarks.json", strings.NewReader(failed), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if f.Rows[0].Engine != nil || !hasCode(f.Rows[0].Warnings, "server-metrics-failed") {
		t.Errorf("a collector that never scraped: engine %v, warnings %v", f.Rows[0].Engine, f.Rows[0].Warnings)
	}
	bad := strings.Replace(raw, `"max":0.24`, `"max":1.7`, 1)
	if bad == raw {
		t.Fatal("fixture changed: no kv max of 0.24")
	}
	if _, err := Parse("benchmarks.json", strings.NewReader(bad), Options{}); err == nil || !strings.Contains(err.Error(), "vllm:kv_cache_usage_perc[0].summary.max: 1.7") {
		t.Errorf("a KV-cache usage above 1: %v", err)
	}
}
