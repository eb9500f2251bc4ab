package importers

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"capplan/planner"
	"capplan/web/demogen/guidellmgen"
)

// vllmRun is a hand-made vLLM detailed result: n requests, the given
// per-request arrays spliced in (JSON text, without braces).
func vllmRun(summary, arrays string) string {
	s := `{"date": "20250101-000000", "backend": "vllm", "model_id": "m", "request_rate": "inf", "max_concurrency": 4, ` + summary
	if arrays != "" {
		s += ", " + arrays
	}
	return s + "}"
}

// TestVariants holds one small hand-made file per rule of the importers:
// honest successes, recomputation from per-request data, TTFOT, the AIPerf
// and GenAI-Perf variants, duplicate keys and the messages.
func TestVariants(t *testing.T) {
	cases := []struct {
		name     string
		in       string
		format   string
		check    func(t *testing.T, f *File)
		wantErr  string
		wantWarn []string // file or row warning codes that must be present
	}{
		{
			name: "vllm: completed requests without tokens are failures, percentiles from the others",
			in: vllmRun(`"duration": 10, "completed": 4, "failed": 1, "total_output_tokens": 300, "request_throughput": 0.4, "output_throughput": 30, "mean_ttft_ms": 50, "median_ttft_ms": 40, "p99_ttft_ms": 99`,
				`"output_lens": [100, 0, 200, 0, 0], "ttfts": [0.1, 0.0, 0.3, 0.0, 0.0], "itls": [[0.01, 0.02], [], [0.03], [], []], "errors": ["", "", "", "", "boom"]`),
			format: "vllm", wantWarn: []string{"no-tokens", "errors"},
			check: func(t *testing.T, f *File) {
				r := f.Rows[0]
				checkI(t, "successful", r.Successful, 2)
				checkI(t, "errored", r.Errored, 3)
				checkI(t, "attempted", r.Attempted, 5)
				checkF(t, "request rate", r.RequestRate, 0.2)
				// TTFT from the two requests with tokens, linear interpolation: 0.1, 0.3
				checkF(t, "ttft p50", r.TTFT.P50, 0.2)
				checkF(t, "ttft p99", r.TTFT.P99, 0.1+0.99*0.2)
				// end-to-end = TTFT + the sum of the request's gaps: 0.13 and 0.33
				checkF(t, "e2e p50", r.E2E.P50, 0.23)
				if !strings.Contains(r.Paths["e2e_s.p50"], "linear interpolation") || !strings.Contains(r.Paths["e2e_s.p50"], "itls") {
					t.Errorf("e2e path %q does not name the method and the source", r.Paths["e2e_s.p50"])
				}
				if r.TTFT.N != 2 || r.E2E.N != 2 {
					t.Errorf("n = %d, %d", r.TTFT.N, r.E2E.N)
				}
			},
		},
		{
			name:   "vllm: a collapsed run has no latency figures, never 0",
			in:     vllmRun(`"duration": 10, "completed": 17, "failed": 983, "total_output_tokens": 0, "request_throughput": 1.7, "output_throughput": 0, "mean_ttft_ms": 0, "median_ttft_ms": 0, "p99_ttft_ms": 0, "median_tpot_ms": 0, "median_itl_ms": 0`, ""),
			format: "vllm", wantWarn: []string{"no-tokens", "no-successes"},
			check: func(t *testing.T, f *File) {
				r := f.Rows[0]
				checkI(t, "successful", r.Successful, 0)
				checkI(t, "errored", r.Errored, 1000)
				for name, s := range map[string]*float64{"ttft p50": r.TTFT.P50, "ttft p99": r.TTFT.P99, "tpot p50": r.TPOT.P50, "itl p50": r.ITL.P50} {
					checkF(t, name, s, nf)
				}
				checkF(t, "request rate", r.RequestRate, nf)
			},
		},
		{
			name: "vllm: end-to-end from ttfts and itls when the file has no e2el",
			in: vllmRun(`"duration": 10, "completed": 3, "failed": 0, "total_output_tokens": 30, "request_throughput": 0.3, "output_throughput": 3, "mean_ttft_ms": 200, "median_ttft_ms": 200, "p99_ttft_ms": 299`,
				`"output_lens": [10, 10, 10], "ttfts": [0.1, 0.2, 0.3], "itls": [[0.5, 0.5], [1, 1], [2]], "errors": ["", "", ""]`),
			format: "vllm",
			check: func(t *testing.T, f *File) {
				r := f.Rows[0]
				checkF(t, "ttft p50 (reported)", r.TTFT.P50, 0.2)
				checkF(t, "e2e p50", r.E2E.P50, 2.2) // 1.1, 2.2, 2.3
				checkF(t, "e2e p95", r.E2E.P95, 2.2+0.9*0.1)
				if r.Paths["ttft_s.p50"] != "median_ttft_ms" {
					t.Errorf("reported figure replaced: %q", r.Paths["ttft_s.p50"])
				}
			},
		},
		{
			name: "aiperf: time to first visible token beside TTFT, warned",
			in: `{"aiperf_version": "0.3.0", "schema_version": "1.1", "input_config": {"endpoint": {"model_names": ["Qwen/QwQ-32B"]}, "loadgen": {"concurrency": 8}},
				"request_count": {"unit": "requests", "avg": 100}, "request_throughput": {"unit": "requests/sec", "avg": 2}, "benchmark_duration": {"unit": "sec", "avg": 50},
				"output_sequence_length": {"unit": "tokens", "avg": 500},
				"time_to_first_token": {"unit": "ms", "avg": 80, "p50": 78, "p95": 80, "p99": 90},
				"time_to_first_output_token": {"unit": "ms", "avg": 3600, "p50": 3500, "p95": 3670, "p99": 3900},
				"request_latency": {"unit": "ms", "avg": 9000, "p50": 9000, "p95": 9500, "p99": 9900}}`,
			format: "aiperf", wantWarn: []string{"ttfot-differs"},
			check: func(t *testing.T, f *File) {
				r := f.Rows[0]
				checkF(t, "ttft p95", r.TTFT.P95, 0.08)
				checkF(t, "ttfot p95", r.TTFOT.P95, 3.67)
				if r.Paths["ttfot_s.p95"] != "time_to_first_output_token.p95" {
					t.Errorf("ttfot path %q", r.Paths["ttfot_s.p95"])
				}
			},
		},
		{
			name: "aiperf 0.2-0.3: no aiperf_version, an empty error_summary is 0 errors",
			in: `{"input_config": {"endpoint": {"model_names": ["m"]}, "loadgen": {"concurrency": 4}}, "error_summary": [], "was_cancelled": false,
				"benchmark_duration": {"unit": "sec", "avg": 60}, "request_count": {"unit": "requests", "avg": 120}, "request_throughput": {"unit": "requests/sec", "avg": 2},
				"time_to_first_token": {"unit": "ms", "avg": 100, "p50": 100, "p95": 150, "p99": 160}, "request_latency": {"unit": "ms", "avg": 1000, "p50": 1000, "p95": 1500, "p99": 1600}}`,
			format: "aiperf",
			check: func(t *testing.T, f *File) {
				if f.Source.FormatVersion != "0.2-0.3 (no aiperf_version)" {
					t.Errorf("format version %q", f.Source.FormatVersion)
				}
				r := f.Rows[0]
				checkI(t, "errored", r.Errored, 0)
				for _, w := range r.Warnings {
					if w.Code == "errors-unknown" {
						t.Errorf("false warning %v", w)
					}
				}
			},
		},
		{
			name: "aiperf 0.2-0.3: errors summed from error_summary",
			in: `{"input_config": {"loadgen": {"concurrency": 4}}, "error_summary": [{"error_details": {"code": 500}, "count": 3}, {"error_details": {"code": 429}, "count": 2}],
				"request_count": {"unit": "requests", "avg": 95}, "time_to_first_token": {"unit": "ms", "avg": 100, "p50": 100, "p95": 150, "p99": 160}}`,
			format: "aiperf", wantWarn: []string{"errors"},
			check: func(t *testing.T, f *File) { checkI(t, "errored", f.Rows[0].Errored, 5) },
		},
		{
			name: "genai-perf flat layout: endpoint as a string keeps the model and the load",
			in: `{"input_config": {"model": ["meta-llama/Llama-3.1-8B-Instruct"], "endpoint": "v1/chat/completions", "concurrency": 16, "service_kind": "openai"},
				"request_count": {"unit": "requests", "avg": 200}, "request_throughput": {"unit": "requests/sec", "avg": 10},
				"time_to_first_token": {"unit": "ms", "avg": 100, "p50": 100, "p95": 150, "p99": 160}, "request_latency": {"unit": "ms", "avg": 1000, "p50": 1000, "p95": 1500, "p99": 1600}}`,
			format: "genai-perf",
			check: func(t *testing.T, f *File) {
				if f.Model != "meta-llama/Llama-3.1-8B-Instruct" {
					t.Errorf("model %q", f.Model)
				}
				checkF(t, "load", f.Rows[0].Load, 16)
				if f.Rows[0].Paths["load"] != "input_config.concurrency" {
					t.Errorf("load path %q", f.Rows[0].Paths["load"])
				}
			},
		},
		{
			name:   "duplicate keys are warned with both values, the last is used",
			in:     vllmRun(`"duration": 10, "completed": 100, "failed": 0, "total_output_tokens": 3000, "request_throughput": 10, "output_throughput": 300, "mean_ttft_ms": 50, "median_ttft_ms": 40, "p95_ttft_ms": 160.0, "p95_ttft_ms": 99999.0, "p99_ttft_ms": 99999.5`, ""),
			format: "vllm", wantWarn: []string{"duplicate-key"},
			check: func(t *testing.T, f *File) {
				checkF(t, "ttft p95", f.Rows[0].TTFT.P95, 99.999)
				w := f.Warnings[0].Message
				for _, s := range []string{"p95_ttft_ms", "160.0", "99999.0"} {
					if !strings.Contains(w, s) {
						t.Errorf("warning %q does not name %s", w, s)
					}
				}
			},
		},
		{
			name: "duplicate keys inside a metric object",
			in: `{"aiperf_version": "0.3.0", "input_config": {"loadgen": {"concurrency": 4}}, "request_count": {"unit": "requests", "avg": 95},
				"time_to_first_token": {"unit": "ms", "avg": 100, "p50": 100, "p95": 150, "p95": 15, "p99": 160}}`,
			format: "aiperf", wantWarn: []string{"duplicate-key"},
			check: func(t *testing.T, f *File) {
				if w := f.Warnings[0].Message; !strings.Contains(w, "time_to_first_token.p95 appears twice (150, then 15)") {
					t.Errorf("warning %q", w)
				}
			},
		},
		{
			name: "a wrapper of LLMPerf summaries keyed by concurrency",
			in: `{"c1": {"model": "m", "num_concurrent_requests": 1, "results_num_completed_requests": 50, "results_number_errors": 0, "results_num_completed_requests_per_min": 60, "results_ttft_s_quantiles_p95": 0.2, "results_end_to_end_latency_s_quantiles_p95": 2, "results_mean_output_throughput_token_per_s": 50},
				"c8": {"model": "m", "num_concurrent_requests": 8, "results_num_completed_requests": 400, "results_number_errors": 0, "results_num_completed_requests_per_min": 480, "results_ttft_s_quantiles_p95": 0.4, "results_end_to_end_latency_s_quantiles_p95": 3, "results_mean_output_throughput_token_per_s": 400}}`,
			format: "llmperf",
			check: func(t *testing.T, f *File) {
				if len(f.Rows) != 2 {
					t.Fatalf("%d rows", len(f.Rows))
				}
				checkF(t, "load of c8", f.Rows[1].Load, 8)
				if f.Rows[1].Paths["load"] != "c8.num_concurrent_requests" {
					t.Errorf("path %q", f.Rows[1].Paths["load"])
				}
			},
		},
		{
			name:    "a vLLM file without completed or duration names what is missing",
			in:      `{"date": "20250101-000000", "backend": "vllm", "model_id": "m", "request_rate": 4, "mean_ttft_ms": 10, "request_throughput": 4}`,
			wantErr: "x.json: completed: missing: a vllm bench serve result always counts its completed requests",
		},
		{
			name:    "a record with vLLM keys but too few of them",
			in:      `{"backend":"vllm","completed":1}` + "\n" + `{"backend":"vllm","completed":1}`,
			wantErr: "x.json: line 1: looks like a vllm bench serve or SGLang bench_serving result (it has backend, completed) but lacks duration; mean_ttft_ms or median_ttft_ms",
		},
		{
			name:    "an empty object in an array",
			in:      `[{}, {}]`,
			wantErr: "x.json: [0]: not a recognised benchmark result (an empty object)",
		},
		{
			name: "the rate warning says what it counts, without exponents",
			in: vllmRun(`"duration": 10, "completed": 6000, "failed": 2000, "total_output_tokens": 60000, "request_throughput": 600, "output_throughput": 6000, "mean_ttft_ms": 50, "median_ttft_ms": 40, "p99_ttft_ms": 99`, "")[0:0] +
				`{"date": "20250101-000000", "backend": "vllm", "model_id": "m", "request_rate": 1000, "duration": 10, "completed": 6000, "failed": 2000, "total_output_tokens": 60000, "request_throughput": 600, "output_throughput": 6000, "mean_ttft_ms": 50, "median_ttft_ms": 40, "p99_ttft_ms": 99}`,
			format: "vllm", wantWarn: []string{"rate-mismatch"},
			check: func(t *testing.T, f *File) {
				for _, w := range f.Rows[0].Warnings {
					if w.Code == "rate-mismatch" && w.Message != "requested 1000 req/s but 600 req/s succeeded (40 % off); requests were sent at 800 req/s, failed ones included" {
						t.Errorf("message %q", w.Message)
					}
				}
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := Parse("x.json", strings.NewReader(c.in), Options{})
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if f.Source.Format != c.format {
				t.Errorf("format %q, want %q", f.Source.Format, c.format)
			}
			codes := map[string]bool{}
			for _, w := range f.Warnings {
				codes[w.Code] = true
			}
			for _, r := range f.Rows {
				for _, w := range r.Warnings {
					codes[w.Code] = true
				}
			}
			for _, w := range c.wantWarn {
				if !codes[w] {
					t.Errorf("no %q warning; have %v", w, codes)
				}
			}
			if c.check != nil {
				c.check(t, f)
			}
		})
	}
}

