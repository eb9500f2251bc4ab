// Package importers reads the result files of LLM load-test clients
// (GuideLLM, vllm bench serve, SGLang bench_serving, AIPerf/GenAI-Perf,
// LLMPerf, inference-perf) and turns each tested load level into a
// planner.Row.
//
// The format is detected from the content, never from the file name. Every
// figure is taken as the tool reported it, converted to seconds, and keeps
// the path inside the file it was read from (Row.Paths). Where a percentile
// is not reported but per-request data exists, it is computed and marked
// Stat.Computed: by nearest rank, as GuideLLM computes, or, for vLLM files,
// by linear interpolation, as vLLM computes the percentiles it does report,
// so that computed and reported figures side by side agree. Otherwise it
// stays nil with a "percentile-missing" warning. Nothing is invented.
//
// GuideLLM JSON reports are decoded as a stream: per-request arrays are read
// one record at a time and never held whole, so memory stays bounded
// whatever the file size. The other formats are small summaries and are read
// into memory (up to Options.MaxBytes); so are GuideLLM YAML reports, and
// GuideLLM 0.1 reports keep a few numbers per request to compute their
// percentiles.
//
// Row warnings (planner.Warning codes): "few-requests" (fewer successes
// than five beyond the p95: planner.MinRequestsFor), "errors", "incomplete",
// "no-successes", "errors-unknown" (the tool does not record failures),
// "rate-mismatch" (achieved rate more than 10 % from the requested rate),
// "warmup-included" (per-request lists hold warmup or cooldown requests),
// "identical-prompts", "percentile-missing", "load-unknown", "cancelled",
// "rates-unmeasured" (a zero-length window or no success: no rates computed).
// File warnings: "model-unknown" (in every format when the file names no model).
package importers
