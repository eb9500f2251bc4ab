package importers

import "strings"

// FormatInfo describes one family of result files the importers read.
type FormatInfo struct {
	// Name is the Source.Format of its rows: "guidellm", "vllm", ...
	Name string `json:"name"`
	// Label is the tool as people name it: "GuideLLM", "vllm bench serve", ...
	Label string `json:"label"`
	// Files says which of the tool's files to import.
	Files string `json:"files"`
	// modelHint says where the format keeps the model, for the warning
	// when a file names none.
	modelHint string
}

// Formats is the one list of result formats: the detection, the messages,
// the command line and the web pages all read it. In detection order of
// nothing: the content decides (see docs/formats in the repository's docs).
var Formats = []FormatInfo{
	{Name: "guidellm", Label: "GuideLLM", Files: "benchmarks.json or .yaml (every report generation, 0.1 to 0.7 and later report-version-2 releases)",
		modelHint: "GuideLLM names it only when run with --model, or in the request bodies"},
	{Name: "vllm", Label: "vllm bench serve", Files: "the --save-result JSON (single results, sweep summary arrays, appended JSONL)",
		modelHint: "vLLM results name it in model_id"},
	{Name: "sglang", Label: "SGLang bench_serving", Files: "the --output-file JSONL",
		modelHint: "SGLang results name the model only in server_info, which older versions do not write"},
	{Name: "aiperf", Label: "AIPerf", Files: "profile_export_aiperf.json (0.1.x with its metrics under records, to schema 1.3; failed and cancelled runs too), with the run's server_metrics_export.json in the same upload for what the engine reported",
		modelHint: "AIPerf names it in input_config"},
	{Name: "genai-perf", Label: "GenAI-Perf", Files: "*_genai_perf.json",
		modelHint: "GenAI-Perf names it in input_config"},
	{Name: "llmperf", Label: "LLMPerf", Files: "*_summary.json",
		modelHint: "LLMPerf results name it in model"},
	{Name: "genai-bench", Label: "genai-bench", Files: "an experiment folder: experiment_metadata.json with its run files (*_concurrency_<N>_time_<T>s.json), as files of one upload or a zip or tar of the folder",
		modelHint: "genai-bench names it in the experiment's experiment_metadata.json; upload it with the run files"},
	{Name: "inference-perf", Label: "inference-perf", Files: "stage_<N>_lifecycle_metrics.json",
		modelHint: "inference-perf reports do not name the model; it is in the run's config.yaml, server.model_name"},
	{Name: "llm-d", Label: "llm-d benchmark report", Files: "a benchmark report v0.2 or v0.2.1 (YAML or JSON), one file per stage, as llm-d-benchmark converts GuideLLM, inference-perf, vllm bench or InferenceMAX runs",
		modelHint: "llm-d benchmark reports name it in scenario.stack[*].standardized.model.name"},
}

// FormatNames returns the Name of every format, in list order.
func FormatNames() []string {
	out := make([]string, len(Formats))
	for i, f := range Formats {
		out[i] = f.Name
	}
	return out
}

// FormatLabels returns the labels of every format as one phrase:
// "GuideLLM, vllm bench serve, ..., inference-perf".
func FormatLabels() string {
	out := make([]string, len(Formats))
	for i, f := range Formats {
		out[i] = f.Label
	}
	return strings.Join(out, ", ")
}

// formatInfo returns the entry for name.
func formatInfo(name string) (FormatInfo, bool) {
	for _, f := range Formats {
		if f.Name == name {
			return f, true
		}
	}
	return FormatInfo{}, false
}
