package importers

import (
	"os"
	"strings"
	"testing"
)

// TestModelUnknownInEveryFormat: a file that names no model gets one
// model-unknown warning whatever its format; a file that names one gets none.
func TestModelUnknownInEveryFormat(t *testing.T) {
	read := func(parts ...string) string {
		b, err := os.ReadFile(real(parts...))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	without := func(s, old string) string {
		if !strings.Contains(s, old) {
			t.Fatalf("fixture text %q not found", old)
		}
		return strings.Replace(s, old, "", 1)
	}
	sweep := read("vllm", "er0080__vllm-benchmarking__sweep_run=0.json")
	llmperf := read("llmperf", "ray-project__llmperf-leaderboard__together_70b.json")
	tests := []struct {
		name, in string
		want     string // the warning's text contains it; "" means no warning
	}{
		{"sglang without server_info", read("sglang", "datacrunch-research__h200-benchmarks__llama_3_3_70b_online_output.jsonl"), "SGLang results name the model only in server_info"},
		{"sglang with server_info", read("sglang", "TonyLi15__sglang-benchmark__agg_n100_in512_out128_c32.jsonl"), ""},
		{"guidellm without --model", read("guidellm", "atoniolo76__gotoni__benchmarks.json"), "GuideLLM was run without --model"},
		{"inference-perf", read("inference-perf", "kubernetes-sigs__inference-perf__stage_0_lifecycle_metrics.json"), "inference-perf reports do not name the model"},
		{"vllm without model_id", without(without(sweep, `"model_id": "facebook/opt-125m",`), `"tokenizer_id": "facebook/opt-125m",`), "vLLM results name it in model_id"},
		{"vllm", sweep, ""},
		{"llmperf without model", without(llmperf, `"model": "together_ai/togethercomputer/llama-2-70b-chat",`), "LLMPerf results name it in model"},
		{"llmperf", llmperf, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse("x.json", strings.NewReader(tt.in), Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range f.Warnings {
				if w.Code == "model-unknown" {
					got = append(got, w.Message)
				}
			}
			switch {
			case tt.want == "" && len(got) > 0:
				t.Errorf("model %q, warnings %q, want none", f.Model, got)
			case tt.want != "" && (len(got) != 1 || !strings.Contains(got[0], tt.want) || !strings.HasSuffix(got[0], "enter it by hand")):
				t.Errorf("model-unknown warnings %q, want one with %q", got, tt.want)
			}
		})
	}
}
