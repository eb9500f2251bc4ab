package planner

import "strings"

// LoadKind says how a load level was set by the benchmark tool.
type LoadKind string

// The load kinds a row can have.
const (
	LoadConcurrency LoadKind = "concurrency" // a fixed number of streams in flight
	LoadRate        LoadKind = "rate"        // a target request rate (constant or poisson), req/s
	LoadSynchronous LoadKind = "synchronous" // one request at a time (concurrency 1)
	LoadThroughput  LoadKind = "throughput"  // everything at once, no rate limit
)

// Stat is the summary of one latency metric of a row, in seconds.
// A nil figure means the source file does not hold it (and it could not be
// computed from per-request data); it is never a zero.
type Stat struct {
	Mean *float64 `json:"mean"`
	P50  *float64 `json:"p50"`
	P95  *float64 `json:"p95"`
	P99  *float64 `json:"p99"`
	// N is the number of samples the figures were computed from, 0 if unknown.
	N int `json:"n"`
	// Computed is true when capplan computed the percentiles from the file's
	// per-request records (nearest rank) because the tool did not report them.
	Computed bool `json:"computed,omitempty"`
	// Definition notes how the tool defines the metric where it differs from
	// the usual meaning (for example GuideLLM 0.4+ TPOT includes TTFT, or a
	// token-weighted distribution).
	Definition string `json:"definition,omitempty"`
}

// Percentile returns the figure for percentile p (50, 95 or 99), or nil.
func (s Stat) Percentile(p float64) *float64 {
	switch p {
	case 50:
		return s.P50
	case 95:
		return s.P95
	case 99:
		return s.P99
	}
	return nil
}

// Warning is something a reader must know about a row or a file before
// trusting its figures.
type Warning struct {
	// Code is a stable identifier: "few-requests", "errors", "incomplete",
	// "rate-mismatch", "warmup-included", "identical-prompts",
	// "workload-mismatch", "model-mismatch", "tool-mismatch", "percentile-missing", ...
	Code    string `json:"code"`
	Message string `json:"message"`
	// File and Contract are, for a difference from the contract, the
	// file's value and the contract's as people read them ("llama-3-8b",
	// "llama-3-70b"), and Figure what they are a value of ("mean prompt
	// tokens"); WarningSentence says them in a sentence.
	File     string `json:"file,omitempty"`
	Contract string `json:"contract,omitempty"`
	Figure   string `json:"figure,omitempty"`
}

// Observed holds what a lead types in per row, because no benchmark client
// can see it: the server side of the run.
type Observed struct {
	PeakMemoryGiB *float64 `json:"peak_memory_gib"`
	// Headroom is the free device memory at peak as a fraction (0.12 = 12 %).
	Headroom *float64 `json:"headroom"`
	OOM      bool     `json:"oom"`
	Restart  bool     `json:"restart"`
	// OOMChecked is true when the lead checked the server and saw neither
	// an out-of-memory error nor a restart. Without it, and with neither
	// OOM nor Restart set, whether the row saw one is unknown.
	OOMChecked bool     `json:"oom_checked,omitempty"`
	PowerWatts *float64 `json:"power_watts"`
	Stopped    bool     `json:"stopped"`
	StopReason string   `json:"stop_reason,omitempty"`
	// Model is the model the lead typed for a row whose file did not name
	// it (an import's "model-unknown" warning); the file's model, when it
	// names one, is the row's and this is not used.
	Model string `json:"model,omitempty"`
	// Replicas is how many engine replicas served the row, typed by the
	// lead for a file that does not say (a run against a router of k
	// replicas); the file's count, when it gives one, is the row's.
	Replicas *int `json:"replicas,omitempty"`
}

// ModelName is the row's model: the file's, else the one typed for it
// (Observed.Model); "" when neither says.
func (r Row) ModelName() string {
	if r.Model != "" {
		return r.Model
	}
	return strings.TrimSpace(r.Observed.Model)
}

// OOMRecorded reports whether the row records if it saw an out-of-memory
// error or a restart: either was seen, or the lead checked and saw none.
func (o Observed) OOMRecorded() bool { return o.OOM || o.Restart || o.OOMChecked }

