package importers

import (
	"path/filepath"
	"strings"
	"testing"

	"capplan/planner"
)

// TestFixtures imports the hand-made files in testdata/, one per format
// generation that has no real sample, and checks their figures.
func TestFixtures(t *testing.T) {
	cases := []struct {
		file                         string
		format, version, tool, model string
		rows, row                    int
		want                         rowWant
		path                         [2]string // a figure name and its expected path
		refuse                       string
	}{
		{
			file: "guidellm_a_0.1.json", format: "guidellm", version: "A (0.1)", model: "mistralai/Mistral-7B-Instruct-v0.2", rows: 2,
			// computed by nearest rank from 10 raw results: ttft 0.05..0.14 s, e2e 1.0..1.9 s
			// (epoch-second arithmetic, as python3 computes it from the file)
			want: rowWant{kind: planner.LoadSynchronous, load: 1, att: 10, ok: 10, errd: 0, inc: -1, dur: 19.90000009536743, rate: 0.5025125604058627, outRate: 10.050251208117254,
				ttftP95: 0.14, ttftP99: 0.14, e2eP95: 1.9000000953674316, e2eP99: 1.9000000953674316, ttftComputed: true, warn: []string{"few-requests"}},
			path: [2]string{"ttft_s.p95", "computed (nearest rank) from benchmarks[0].benchmarks[0].results[*].first_token_time"},
		},
		{
			file: "guidellm_a_0.1.json", format: "guidellm", version: "A (0.1)", model: "mistralai/Mistral-7B-Instruct-v0.2", rows: 2, row: 1,
			want: rowWant{kind: planner.LoadRate, load: 2, att: 11, ok: 10, errd: 1, inc: -1, dur: 10, rate: 1, outRate: 20,
				ttftP95: 0.38, ttftP99: 0.38, e2eP95: 2.9000000953674316, e2eP99: 2.9000000953674316, ttftComputed: true, warn: []string{"few-requests", "errors", "rate-mismatch"}},
		},
		{
			file: "guidellm_c_0.4_warmup.json", format: "guidellm", version: "C (0.4)", model: "meta-llama/Llama-3.1-8B-Instruct", rows: 2,
			want: rowWant{kind: planner.LoadConcurrency, load: 1, att: 4, ok: 4, errd: 0, inc: 0, dur: 21.742913484573364, rate: 0.18396798583768487, outRate: 45.02616453377337,
				ttftP95: 0.12550187110900879, ttftP99: 0.12550187110900879, e2eP95: 5.829510450363159, e2eP99: 5.829510450363159, warn: []string{"warmup-included", "few-requests"}, noWarn: []string{"identical-prompts"}},
			path: [2]string{"ttft_s.p95", "benchmarks[0].metrics.time_to_first_token_ms.successful.percentiles.p95"},
		},
		{
			file: "guidellm_d_0.5.yaml", format: "guidellm", version: "D (0.5-0.6)", tool: "0.5.3", model: "meta-llama/Llama-3.1-8B-Instruct", rows: 2,
			want: rowWant{kind: planner.LoadConcurrency, load: 1, att: 4, ok: 4, errd: 0, inc: 0, dur: 21.742913484573364, rate: 0.18396798583768487, outRate: 45.02616453377337,
				ttftP95: 0.12550187110900879, ttftP99: 0.12550187110900879, e2eP95: 5.829510450363159, e2eP99: 5.829510450363159, warn: []string{"few-requests"}, noWarn: []string{"warmup-included", "identical-prompts"}},
		},
		{
			file: "guidellm_e_0.7.json", format: "guidellm", version: "E (0.7+)", tool: "0.7.1", model: "Qwen/Qwen3-8B", rows: 2, row: 1,
			want: rowWant{kind: planner.LoadRate, load: 4, att: 4, ok: 4, errd: 0, inc: 0, dur: 11.816399097442627, rate: 0.33851260159837554, outRate: 78.28103911962434,
				ttftP95: 0.1498725414276123, ttftP99: 0.1498725414276123, e2eP95: 5.945746898651123, e2eP99: 5.945746898651123, warn: []string{"rate-mismatch"}},
			path: [2]string{"load", "benchmarks[1].config.strategy.rate"},
		},
		{
			file: "guidellm_d_identical.json", format: "guidellm", version: "D (0.5-0.6)", tool: "0.5.3", model: "meta-llama/Llama-3.1-8B-Instruct", rows: 2,
			want: rowWant{kind: planner.LoadConcurrency, load: 1, att: 4, ok: 4, errd: 0, inc: 0, dur: 21.742913484573364, rate: 0.18396798583768487, outRate: 45.02616453377337,
				ttftP95: 0.12550187110900879, ttftP99: 0.12550187110900879, e2eP95: 5.829510450363159, e2eP99: 5.829510450363159, warn: []string{"identical-prompts"}},
		},
		{
			file: "vllm_append.jsonl", format: "vllm", version: "burstiness keys, no endpoint_type, dated 2025-03-01", model: "meta-llama/Llama-3.1-8B-Instruct", rows: 2, row: 1,
			want: rowWant{kind: planner.LoadConcurrency, load: 8, att: 100, ok: 100, errd: 0, inc: -1, dur: 20 / 1.4, rate: 5, outRate: 1280,
				ttftP95: 0.224, ttftP99: 0.266, e2eP95: 8.12, e2eP99: 8.54},
			path: [2]string{"ttft_s.p95", "line 2: p95_ttft_ms"},
		},
		{
			file: "vllm_sweep_summary.json", format: "vllm", version: "failed and e2el keys, dated 2025-03-01", model: "meta-llama/Llama-3.1-8B-Instruct", rows: 2, row: 1,
			want: rowWant{kind: planner.LoadConcurrency, load: 2, att: 100, ok: 99, errd: 1, inc: -1, dur: 20, rate: 5, outRate: 1280,
				ttftP95: 0.16, ttftP99: 0.19, e2eP95: 5.8, e2eP99: 6.1, warn: []string{"errors", "few-requests"}},
			path: [2]string{"errored", "[1].failed"},
		},
		{
			file: "vllm_2024_early.json", format: "vllm", version: "request_inthroughput keys, undated", model: "facebook/opt-125m", rows: 1,
			// p95 TTFT and all of E2E computed from ttfts/latencies (100 values)
			// by linear interpolation, as vLLM computes the ones it reports:
			// position 0.95 x 99 = 94.05 and 0.99 x 99 = 98.01 (0-based)
			want: rowWant{kind: planner.LoadRate, load: 4, att: -1, ok: 100, errd: -1, inc: -1, dur: 25, rate: 4, outRate: 200,
				ttftP95: 0.09505, ttftP99: 0.098, e2eP95: 1.4405, e2eP99: 1.4801, ttftComputed: true, warn: []string{"errors-unknown"}},
			path: [2]string{"request_rate", "request_inthroughput"},
		},
		{
			file: "genai_perf_0.0.13.json", format: "genai-perf", version: "summary JSON", model: "meta-llama/Llama-3.1-8B-Instruct", rows: 1,
			want: rowWant{kind: planner.LoadConcurrency, load: 32, att: -1, ok: 250, errd: -1, inc: -1, dur: 20, rate: 12.5, outRate: 3200,
				ttftP95: 0.26, ttftP99: 0.32, e2eP95: 3.1, e2eP99: 3.5, warn: []string{"errors-unknown"}},
			path: [2]string{"load", "input_config.perf_analyzer.stimulus.concurrency"},
		},
		{
			file: "aiperf_0.2.json", format: "aiperf", version: "schema 1.0", tool: "0.2.0", model: "Qwen/Qwen3-8B", rows: 1,
			want: rowWant{kind: planner.LoadRate, load: 2, att: 120, ok: 118, errd: 2, inc: -1, dur: 60, rate: 2, outRate: 500,
				ttftP95: 0.45, ttftP99: 0.5, e2eP95: 5.2, e2eP99: 5.6, warn: []string{"errors"}, noWarn: []string{"rate-mismatch"}},
		},
		{
			file: "aiperf_0.1_records.json", format: "aiperf", version: "0.1.x (metrics under records)", model: "Qwen/Qwen3-8B", rows: 1,
			want: rowWant{kind: planner.LoadConcurrency, load: 8, att: 200, ok: 200, errd: 0, inc: -1, dur: 62.5, rate: 3.2, outRate: nf,
				ttftP95: 0.25, ttftP99: 0.3, e2eP95: 3.5, e2eP99: 4},
			path: [2]string{"ttft_s.p95", "records.time_to_first_token.p95"},
		},
		{
			file: "sglang_zero_success.jsonl", format: "sglang", version: "2025 (no server_info)", rows: 1,
			// bare Infinity and NaN tokens; NaN latencies of a zero-success run are absent, not errors
			want: rowWant{kind: planner.LoadConcurrency, load: 64, att: 2, ok: 0, errd: 2, inc: -1, dur: 3.2, rate: 0, outRate: nf,
				ttftP95: nf, ttftP99: nf, e2eP95: nf, e2eP99: nf, warn: []string{"no-successes", "errors"}},
		},
		{file: "guidellm_0.3.csv", refuse: "GuideLLM CSV export"},
		{file: "guidellm_0.4.html", refuse: "HTML page"},
		{file: "aiperf_profile_export.csv", refuse: "AIPerf/GenAI-Perf CSV export"},
	}
	for _, c := range cases {
		t.Run(c.file+"#"+string(rune('0'+c.row)), func(t *testing.T) {
			f, err := ParseFile(filepath.Join("testdata", c.file), Options{})
			if c.refuse != "" {
				if err == nil || !strings.Contains(err.Error(), c.refuse) || !strings.HasPrefix(err.Error(), c.file) {
					t.Fatalf("err = %v, want one starting with the file name and mentioning %q", err, c.refuse)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			s := f.Source
			if s.Format != c.format || s.FormatVersion != c.version || s.ToolVersion != c.tool || f.Model != c.model {
				t.Errorf("source = %+v model %q, want %s/%s/%s model %q", s, f.Model, c.format, c.version, c.tool, c.model)
			}
			if len(f.Rows) != c.rows {
				t.Fatalf("%d rows, want %d", len(f.Rows), c.rows)
			}
			r := f.Rows[c.row]
			checkRow(t, r, c.want)
			if c.path[0] != "" && r.Paths[c.path[0]] != c.path[1] {
				t.Errorf("path of %s = %q, want %q", c.path[0], r.Paths[c.path[0]], c.path[1])
			}
		})
	}
}

// TestDefinitions checks that the metric definitions that differ between
// tools and GuideLLM generations are recorded.
func TestDefinitions(t *testing.T) {
	for _, c := range []struct {
		path, tpot string
	}{
		{real("guidellm", "rsevilla87__guidellm-results-parser__benchmarks.json"), "GuideLLM 0.2-0.3 TPOT"},
		{real("guidellm", "atoniolo76__gotoni__benchmarks.json"), "includes TTFT"},
		{real("llmperf", "ray-project__llmperf-leaderboard__together_70b.json"), "including TTFT"},
	} {
		t.Run(filepath.Base(c.path), func(t *testing.T) {
			f, err := ParseFile(c.path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if d := f.Rows[0].TPOT.Definition; !strings.Contains(d, c.tpot) {
				t.Errorf("TPOT definition %q, want it to mention %q", d, c.tpot)
			}
		})
	}
}
