package importers

import (
	"strconv"
	"strings"
	"testing"
)

// aiperfMetric is one AIPerf metric object.
func aiperfMetric(unit string, avg, p50, p95, p99 float64) string {
	return `{"unit": "` + unit + `", "avg": ` + ftoa(avg) + `, "min": 1, "max": ` + ftoa(p99*1.1) + `, "p1": 1, "p5": 1, "p10": 1, "p25": 1, "p50": ` + ftoa(p50) + `, "p75": 1, "p90": 1, "p95": ` + ftoa(p95) + `, "p99": ` + ftoa(p99) + `, "std": 1}`
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// TestAIPerfLayouts reads one hand-made file per AIPerf layout, each in the
// exact shape its release writes, with units read from each metric.
func TestAIPerfLayouts(t *testing.T) {
	cases := []struct {
		name, in      string
		version, tool string
		model         string
		want          rowWant
		check         func(t *testing.T, f *File)
	}{
		{
			name: "0.1.1: metrics under records keyed by tag, ms and s units",
			in: `{"records": {
				"request_count": {"tag": "request_count", "header": "Request Count", "unit": "requests", "avg": 200},
				"request_throughput": {"tag": "request_throughput", "header": "Request Throughput", "unit": "requests/sec", "avg": 3.2},
				"output_token_throughput": {"tag": "output_token_throughput", "unit": "tokens/sec", "avg": 640},
				"benchmark_duration": {"tag": "benchmark_duration", "unit": "sec", "avg": 62.5},
				"time_to_first_token": ` + aiperfMetric("ms", 120, 110, 250, 300) + `,
				"request_latency": ` + aiperfMetric("s", 2.1, 2.0, 3.5, 4.0) + `,
				"inter_token_latency": ` + aiperfMetric("ms", 9, 9, 12, 14) + `},
				"input_config": {"endpoint": {"model_names": ["Qwen/Qwen3-8B"]}, "loadgen": {"concurrency": 8}},
				"start_time": "2025-09-01T10:00:00.000000", "end_time": "2025-09-01T10:01:02.500000",
				"was_cancelled": false, "error_summary": []}`,
			version: "0.1.x (metrics under records)", model: "Qwen/Qwen3-8B",
			want: rowWant{kind: "concurrency", load: 8, att: 200, ok: 200, errd: 0, inc: -1, dur: 62.5, rate: 3.2, outRate: 640, ttftP95: 0.25, ttftP99: 0.3, e2eP95: 3.5, e2eP99: 4, noWarn: []string{"cancelled", "errors"}},
			check: func(t *testing.T, f *File) {
				if p := f.Rows[0].Paths["ttft_s.p95"]; p != "records.time_to_first_token.p95" {
					t.Errorf("ttft path %q", p)
				}
			},
		},
		{
			name: "0.1.x: records as a list of tagged metrics, duration from the start and end times",
			in: `{"records": [
				{"tag": "request_count", "unit": "requests", "avg": 50},
				{"tag": "error_request_count", "unit": "requests", "avg": 2},
				{"tag": "ttft", "unit": "ms", "avg": 80, "p50": 70, "p95": 150, "p99": 170},
				{"tag": "request_latency", "unit": "ms", "avg": 1000, "p50": 900, "p95": 1500, "p99": 1700}],
				"input_config": {"endpoint": {"model_names": ["m"]}, "loadgen": {"request_rate": 1}},
				"start_time": "2025-09-01T10:00:00", "end_time": "2025-09-01T10:00:50",
				"was_cancelled": false, "error_summary": [{"error_details": {"code": 500}, "count": 2}]}`,
			version: "0.1.x (metrics under records)", model: "m",
			want: rowWant{kind: "rate", load: 1, att: 52, ok: 50, errd: 2, inc: -1, dur: 50, rate: nf, outRate: nf, ttftP95: 0.15, ttftP99: 0.17, e2eP95: 1.5, e2eP99: 1.7, warn: []string{"errors"}},
			check: func(t *testing.T, f *File) {
				if p := f.Rows[0].Paths["ttft_s.p95"]; p != "records.ttft.p95" {
					t.Errorf("short-tag path %q", p)
				}
				if p := f.Rows[0].Paths["duration_s"]; !strings.Contains(p, "end_time") {
					t.Errorf("duration path %q", p)
				}
			},
		},
		{
			name: "0.4: schema 1.0, metrics at the top level",
			in: `{"schema_version": "1.0", "aiperf_version": "0.4.0", "benchmark_id": "x",
				"request_count": {"unit": "requests", "avg": 100}, "request_throughput": {"unit": "requests/sec", "avg": 2},
				"benchmark_duration": {"unit": "sec", "avg": 50},
				"time_to_first_token": ` + aiperfMetric("ms", 100, 90, 200, 220) + `,
				"request_latency": ` + aiperfMetric("ms", 1000, 900, 1800, 1900) + `,
				"input_config": {"endpoint": {"model_names": ["m"]}, "loadgen": {"concurrency": 4}}, "was_cancelled": false, "error_summary": []}`,
			version: "schema 1.0", tool: "0.4.0", model: "m",
			want: rowWant{kind: "concurrency", load: 4, att: 100, ok: 100, errd: 0, inc: -1, dur: 50, rate: 2, outRate: nf, ttftP95: 0.2, ttftP99: 0.22, e2eP95: 1.8, e2eP99: 1.9},
		},
		{
			name: "0.8: cancelled after 60 s, 25 ok and 16 failed, not valid for submission, context overflows",
			in: `{"schema_version": "1.2", "aiperf_version": "0.8.0", "metadata": {"submission_valid": false, "submission_invalid_reasons": ["cancelled before the benchmark duration"]},
				"request_count": {"unit": "requests", "avg": 25}, "error_request_count": {"unit": "requests", "avg": 16},
				"context_overflow_count": {"unit": "requests", "avg": 3},
				"request_throughput": {"unit": "requests/sec", "avg": 0.4167}, "benchmark_duration": {"unit": "sec", "avg": 60},
				"time_to_first_token": ` + aiperfMetric("ms", 300, 280, 900, 1000) + `,
				"request_latency": ` + aiperfMetric("ms", 5000, 4800, 9000, 9500) + `,
				"input_config": {"endpoint": {"model_names": ["m"]}, "loadgen": {"concurrency": 32}},
				"was_cancelled": true, "error_summary": [{"error_details": {"code": 400, "type": "context_length_exceeded"}, "count": 3}, {"error_details": {"code": 504}, "count": 13}]}`,
			version: "schema 1.2", tool: "0.8.0", model: "m",
			want: rowWant{kind: "concurrency", load: 32, att: 41, ok: 25, errd: 16, inc: -1, dur: 60, rate: 0.4167, outRate: nf, ttftP95: 0.9, ttftP99: 1, e2eP95: 9, e2eP99: 9.5, warn: []string{"cancelled", "submission-invalid", "context-overflow", "errors"}},
		},
		{
			name: "every request failed: a row of 0 successes with the errors of error_summary",
			in: `{"schema_version": "1.1", "aiperf_version": "0.3.0", "benchmark_duration": {"unit": "sec", "avg": 12},
				"input_config": {"endpoint": {"model_names": ["m"]}, "loadgen": {"concurrency": 16}},
				"was_cancelled": false, "error_summary": [{"error_details": {"code": 503, "message": "Service Unavailable"}, "count": 160}]}`,
			version: "schema 1.1", tool: "0.3.0", model: "m",
			want: rowWant{kind: "concurrency", load: 16, att: 160, ok: 0, errd: 160, inc: -1, dur: 12, rate: nf, outRate: nf, ttftP95: nf, ttftP99: nf, e2eP95: nf, e2eP99: nf, warn: []string{"no-successes", "errors"}},
		},
		{
			name: "every request failed: error_request_count without request_count",
			in: `{"schema_version": "1.3", "aiperf_version": "0.11.0",
				"error_request_count": {"unit": "requests", "avg": 40}, "benchmark_duration": {"unit": "sec", "avg": 30},
				"input_config": {"models": {"items": [{"name": "m"}]}, "phases": [{"name": "profiling", "type": "concurrency", "concurrency": 8, "exclude_from_results": false}]},
				"error_summary": [{"error_details": {"code": 500}, "count": 40}]}`,
			version: "schema 1.3", tool: "0.11.0", model: "m",
			want: rowWant{kind: "concurrency", load: 8, att: 40, ok: 0, errd: 40, inc: -1, dur: 30, rate: nf, outRate: nf, ttftP95: nf, ttftP99: nf, e2eP95: nf, e2eP99: nf, warn: []string{"no-successes"}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := Parse("profile_export_aiperf.json", strings.NewReader(c.in), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if f.Source.Format != "aiperf" || f.Source.FormatVersion != c.version || f.Source.ToolVersion != c.tool {
				t.Errorf("source %q %q %q", f.Source.Format, f.Source.FormatVersion, f.Source.ToolVersion)
			}
			if f.Model != c.model {
				t.Errorf("model %q", f.Model)
			}
			if len(f.Rows) != 1 {
				t.Fatalf("%d rows", len(f.Rows))
			}
			checkRow(t, f.Rows[0], c.want)
			if c.check != nil {
				c.check(t, f)
			}
		})
	}
}

// TestAIPerfFailedRunWithoutErrors refuses a file that has neither
// successes nor errors: nothing was measured.
func TestAIPerfFailedRunWithoutErrors(t *testing.T) {
	in := `{"aiperf_version": "0.3.0", "input_config": {"loadgen": {"concurrency": 1}}, "error_summary": []}`
	_, err := Parse("a.json", strings.NewReader(in), Options{})
	if err == nil || !strings.Contains(err.Error(), "zero requests") {
		t.Fatalf("err = %v", err)
	}
}

// TestLookAlikes refuses the files the tools write beside their results
// with what the file is and what to import instead.
func TestLookAlikes(t *testing.T) {
	perReq := `{"metadata": {"session_num": 0, "x_request_id": "a", "benchmark_phase": "profiling", "request_start_ns": 1}, "metrics": {"time_to_first_token": {"value": 25.1, "unit": "ms"}}, "error": null}`
	for _, c := range []struct{ name, in, want string }{
		{"aiperf per-request jsonl", perReq + "\n" + perReq + "\n", "AIPerf's per-request export (profile_export.jsonl"},
		{"aiperf per-request, keys in another order", `{"error": null, "metrics": {}, "metadata": {}}` + "\n" + `{"error": null, "metrics": {}, "metadata": {}}`, "import profile_export_aiperf.json"},
		{"aiperf time slices json", `{"timeslices": [{"timeslice_index": 0, "time_to_first_token": {"unit": "ms", "avg": 4}}], "input_config": {}}`, "AIPerf's time-slice export"},
		{"aiperf time slices csv", "Timeslice,Metric,Unit,Stat,Value\n0,Time to First Token,ms,avg,45.23\n", "AIPerf's time-slice export"},
		{"aiperf gpu telemetry", aiperfTelemetryRecord(1795874400_000000000, 0, `"gpu_power_usage":512.5`) + "\n", "AIPerf's GPU telemetry export (gpu_telemetry_export.jsonl"},
		{"aiperf inputs", `{"data": [{"session_id": "x", "payloads": [{"messages": []}]}]}`, "AIPerf's inputs.json"},
		{"prometheus dump", "# HELP vllm:num_requests_running Number\n# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running{model_name=\"m\"} 3\n", "Prometheus metrics dump"},
		{"prometheus samples only", "vllm:num_requests_waiting{model_name=\"m\"} 0\n", "Prometheus metrics dump"},
		{"inference-perf config", "load:\n  type: constant\n  stages:\n  - rate: 1\n    duration: 30\nserver:\n  type: vllm\n  model_name: m\n", "inference-perf run configuration"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("x", strings.NewReader(c.in), Options{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
}

// TestVLLMLabelFromItsDate: a vendor's 2026 file with the burstiness keys of
// 2024-2025 is labelled by its own date, not by the keys' era.
func TestVLLMLabelFromItsDate(t *testing.T) {
	in := `{"date": "20260302-091500", "backend": "vllm", "model_id": "m", "request_rate": "inf", "burstiness": 1.0, "max_concurrency": 8,
		"duration": 10, "completed": 100, "request_throughput": 10, "output_throughput": 1000, "mean_ttft_ms": 50, "median_ttft_ms": 40, "p99_ttft_ms": 99}`
	f, err := Parse("v.json", strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v := f.Source.FormatVersion; v != "burstiness keys, no endpoint_type, dated 2026-03-02" {
		t.Errorf("label %q", v)
	}
}