// OOMShort is oomWords for a table cell: "OOM, restart", "OOM", "restart",
// "no" or "not recorded".
func (o Observed) OOMShort() string {
	switch {
	case o.OOM && o.Restart:
		return "OOM, restart"
	case o.OOM:
		return "OOM"
	case o.Restart:
		return "restart"
	case o.OOMChecked:
		return "no"
	}
	return "not recorded"
}

// oomWords names what the row saw: "out-of-memory error and restart", ...
func oomWords(o Observed) string {
	switch {
	case o.OOM && o.Restart:
		return "out-of-memory error and restart"
	case o.OOM:
		return "out-of-memory error"
	case o.Restart:
		return "worker restart"
	case o.OOMChecked:
		return "no OOM or restart"
	}
	return "OOM or restart not recorded"
}

// Source says where a row came from: the file and the tool that wrote it.
type Source struct {
	File          string `json:"file"`
	SHA256        string `json:"sha256"`
	Format        string `json:"format"`         // a name from the importers' list of formats (importers.Formats)
	FormatVersion string `json:"format_version"` // the format generation, e.g. "0.4" or "B (0.2-0.3)"
	ToolVersion   string `json:"tool_version"`   // as written in the file, "" when absent
}

// Row is one tested load level: what was asked, what was achieved and how
// long requests took, all for the measured window only.
type Row struct {
	Source Source `json:"-"`
	Model  string `json:"model"`
	// Index is the row's position inside its file (0-based).
	Index int `json:"index"`

	LoadKind LoadKind `json:"load_kind"`
	// Load is the level as set: streams for concurrency, req/s for rate,
	// 1 for synchronous, nil for throughput.
	Load                *float64 `json:"load"`
	AchievedConcurrency *float64 `json:"achieved_concurrency"`
	// AchievedRate is the successful requests over the measured duration
	// (the tool's own rate of successful requests where it reports one).
	AchievedRate *float64 `json:"achieved_rate"`
	// SendRate is the rate at which the tool sent (or finished) requests,
	// failed ones included, where it reports or implies one; it is kept
	// beside the achieved rate and never stands for it.
	SendRate *float64 `json:"send_rate,omitempty"`

	Attempted  *int `json:"attempted"`
	Successful *int `json:"successful"`
	Errored    *int `json:"errored"`
	Incomplete *int `json:"incomplete"`

	DurationS *float64 `json:"duration_s"`
	// StartedAt is when the measured window began, Unix seconds, where
	// the file records it (GuideLLM's benchmarks[i].start_time); nil
	// otherwise. A GPU log is aligned to the rows by it when no start is
	// typed (docs/method.md, "Measured figures of a row").
	StartedAt        *float64 `json:"started_at,omitempty"`
	RequestRate      *float64 `json:"request_rate"`
	OutputTokenRate  *float64 `json:"output_token_rate"`
	PromptTokensMean *float64 `json:"prompt_tokens_mean"`
	OutputTokensMean *float64 `json:"output_tokens_mean"`

	TTFT Stat `json:"ttft_s"`
	// TTFOT is the time to the first visible output token: for a reasoning
	// model the first tokens are its reasoning, and users wait longer than
	// TTFT for the answer to appear. Filled only from files that record it.
	TTFOT Stat `json:"ttfot_s"`
	E2E   Stat `json:"e2e_s"`
	ITL   Stat `json:"itl_s"`
	TPOT  Stat `json:"tpot_s"`

	// IdenticalPrompts is true when every prompt in the run was the same
	// (a prefix-cache best case), nil when unknown.
	IdenticalPrompts *bool `json:"identical_prompts,omitempty"`
	// Replicas is how many engine replicas served the row when the file
	// says (an llm-d benchmark report's stack); nil means one. Two counted
	// rows at one and k replicas at the same load measure a fleet's scaling
	// factor (docs/method.md, "Fleets and the reserve").
	Replicas *int `json:"replicas,omitempty"`

	Warnings []Warning `json:"warnings"`
	// Paths maps a figure's name ("ttft_s.p95", "successful", "request_rate",
	// ...) to where it was read inside the file, e.g.
	// "benchmarks[2].metrics.time_to_first_token_ms.successful.percentiles.p95".
	Paths map[string]string `json:"paths,omitempty"`

	// Observed is typed in by the lead after import.
	Observed Observed `json:"observed"`

	// Engine is what the serving engine's own metrics say about the row's
	// run (AIPerf's server_metrics_export.json beside its result), nil
	// without them.
	Engine *EngineMetrics `json:"engine,omitempty"`

	// Telemetry is what a GPU log says about the row's window, attached by
	// Compute when a log covers the row (never stored with the row); read
	// the row's power and memory through Measured.
	Telemetry *RowTelemetry `json:"-"`
	// headroomDerived is true when Observed.Headroom was worked out from
	// the peak memory and the device's (ResolveRows), not typed.
	headroomDerived bool

	// Samples are the row's measured requests, one each, when the file
	// carries per-request records; nil when it holds only aggregates. The
	// store keeps them apart from the row's figures (they are not JSON).
	Samples []Sample `json:"-"`
}

