package importers

import (
	"os"
	"strings"
	"testing"

	"capplan/planner"
)

// TestRealFiles imports every real result file under benchDir and checks its key
// figures against the numbers read from the file by hand (jq/python3).
func TestRealFiles(t *testing.T) {
	cases := []struct {
		path                         string
		format, version, tool, model string
		rows                         int
		row                          int // the row checked
		want                         rowWant
		refuse                       string // error text expected instead
	}{
		{
			path: real("guidellm", "vllm-project__guidellm__benchmarks_stripped.json"), format: "guidellm", version: "B (0.2)", model: "example_model", rows: 1,
			want: rowWant{kind: planner.LoadSynchronous, load: 1, att: 47, ok: 46, errd: 0, inc: 1, dur: 29.997201442718506, rate: 1.5481806532737452, outRate: 198.13346751788123,
				ttftP95: 0.01900935173034668, ttftP99: 0.021281957626342773, e2eP95: 0.656728982925415, e2eP99: 0.6891846656799316, warn: []string{"few-requests", "incomplete"}, noWarn: []string{"errors", "warmup-included"}},
		},
		{
			path: real("guidellm", "rsevilla87__guidellm-results-parser__benchmarks.json"), format: "guidellm", version: "B (0.3)", model: "Qwen/Qwen3-0.6B", rows: 1,
			want: rowWant{kind: planner.LoadRate, load: 10, att: 609, ok: 586, errd: 0, inc: 23, dur: 60.01022434234619, rate: 9.777764697593275, outRate: 1251.5371956866534,
				ttftP95: 1.0074176788330078, ttftP99: 1.0194225311279297, e2eP95: 2.3453574180603027, e2eP99: 2.3493130207061768, warn: []string{"incomplete"}, noWarn: []string{"few-requests", "rate-mismatch", "identical-prompts"}},
		},
		{
			path: real("guidellm", "danielkorat__guidellm-bench__sanity_Qwen_Qwen3-4B-Thinking-2507_tp4_quant-fp8_benchmarks.json"), format: "guidellm", version: "D (0.5-0.6)", tool: "0.5.0.dev0", model: "Qwen/Qwen3-4B-Thinking-2507", rows: 1,
			want: rowWant{kind: planner.LoadConcurrency, load: 4, att: 4, ok: 4, errd: 0, inc: 0, dur: 24.909644603729248, rate: 0.12043527909470322, outRate: 165.59511945248636,
				ttftP95: 0.17263293266296387, ttftP99: 0.17263293266296387, e2eP95: 24.909693002700806, e2eP99: 24.909693002700806, warn: []string{"few-requests"}, noWarn: []string{"identical-prompts"}},
		},
		{
			path: real("guidellm", "atoniolo76__gotoni__benchmarks.json"), format: "guidellm", version: "D (0.5-0.6)", tool: "0.6.0.dev25", model: "", rows: 1,
			want: rowWant{kind: planner.LoadRate, load: 5, att: 100, ok: 7, errd: 1, inc: 92, dur: 60, rate: 0.11666666666666667, outRate: 20.17711602552628,
				ttftP95: 45.7228639125824, ttftP99: 45.7228639125824, e2eP95: 49.73146915435791, e2eP99: 49.73146915435791,
				warn: []string{"few-requests", "errors", "incomplete", "rate-mismatch", "identical-prompts"}},
		},
		{
			path: real("vllm", "LambdaLabsML__vllm-benchmark__Meta-Llama-3.1-8B-FP8_tp1_len2048.json"), format: "vllm", version: "best_of keys, dated 2024-09-07", model: "neuralmagic/Meta-Llama-3.1-8B-FP8", rows: 1,
			// 3 of the 10 "completed" requests have output_lens 0 and TTFT 0: they
			// received no tokens and count as failed. Every latency figure is
			// computed from the 7 others by linear interpolation, as vLLM computes
			// its percentiles (python3 from the file): TTFT from ttfts, end-to-end
			// as TTFT + the sum of the request's itls (the file has no latencies).
			want: rowWant{kind: planner.LoadThroughput, load: nf, att: 10, ok: 7, errd: 3, inc: -1, dur: 1.0679055179934949, rate: 7 / 1.0679055179934949, outRate: 413.89429359863317,
				ttftP95: 0.06440504160273122, ttftP99: 0.06459406512469286, e2eP95: 0.9474549928985649, e2eP99: 1.0420743153747751, ttftComputed: true,
				warn: []string{"few-requests", "no-tokens", "errors"}, noWarn: []string{"percentile-missing"}},
		},
		{
			path: real("vllm", "dstackai__benchmarks__1p3d_conc128_in128_out2048_20250914_020816.json"), format: "vllm", version: "endpoint_type keys, no failed, dated 2025-09-14", model: "openai/gpt-oss-120b", rows: 1,
			want: rowWant{kind: planner.LoadConcurrency, load: 128, att: 500, ok: 500, errd: 0, inc: -1, dur: 39.1642699719996, rate: 12.766738671689113, outRate: 8706.430638022452,
				ttftP95: nf, ttftP99: 1.0019392820099893, e2eP95: nf, e2eP99: nf, warn: []string{"percentile-missing"}},
		},
		{
			path: real("vllm", "er0080__vllm-benchmarking__sweep_run=0.json"), format: "vllm", version: "failed and e2el keys, dated 2026-08-18", model: "facebook/opt-125m", rows: 1,
			want: rowWant{kind: planner.LoadConcurrency, load: 2, att: 8, ok: 8, errd: 0, inc: -1, dur: 1.3653671270003542, rate: 5.859229976904171, outRate: 93.74767963046673,
				ttftP95: nf, ttftP99: 0.7624942294094944, e2eP95: nf, e2eP99: 0.8768009717071254, warn: []string{"few-requests", "percentile-missing"}},
		},
		{
			path: real("vllm", "er0080__vllm-benchmarking__bench_serve_all_requests_failed_v0.25.1.json"), format: "vllm", version: "failed and e2el keys, dated 2026-08-18", model: "facebook/opt-125m", rows: 1,
			// every latency is 0.0 with completed 0: treated as absent, not as zero
			want: rowWant{kind: planner.LoadThroughput, load: nf, att: 8, ok: 0, errd: 8, inc: -1, dur: 0.00503263997961767, rate: 0, outRate: 0,
				ttftP95: nf, ttftP99: nf, e2eP95: nf, e2eP99: nf, warn: []string{"no-successes", "errors"}, noWarn: []string{"percentile-missing"}},
		},
		{
			path: real("sglang", "TonyLi15__sglang-benchmark__agg_n100_in512_out128_c32.jsonl"), format: "sglang", version: "2025+ (server_info)", tool: "0.5.5.post3", model: "Qwen/Qwen2.5-3B-Instruct", rows: 1,
			want: rowWant{kind: planner.LoadConcurrency, load: 32, att: -1, ok: 100, errd: -1, inc: -1, dur: 1.9610086176544428, rate: 50.994166522128666, outRate: 3151.4394910675514,
				ttftP95: nf, ttftP99: 0.06462050763890147, e2eP95: nf, e2eP99: 1.1812900166865443, warn: []string{"errors-unknown", "percentile-missing"}},
		},
		{
			path: real("sglang", "datacrunch-research__h200-benchmarks__llama_3_3_70b_online_output.jsonl"), format: "sglang", version: "late 2024 (minimal keys)", model: "", rows: 7, row: 4,
			want: rowWant{kind: planner.LoadRate, load: 16, att: -1, ok: 3200, errd: -1, inc: -1, dur: 383.073250005953, rate: 3200 / 383.073250005953, outRate: 4288.049348197696,
				ttftP95: nf, ttftP99: nf, e2eP95: nf, e2eP99: nf, warn: []string{"errors-unknown", "percentile-missing", "rate-mismatch"}},
		},
		{
			path: real("aiperf", "anud18__qwen36-vllm-aiperf-benchmark__profile_export_aiperf.json"), format: "aiperf", version: "schema 1.3", tool: "0.11.0", model: "qwen3.6-nvfp4", rows: 1,
			want: rowWant{kind: planner.LoadConcurrency, load: 8, att: 96, ok: 96, errd: 0, inc: -1, dur: 28.907751985, rate: 3.3209085248072427, outRate: 756.8558084818507,
				ttftP95: 0.15332603425, ttftP99: 0.15742822465, e2eP95: 5.3708704165, e2eP99: 6.243101235799997, warn: []string{"few-requests"}, noWarn: []string{"errors"}},
		},
		{
			path: real("llmperf", "ray-project__llmperf-leaderboard__together_70b.json"), format: "llmperf", version: "results schema 2023-08-31", model: "together_ai/togethercomputer/llama-2-70b-chat", rows: 1,
			want: rowWant{kind: planner.LoadConcurrency, load: 5, att: 150, ok: 150, errd: 0, inc: -1, dur: 150 / 81.89078137274691 * 60, rate: 81.89078137274691 / 60, outRate: 216.45553311958628,
				ttftP95: 0.7701076469499295, ttftP99: 0.8708675934700044, e2eP95: 2.9967581774500767, e2eP99: 3.534966199110031, noWarn: []string{"few-requests", "errors"}},
		},
		{
			path: real("inference-perf", "kubernetes-sigs__inference-perf__stage_0_lifecycle_metrics.json"), format: "inference-perf", version: "stage lifecycle report", rows: 1,
			want: rowWant{kind: planner.LoadRate, load: 1, att: 60, ok: 60, errd: 0, inc: -1, dur: 60 / 0.996850670841712, rate: 0.996850670841712, outRate: 62.15363932698074,
				ttftP95: 0.04010422827559523, ttftP99: 0.04251505806925707, e2eP95: 0.4915854010090698, e2eP99: 0.49334994919016023, warn: []string{"few-requests"}, noWarn: []string{"rate-mismatch"}},
		},
		{
			path: real("inference-perf", "kubernetes-sigs__inference-perf__summary_lifecycle_metrics.json"), format: "inference-perf", version: "summary lifecycle report", rows: 1,
			want: rowWant{kind: planner.LoadRate, load: nf, att: 47002, ok: 47002, errd: 0, inc: -1, dur: 47002 / 73.96165655384814, rate: 73.96165655384814, outRate: 4646.495280316906,
				ttftP95: 2.6837109992222397, ttftP99: 2.7395609611959664, e2eP95: 4.326164382300339, e2eP99: 4.381351204800885, warn: []string{"load-unknown"}},
		},
		{path: real("inference-perf", "kubernetes-sigs__inference-perf__summary_prometheus_metrics.json"), refuse: "Prometheus summary"},
		{path: real("inference-perf", "kubernetes-sigs__inference-perf__config.yaml"), refuse: "inference-perf run configuration"},
	}
	seen := map[string]bool{}
	for _, c := range cases {
		seen[c.path] = true
		t.Run(c.path[len(benchDir)+1:], func(t *testing.T) {
			f, err := ParseFile(c.path, Options{})
			if c.refuse != "" {
				if err == nil || !strings.Contains(err.Error(), c.refuse) {
					t.Fatalf("err = %v, want one mentioning %q", err, c.refuse)
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
			if len(s.SHA256) != 64 || f.Bytes == 0 {
				t.Errorf("sha256 %q, bytes %d", s.SHA256, f.Bytes)
			}
			if len(f.Rows) != c.rows {
				t.Fatalf("%d rows, want %d", len(f.Rows), c.rows)
			}
			r := f.Rows[c.row]
			if r.Source != s || r.Index != c.row {
				t.Errorf("row source %+v index %d", r.Source, r.Index)
			}
			checkRow(t, r, c.want)
		})
	}
	// every real file is covered by the table
	dirs, _ := os.ReadDir(benchDir)
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		files, _ := os.ReadDir(real(d.Name()))
		for _, f := range files {
			if p := real(d.Name(), f.Name()); !seen[p] {
				t.Errorf("real file %s has no case in the table", p)
			}
		}
	}
}
