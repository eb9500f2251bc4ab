package importers

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxSeed keeps large real files out of the fuzz corpus (they slow it down).
const maxSeed = 300 << 10

// seed adds every file matching the globs as a corpus entry.
func seed(f *testing.F, globs ...string) {
	f.Helper()
	n := 0
	for _, g := range globs {
		paths, _ := filepath.Glob(g)
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil || len(b) > maxSeed {
				continue
			}
			f.Add(b)
			n++
		}
	}
	if n == 0 {
		f.Fatalf("no seed files for %v", globs)
	}
}

// fuzzOne parses data without the panic guard: any panic fails the target;
// a failure must be a clean error naming the file, a success must hold rows
// (or be a companion file: an experiment's metadata, a run's server metrics).
func fuzzOne(t *testing.T, data []byte) {
	const name = "fuzz.json"
	f, err := parse(name, bytes.NewReader(data), Options{MaxBytes: 4 << 20})
	if err != nil {
		if !strings.HasPrefix(err.Error(), name+": ") {
			t.Fatalf("error does not name the file: %v", err)
		}
		return
	}
	if len(f.Rows) == 0 && f.Experiment == nil && f.ServerMetrics == nil {
		t.Fatal("success without rows")
	}
	if sm := f.ServerMetrics; sm != nil {
		for _, v := range []*float64{sm.Engine.KVCacheMax, sm.Engine.WaitingMax, sm.Engine.RunningMax, sm.Engine.Preemptions} {
			if v != nil && (*v < 0 || *v != *v || *v > 1e308) {
				t.Fatalf("engine figure %v kept", *v)
			}
		}
	}
	for _, r := range f.Rows {
		if r.Source.File != name || r.Source.Format == "" || r.LoadKind == "" {
			t.Fatalf("row without source or load kind: %+v", r)
		}
	}
}

// FuzzParseGenAIBench fuzzes genai-bench run files and experiment
// metadata.
func FuzzParseGenAIBench(f *testing.F) {
	seed(f, "testdata/genaibench_*.json", "testdata/genaibench_closed_loop/*.json")
	f.Fuzz(fuzzOne)
}

// FuzzParseGuideLLM fuzzes the streaming GuideLLM JSON reader.
func FuzzParseGuideLLM(f *testing.F) {
	seed(f, real("guidellm", "*.json"), "testdata/guidellm_*.json")
	f.Fuzz(fuzzOne)
}

// FuzzParseGuideLLMYAML fuzzes the YAML path.
func FuzzParseGuideLLMYAML(f *testing.F) {
	seed(f, "testdata/*.yaml", real("inference-perf", "*.yaml"))
	f.Fuzz(fuzzOne)
}

// FuzzParseGuideLLMYAMLStream fuzzes the YAML converter (yamlstream.go),
// which reads reports over 4 MB, on small inputs.
func FuzzParseGuideLLMYAMLStream(f *testing.F) {
	seed(f, "testdata/*.yaml")
	f.Add([]byte("benchmarks:\n- requests:\n    successful:\n    - a: 1\n    -\n  x: 2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		yamlStreamAll = true
		defer func() { yamlStreamAll = false }()
		fuzzOne(t, data)
	})
}

// FuzzParseVLLM fuzzes vLLM results: single objects, JSONL and sweep arrays.
func FuzzParseVLLM(f *testing.F) {
	seed(f, real("vllm", "*.json"), "testdata/vllm_*")
	f.Fuzz(fuzzOne)
}

// FuzzParseSGLang fuzzes SGLang JSONL with its bare Infinity/NaN tokens.
func FuzzParseSGLang(f *testing.F) {
	seed(f, real("sglang", "*.jsonl"), "testdata/sglang_*")
	f.Fuzz(fuzzOne)
}

// FuzzParseAIPerf fuzzes AIPerf and GenAI-Perf summaries.
func FuzzParseAIPerf(f *testing.F) {
	seed(f, real("aiperf", "*.json"), "testdata/aiperf_*", "testdata/genai_perf_*")
	f.Add([]byte(serverMetricsExport("run-64", 0.97, 14, 7)))
	f.Fuzz(fuzzOne)
}

// FuzzParseLLMPerf fuzzes LLMPerf summaries.
func FuzzParseLLMPerf(f *testing.F) {
	seed(f, real("llmperf", "*.json"))
	f.Fuzz(fuzzOne)
}

// FuzzParseInferencePerf fuzzes inference-perf reports and look-alikes.
func FuzzParseInferencePerf(f *testing.F) {
	seed(f, real("inference-perf", "*.json"))
	f.Fuzz(fuzzOne)
}

// FuzzParseRefusals fuzzes the detection of CSV and HTML exports and of
// the look-alikes (MLPerf logs, InferenceX agentic rows).
func FuzzParseRefusals(f *testing.F) {
	seed(f, "testdata/*.csv", "testdata/*.html", "testdata/mlperf_*", "testdata/inferencex_*")
	f.Fuzz(fuzzOne)
}

// FuzzParseLLMD fuzzes llm-d benchmark reports, JSON and YAML, the YAML
// both decoded whole and converted as a stream.
func FuzzParseLLMD(f *testing.F) {
	seed(f, "testdata/llmd_*")
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzOne(t, data)
		yamlStreamAll = true
		defer func() { yamlStreamAll = false }()
		fuzzOne(t, data)
	})
}
