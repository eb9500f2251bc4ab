// Package importers reads the result files of LLM load-test clients (the
// list is Formats, the one list the command line and the web pages show)
// and turns each tested load level into a planner.Row.
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
// Every JSON format is decoded as a stream (lexer.go): GuideLLM reports
// one per-request record at a time; the summary formats one record (object,
// array element or JSONL line) at a time, their per-request arrays streamed
// into compact columns. A value read whole is at most 8 MB, a file must
// name a known field within its first megabyte (else it is refused
// unread), and Options.Context stops the reading. Rows keep one
// planner.Sample per request (about 20 bytes). A YAML report is decoded
// whole up to 4 MB; a larger one is converted to JSON as it is read, block
// by block (yamlstream.go), and read by the same streaming reader.
//
// A request the tool counted as completed that received no output token
// did not succeed ("no tokens received", warning "no-tokens"): it moves to
// errored, and the latency figures come from the requests with tokens
// (recomputed from per-request data, the method named in the path); with
// no such request there are no latency figures at all, never 0 s.
// End-to-end latency missing from a vLLM or SGLang file is computed per
// request as TTFT + the sum of its inter-token gaps.
//
// Row warnings (planner.Warning codes): "few-requests" (fewer successes
// than five beyond the p95: planner.MinRequestsFor), "errors", "incomplete",
// "no-successes", "errors-unknown" (the tool does not record failures),
// "rate-mismatch" (achieved rate more than 10 % from the requested rate),
// "rate-and-cap" (a vLLM run driven at a rate under a cap on requests in flight),
// "knee" (the first level at or above the knee GuideLLM's knee profile found),
// "server-metrics-failed" (GuideLLM's server-metrics collector never scraped a source),
// "warmup-included" (per-request lists hold warmup or cooldown requests),
// "identical-prompts", "percentile-missing", "load-unknown", "cancelled",
// "rates-unmeasured" (a zero-length window or no success: no rates computed),
// "no-tokens", "ttfot-differs" (time to first visible token more than twice
// the TTFT: a reasoning model).
// File warnings: "model-unknown" (in every format when the file names no
// model), "model-from-requests", "duplicate-key" (naming the key and both
// values; the last is used whole, as Python's json module reads it, in the
// summary formats and in GuideLLM's report, benchmark and metric objects;
// a GuideLLM request list given twice under one status leaves that
// benchmark's per-request lists unused), "knee", "knee-none" and
// "knee-unknown" (a run of GuideLLM's knee profile: where its knee was
// marked, that it found none, or that its report holds no conclusion).
//
// A regular file is read and hashed (SHA-256) in a goroutine of its own,
// ahead of the parser (ahead.go); any other reader is read in the caller's.
package importers
