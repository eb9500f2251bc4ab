package planner

// VerdictState is the outcome of judging one row against the objective.
type VerdictState string

// The verdict states. A row is "not-judged" when the objective needs a
// figure the row lacks: a missing figure is never a pass. A stopped row was
// ended early by the stop rule or the operator and counts as not passing.
const (
	VerdictPass      VerdictState = "pass"
	VerdictFail      VerdictState = "fail"
	VerdictNotJudged VerdictState = "not-judged"
	VerdictStopped   VerdictState = "stopped"
)

// Check is one criterion of the objective applied to one row: the measured
// value, the bound and whether it held. Pass is nil when the measured value
// is missing.
type Check struct {
	// Criterion is a stable name: "success", "ttft", "e2e", "tpot", "itl",
	// "headroom", "no_oom".
	Criterion string `json:"criterion"`
	// Label is the human name with the percentile, e.g. "p95 end-to-end".
	Label    string   `json:"label"`
	Measured *float64 `json:"measured"`
	Bound    float64  `json:"bound"`
	// Op is how Measured must relate to Bound: "<=" or ">=".
	Op   string `json:"op"`
	Unit string `json:"unit"` // "s", "%" or ""
	Pass *bool  `json:"pass"`
	// Text reads like "p95 end-to-end 16.2 s > 15 s" or "success 100 % >= 99 %".
	Text string `json:"text"`
}

// Verdict is the judgement of one row: its state, every check made, and the
// failing and missing criteria spelled out.
type Verdict struct {
	State  VerdictState `json:"state"`
	Checks []Check      `json:"checks"`
	// Failures name each failing criterion with measured value and bound.
	Failures []string `json:"failures"`
	// Missing name each figure the objective needs but the row lacks.
	Missing []string `json:"missing"`
	// Summary is one line: "pass", "fail: p95 end-to-end 16.2 s > 15 s", ...
	Summary string `json:"summary"`
}

// RowResult is one row of the concurrency matrix as the report shows it:
// the row with its provenance, its success rate, its verdict and every
// warning about it (the importer's and the contract checks').
type RowResult struct {
	Row Row `json:"row"`
	// Source is repeated here because Row hides it from JSON.
	Source Source `json:"source"`
	// Load is Row.LoadValue; LoadKnown is false when neither the set load nor
	// the achieved concurrency is known.
	Load      float64 `json:"load"`
	LoadKnown bool    `json:"load_known"`
	// SuccessRate is successful / (successful + errored) as a fraction;
	// incomplete requests are shown beside it, not in it.
	SuccessRate *float64 `json:"success_rate"`
	Incomplete  *int     `json:"incomplete"`
	Verdict     Verdict  `json:"verdict"`
	// Warnings holds the row's own warnings plus the contract checks
	// ("model-mismatch", "tool-mismatch", "workload-mismatch",
	// "identical-prompts", "few-requests").
	Warnings []Warning `json:"warnings"`
	// NonMonotone is true for a pass above a failure; it does not count.
	NonMonotone bool `json:"non_monotone"`
	// InEnvelope is true for the passing rows at or below the ceiling.
	InEnvelope bool `json:"in_envelope"`
}
