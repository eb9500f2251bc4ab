package planner

// Objective is the service objective every row is judged against. The
// percentile is part of the objective: "p95 TTFT <= 2 s" and "p99 TTFT <= 2 s"
// are different promises.
type Objective struct {
	// Percentile of the latency bounds: 50, 95 or 99.
	Percentile float64 `json:"percentile"`
	// MinSuccess is the lowest acceptable success rate, a fraction (0.99).
	MinSuccess float64 `json:"min_success"`
	// Latency bounds in seconds at Percentile; nil means not bounded.
	TTFTMax *float64 `json:"ttft_max_s"`
	// TTFOTMax bounds the time to the first visible output token (for
	// reasoning models, after the reasoning); nil means not bounded.
	TTFOTMax *float64 `json:"ttfot_max_s,omitempty"`
	E2EMax   *float64 `json:"e2e_max_s"`
	TPOTMax  *float64 `json:"tpot_max_s"`
	// TPOTAsSpeed records that the TPOT bound was given as the market
	// states it, an output-speed floor per user in tok/s/user (1 / ITL,
	// docs/method.md "Interactivity"); TPOTMax then holds it as an ITL
	// bound, and every row is judged by its ITL against it.
	TPOTAsSpeed bool     `json:"tpot_as_speed,omitempty"`
	ITLMax      *float64 `json:"itl_max_s"`
	// MinHeadroom is the lowest acceptable free device memory at peak, a
	// fraction (0.10); nil means not required.
	MinHeadroom *float64 `json:"min_headroom"`
	// NoOOM requires that no row saw an out-of-memory error or a restart.
	NoOOM bool `json:"no_oom"`
}

// Workload is the request shape the contract promises to test.
type Workload struct {
	PromptTokens int    `json:"prompt_tokens"`
	OutputTokens int    `json:"output_tokens"`
	Data         string `json:"data"`    // "synthetic" or "dataset"
	Prompts      string `json:"prompts"` // "identical" or "varied"
	Dataset      string `json:"dataset,omitempty"`
	// Tolerance is how far, as a fraction, a row's mean prompt and output
	// tokens may be from PromptTokens and OutputTokens and still count;
	// 0 means DefaultWorkloadTolerance (10 %).
	Tolerance float64 `json:"tolerance,omitempty"`
}

// Owners are the people responsible for running the test.
type Owners struct {
	TestOwner     string `json:"test_owner"`
	Observer      string `json:"observer"`
	StopAuthority string `json:"stop_authority"`
	Window        string `json:"window"`
}

// Contract is the test contract: what will be tested, how, and what counts
// as passing, written and frozen before any result is imported.
type Contract struct {
	// Identity of what is under test.
	Environment     string `json:"environment"`
	Service         string `json:"service"`
	ReleaseRevision string `json:"release_revision"`
	BaselineModel   string `json:"baseline_model"`
	Artifact        string `json:"artifact"`
	ArtifactHash    string `json:"artifact_hash"`
	Candidates      string `json:"candidates"` // candidate artifacts and quantization, free text
	VLLMVersion     string `json:"vllm_version"`
	BenchmarkTool   string `json:"benchmark_tool"`
	ToolVersion     string `json:"tool_version"`
	Driver          string `json:"driver"`
	Device          string `json:"device"`
	// DeviceMemoryGiB is the usable memory of one device, for fit checks.
	DeviceMemoryGiB *float64 `json:"device_memory_gib"`
	Host            string   `json:"host"`
	TestDate        string   `json:"test_date"` // YYYY-MM-DD

	Workload Workload `json:"workload"`

	// LoadKind and Loads are the rows to run, increasing and positive.
	LoadKind LoadKind  `json:"load_kind"`
	Loads    []float64 `json:"loads"`
	// RowDurationS is the planned duration of each row in seconds.
	RowDurationS float64 `json:"row_duration_s"`
	// StopAfterErrors stops a row after this many errors (0: no such rule).
	StopAfterErrors int    `json:"stop_after_errors"`
	StopRule        string `json:"stop_rule"`

	Objective Objective `json:"objective"`
	// Confidence is the level of the confidence bounds every verdict from
	// per-request records states (docs/method.md, "Confidence"), a
	// fraction; 0 means DefaultConfidence (95 %).
	Confidence float64 `json:"confidence,omitempty"`

	// SoakHours is the length of the soak the contract asks for; 0 when it
	// asks for none. A soak asked for joins the exit check.
	SoakHours float64 `json:"soak_hours,omitempty"`

	AdmissionProposal string `json:"admission_proposal"`
	// RefusedTarget is the share of busy-hour arrivals a box may refuse
	// (429 on arrival or after the queue's age) and still count as
	// serving it, a fraction; nil means DefaultRefusedTarget (0.1 %).
	RefusedTarget *float64 `json:"refused_target,omitempty"`
	Rollback      string   `json:"rollback"`
	Owners        Owners   `json:"owners"`
}

// Empty is true for an objective nobody has written yet: no term set.
func (o Objective) Empty() bool { return o == (Objective{}) }
