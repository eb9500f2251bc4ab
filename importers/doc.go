// Package importers reads the result files of LLM load-test clients
// (GuideLLM, vllm bench serve, SGLang bench_serving, AIPerf/GenAI-Perf,
// LLMPerf, inference-perf) and turns each tested load level into a
// planner.Row.
//
// The format is detected from the content, never from the file name. Every
// figure is taken as the tool reported it, converted to seconds, and keeps
// the path inside the file it was read from (Row.Paths). Where a percentile
// is not reported but per-request data exists, it is computed by nearest
// rank and marked Stat.Computed; otherwise it stays nil with a
// "percentile-missing" warning. Nothing is invented.
//
// GuideLLM JSON reports are decoded as a stream: per-request arrays are read
// one record at a time and never held whole, so memory stays bounded
// whatever the file size. The other formats are small summaries and are read
// into memory (up to Options.MaxBytes).
package importers
