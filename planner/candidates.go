package planner

// RegressionGate is the record of the fixed task regression set a model
// variant must pass before its speed is compared at all: which gate, how many
// cases, the outcome and the date.
type RegressionGate struct {
	Gate  string `json:"gate"`
	Cases int    `json:"cases"`
	Pass  bool   `json:"pass"`
	Date  string `json:"date"` // YYYY-MM-DD
}

// Candidate is one model variant under consideration: the baseline, or a
// quantized or reconfigured variant, with its regression gate record, its
// fit figures and its own matrix from the identical workload.
type Candidate struct {
	Name         string `json:"name"`
	Baseline     bool   `json:"baseline"`
	Model        string `json:"model"`
	Artifact     string `json:"artifact"`
	ArtifactHash string `json:"artifact_hash"`
	// Quantization or runtime change, e.g. "fp8", "awq-int4",
	// "kv-cache fp8"; empty for the baseline.
	Quantization    string          `json:"quantization"`
	Gate            *RegressionGate `json:"gate"`
	ArtifactSizeGiB *float64        `json:"artifact_size_gib"`
	LoadedMemoryGiB *float64        `json:"loaded_memory_gib"`
	ColdStartS      *float64        `json:"cold_start_s"`
	// Rows is the candidate's matrix; a baseline with none uses Inputs.Rows.
	Rows  []Row  `json:"rows"`
	Notes string `json:"notes,omitempty"`
}

// CandidateResult is one column of the candidate comparison: fit, envelope,
// speed at the ceiling, errors and cold start.
type CandidateResult struct {
	Name         string `json:"name"`
	Baseline     bool   `json:"baseline"`
	Quantization string `json:"quantization"`
	// GatePassed is true only when a gate was recorded and passed.
	GatePassed bool            `json:"gate_passed"`
	Gate       *RegressionGate `json:"gate"`
	// Compared is false for candidates excluded from the comparison;
	// Excluded says why ("no regression gate recorded", "failed gate ...").
	Compared bool   `json:"compared"`
	Excluded string `json:"excluded,omitempty"`

	ArtifactSizeGiB *float64 `json:"artifact_size_gib"`
	LoadedMemoryGiB *float64 `json:"loaded_memory_gib"`
	// PeakMemoryGiB and Headroom are the worst (highest memory, lowest
	// headroom) observed over the candidate's rows up to its ceiling.
	PeakMemoryGiB *float64 `json:"peak_memory_gib"`
	Headroom      *float64 `json:"headroom"`
	Envelope      Envelope `json:"envelope"`
	// Figures of the ceiling row (nil without a ceiling).
	RequestRateAtCeiling     *float64 `json:"request_rate_at_ceiling"`
	OutputTokenRateAtCeiling *float64 `json:"output_token_rate_at_ceiling"`
	TTFTAtCeiling            *float64 `json:"ttft_at_ceiling_s"` // at the objective's percentile
	// ErrorRate is errored / (successful + errored) over all rows.
	ErrorRate  *float64    `json:"error_rate"`
	ColdStartS *float64    `json:"cold_start_s"`
	Matrix     []RowResult `json:"matrix"`
}

// Comparison is the side-by-side of gate-passing candidates and the decision.
// The chosen candidate is the gate-passing one with the highest ceiling;
// ties go to the smaller peak memory.
type Comparison struct {
	Candidates []CandidateResult `json:"candidates"`
	// Chosen is the chosen candidate's name, "" when none qualifies.
	Chosen string `json:"chosen"`
	// Decision reads "candidate Q fits with X observed headroom and meets
	// the objective through load Y", or says why nothing was chosen.
	Decision string `json:"decision"`
	// Explanation gives the reasons for the choice.
	Explanation []string `json:"explanation"`
}