// TestSamples checks that every format with per-request records puts one
// planner.Sample per request on its rows.
func TestSamples(t *testing.T) {
	f, err := Parse("x.json", strings.NewReader(vllmRun(`"duration": 10, "completed": 4, "failed": 1, "total_output_tokens": 300, "request_throughput": 0.4, "output_throughput": 30, "mean_ttft_ms": 50, "median_ttft_ms": 40, "p99_ttft_ms": 99`,
		`"output_lens": [100, 0, 200, 0, 0], "ttfts": [0.1, 0.0, 0.3, 0.0, 0.0], "itls": [[0.01, 0.02], [], [0.03], [], []], "errors": ["", "", "", "", "boom"]`)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := f.Rows[0].Samples
	if len(s) != 5 || !s[0].OK || s[1].OK || !s[2].OK || s[4].OK {
		t.Fatalf("samples %+v", s)
	}
	if s[0].TTFT != 0.1 || s[0].E2E != float32(0.1)+0.03 || s[0].OutputTokens != 100 || planner.Has(s[1].TTFT) {
		t.Errorf("sample 0 %+v, 1 %+v", s[0], s[1])
	}
	var buf bytes.Buffer
	if err := guidellmgen.Write(&buf, guidellmgen.Config{RequestsPerRow: 50}); err != nil {
		t.Fatal(err)
	}
	g, err := Parse("g.json", &buf, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range g.Rows {
		ok := 0
		for _, x := range r.Samples {
			if x.OK {
				ok++
			}
		}
		if len(r.Samples) == 0 || ok != *r.Successful {
			t.Errorf("row %d: %d samples, %d ok, want %d ok", i, len(r.Samples), ok, *r.Successful)
		}
	}
	a, err := ParseFile("testdata/guidellm_a_0.1.json", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r := a.Rows[1]; len(r.Samples) != 11 || r.Samples[0].TTFT <= 0 {
		t.Errorf("family A: %d samples, first %+v", len(r.Samples), r.Samples[0])
	}
}

// TestGuideLLMRequestBodies reads the model from request bodies written as
// JSON objects or as JSON strings, and counts a successful record without
// output tokens as failed when the lists hold every request.
func TestGuideLLMRequestBodies(t *testing.T) {
	bench := func(reqs string) string {
		return `{"metadata": {"version": 1, "guidellm_version": "0.6.0"}, "args": {"model": null}, "benchmarks": [{"type_": "generative_benchmark",
			"config": {"strategy": {"type_": "concurrent", "streams": 2}},
			"metrics": {"request_totals": {"successful": 3, "errored": 0, "incomplete": 0, "total": 3},
				"time_to_first_token_ms": {"successful": {"mean": 100, "median": 100, "count": 3, "percentiles": {"p50": 100, "p95": 200, "p99": 200}}},
				"request_latency": {"successful": {"mean": 1, "median": 1, "count": 3, "percentiles": {"p50": 1, "p95": 2, "p99": 2}}}},
			"requests": {"successful": [` + reqs + `]}, "duration": 10}]}`
	}
	rec := func(body string, out int, ttft, lat float64) string {
		return fmt.Sprintf(`{"request_args": %s, "output_tokens": %d, "time_to_first_token_ms": %g, "request_latency": %g}`, body, out, ttft, lat)
	}
	for _, c := range []struct{ name, body string }{
		{"object bodies", `{"model": "Qwen/Qwen3-8B", "messages": [{"role": "user", "content": "hi"}]}`},
		{"string bodies", `"{\"model\": \"Qwen/Qwen3-8B\", \"messages\": []}"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := bench(rec(c.body, 10, 100, 1) + "," + rec(c.body, 0, 0, 0.5) + "," + rec(c.body, 12, 300, 2))
			f, err := Parse("b.json", strings.NewReader(in), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if f.Model != "Qwen/Qwen3-8B" {
				t.Errorf("model %q", f.Model)
			}
			r := f.Rows[0]
			checkI(t, "successful", r.Successful, 2)
			checkI(t, "errored", r.Errored, 1)
			// nearest rank over 0.1 s and 0.3 s
			checkF(t, "ttft p50", r.TTFT.P50, 0.1)
			checkF(t, "ttft p95", r.TTFT.P95, 0.3)
			if !strings.Contains(r.Paths["ttft_s.p95"], "nearest rank") {
				t.Errorf("path %q", r.Paths["ttft_s.p95"])
			}
		})
	}
}

// TestNegativeCooldown warns about a negative cooldown duration.
func TestNegativeCooldown(t *testing.T) {
	in := string(mustRead(t, "testdata/guidellm_c_0.4_warmup.json"))
	i := strings.Index(in, `"cooldown_duration"`)
	if i < 0 {
		in = strings.Replace(in, `"duration":`, `"cooldown_duration": -2.5, "duration":`, 1)
	} else {
		j := i + strings.IndexAny(in[i+20:], ",}") + 20
		in = in[:i] + `"cooldown_duration": -2.5` + in[j:]
	}
	f, err := Parse("c.json", strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range f.Rows[0].Warnings {
		if w.Code == "negative-duration" && strings.Contains(w.Message, "cooldown_duration is negative (-2.5 s)") {
			return
		}
	}
	t.Errorf("no negative-duration warning: %v", f.Rows[0].Warnings)
}