// ReplicaCount is the replicas that served the row: the file's count,
// else the one typed for it (Observed.Replicas), else 1.
func (r Row) ReplicaCount() int {
	n := r.Replicas
	if n == nil {
		n = r.Observed.Replicas
	}
	if n == nil || *n < 1 {
		return 1
	}
	return *n
}

// MeasuredFigures are a row's server-side figures as every section reads
// them (docs/method.md, "Measured figures of a row"): the GPU log's where
// it covers the row, else what the lead typed. Each source is "typed" or
// "telemetry: FILE", the latter followed by the share of the row the log
// covers when it covers only a part ("telemetry: smi.csv, 68 of ~114
// samples").
type MeasuredFigures struct {
	PowerWatts    *float64 `json:"power_watts"`
	PowerSource   string   `json:"power_source,omitempty"`
	Headroom      *float64 `json:"headroom"`
	PeakMemoryGiB *float64 `json:"peak_memory_gib"`
	MemorySource  string   `json:"memory_source,omitempty"`
	// Partial is true when the figures from the log cover only part of
	// the row; Coverage says over what share.
	Partial  bool   `json:"partial,omitempty"`
	Coverage string `json:"coverage,omitempty"`
}

// Measured resolves the row's power, headroom and peak memory: telemetry
// over typed, each with its source.
func (r Row) Measured() MeasuredFigures {
	m := MeasuredFigures{PowerWatts: r.Observed.PowerWatts, Headroom: r.Observed.Headroom, PeakMemoryGiB: r.Observed.PeakMemoryGiB}
	if m.PowerWatts != nil {
		m.PowerSource = SourceTyped
	}
	if m.Headroom != nil || m.PeakMemoryGiB != nil {
		m.MemorySource = SourceTyped
		if r.headroomDerived {
			m.MemorySource = SourceDerived
		}
	}
	t := r.Telemetry
	if t == nil || (t.PowerMeanW == nil && t.Headroom == nil) {
		return m
	}
	src := "telemetry: " + t.Source
	if t.Partial {
		src += ", " + t.Coverage
		m.Partial, m.Coverage = true, t.Coverage
	}
	if t.PowerMeanW != nil {
		m.PowerWatts, m.PowerSource = t.PowerMeanW, src
	}
	if t.Headroom != nil {
		m.Headroom, m.PeakMemoryGiB, m.MemorySource = t.Headroom, t.MemPeakGiB, src
		if t.HeadroomDerived {
			m.MemorySource = src + "; headroom derived: 1 - peak memory / device memory"
		}
	}
	return m
}

// LoadValue is the load level used to order rows: the level as set, or the
// achieved concurrency for throughput runs. ok is false when neither is known.
func (r Row) LoadValue() (v float64, ok bool) {
	if r.Load != nil {
		return *r.Load, true
	}
	if r.AchievedConcurrency != nil {
		return *r.AchievedConcurrency, true
	}
	return 0, false
}

// F returns a pointer to v; a helper for optional figures.
func F(v float64) *float64 { return &v }

// I returns a pointer to v; a helper for optional counts.
func I(v int) *int { return &v }
