package importers

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// serverMetricsExport writes an AIPerf server_metrics_export.json of one
// run: vLLM's KV-cache usage, requests waiting and running, preemptions,
// and a metric not read.
func serverMetricsExport(id string, kvMax, waitMax, preempt float64) string {
	series := func(stats string) string {
		return fmt.Sprintf(`[{"endpoint_url": "http://localhost:8000/metrics", "labels": {"engine": "0", "model_name": "Qwen/Qwen3-8B"}, "stats": {%s}}]`, stats)
	}
	return fmt.Sprintf(`{"schema_version": "1.0", "aiperf_version": "0.8.0", "benchmark_id": %q,
 "summary": {"endpoints_configured": ["http://localhost:8000/metrics"], "endpoints_successful": ["http://localhost:8000/metrics"],
   "start_time": "2026-11-28T14:00:00.000000", "end_time": "2026-11-28T14:01:00.000000",
   "endpoint_info": {"http://localhost:8000/metrics": {"total_fetches": 180, "first_update_ns": 1795874400000000000, "last_update_ns": 1795874460000000000, "duration_seconds": 60.0}}},
 "metrics": {
   "vllm:kv_cache_usage_perc": {"type": "gauge", "description": "KV-cache usage. 1 means 100 percent usage.", "unit": "ratio", "series": %s},
   "vllm:num_requests_waiting": {"type": "gauge", "unit": "requests", "series": %s},
   "vllm:num_requests_running": {"type": "gauge", "unit": "requests", "series": %s},
   "vllm:num_preemptions": {"type": "counter", "unit": null, "series": %s},
   "vllm:prompt_tokens": {"type": "counter", "unit": "tokens", "series": [{"endpoint_url": "x", "stats": {"total": 1200000.0, "rate": 20000}, "timeslices": [{"start_ns": 1, "end_ns": 2, "total": 5, "rate": 1}]}]}
 },
 "input_config": {"endpoint": {"model_names": ["Qwen/Qwen3-8B"]}, "loadgen": {"concurrency": 64}}}`, id,
		series(fmt.Sprintf(`"avg": 0.41, "min": 0.0, "max": %g, "p50": 0.45, "p99": %g`, kvMax, kvMax)),
		series(fmt.Sprintf(`"avg": 1.2, "min": 0.0, "max": %g`, waitMax)),
		series(`"avg": 48.0, "min": 0.0, "max": 64.0`),
		series(fmt.Sprintf(`"total": %g, "rate": 0.1`, preempt)))
}

func aiperfResult(t *testing.T, id string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/aiperf_0.2.json")
	if err != nil {
		t.Fatal(err)
	}
	return strings.Replace(string(b), `"aiperf_version": "0.2.0",`, fmt.Sprintf(`"aiperf_version": "0.2.0", "benchmark_id": %q,`, id), 1)
}

// A server-metrics export holds no rows: it is read into what the engine
// reported, each figure with where it was read.
func TestAIPerfServerMetricsRead(t *testing.T) {
	f, err := Parse("server_metrics_export.json", strings.NewReader(serverMetricsExport("run-64", 0.97, 14, 7)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	sm := f.ServerMetrics
	if sm == nil || len(f.Rows) != 0 || sm.BenchmarkID != "run-64" || sm.File != "server_metrics_export.json" {
		t.Fatalf("file %+v, server metrics %+v", f, sm)
	}
	e := sm.Engine
	if *e.KVCacheMax != 0.97 || *e.WaitingMax != 14 || *e.RunningMax != 64 || *e.Preemptions != 7 || e.Source != "server_metrics_export.json" {
		t.Errorf("engine %+v", e)
	}
	if p := sm.Paths["kv_cache_max"]; p != "metrics.vllm:kv_cache_usage_perc.series[0].stats.max" {
		t.Errorf("path %q", p)
	}
}

// The export completes the AIPerf row of its run: by benchmark_id, or the
// one result of the upload; alone, or with no result of its id, it is
// refused saying what to upload with it.
func TestApplyServerMetrics(t *testing.T) {
	parse := func(name, in string) *File {
		f, err := Parse(name, strings.NewReader(in), Options{})
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	a, b := parse("c64/profile_export_aiperf.json", aiperfResult(t, "run-64")), parse("c32/profile_export_aiperf.json", aiperfResult(t, "run-32"))
	s64, s32 := parse("c64/server_metrics_export.json", serverMetricsExport("run-64", 0.97, 14, 7)), parse("c32/server_metrics_export.json", serverMetricsExport("run-32", 0.5, 0, 0))
	if err := ApplyServerMetrics([]*File{a, b}, []*ServerMetrics{s32.ServerMetrics, s64.ServerMetrics}); err != nil {
		t.Fatal(err)
	}
	if e := a.Rows[0].Engine; e == nil || *e.Preemptions != 7 || e.Source != "c64/server_metrics_export.json" {
		t.Errorf("run 64: %+v", e)
	}
	if e := b.Rows[0].Engine; e == nil || *e.KVCacheMax != 0.5 {
		t.Errorf("run 32: %+v", e)
	}
	if p := a.Rows[0].Paths["engine.preemptions"]; p != "c64/server_metrics_export.json: metrics.vllm:num_preemptions.series[0].stats.total" {
		t.Errorf("provenance %q", p)
	}
	// one of each, ids unknown: matched
	c := parse("p.json", strings.Replace(aiperfResult(t, ""), `"benchmark_id": "",`, "", 1))
	if err := ApplyServerMetrics([]*File{c}, []*ServerMetrics{parse("s.json", serverMetricsExport("", 0.2, 0, 0)).ServerMetrics}); err != nil || c.Rows[0].Engine == nil {
		t.Errorf("one of each: %v, %+v", err, c.Rows[0].Engine)
	}
	for name, c := range map[string]struct {
		files []*File
		want  string
	}{
		"alone":      {nil, "upload it together with the run's profile_export_aiperf.json"},
		"another id": {[]*File{parse("x.json", aiperfResult(t, "run-8")), parse("y.json", aiperfResult(t, "run-9"))}, `no AIPerf result of this upload has its benchmark_id "run-64"`},
	} {
		err := ApplyServerMetrics(c.files, []*ServerMetrics{s64.ServerMetrics})
		if err == nil || !strings.HasPrefix(err.Error(), "c64/server_metrics_export.json: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// Readings an engine cannot report are refused, naming where they were.
func TestAIPerfServerMetricsRefusals(t *testing.T) {
	for name, c := range map[string]struct{ in, want string }{
		"kv above 1":   {serverMetricsExport("r", 1.5, 0, 0), "metrics.vllm:kv_cache_usage_perc.series[0].stats.max: 1.5 is not a reading"},
		"negative":     {serverMetricsExport("r", 0.5, -3, 0), "num_requests_waiting.series[0].stats.max: -3 is not a reading"},
		"bare NaN":     {strings.Replace(serverMetricsExport("r", 0.5, 2, 0), `"max": 2`, `"max": NaN`, 1), "num_requests_waiting.series[0].stats.max: NaN is not a reading an engine reports"},
		"none of ours": {`{"schema_version": "1.0", "aiperf_version": "0.8.0", "summary": {"endpoints_configured": []}, "metrics": {"vllm:prompt_tokens": {"series": []}}}`, "names none of the engine metrics read"},
	} {
		_, err := Parse("s.json", strings.NewReader(c.in), Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
