package planner

// EnvelopeState says what the matrix demonstrates.
type EnvelopeState string

// The envelope states.
const (
	// EnvelopeCeiling: a row failed above a run of passing rows; the
	// ceiling is the highest of them.
	EnvelopeCeiling EnvelopeState = "ceiling"
	// EnvelopeLowerBound: every row passed; the true ceiling is at least
	// the highest tested load.
	EnvelopeLowerBound EnvelopeState = "lower-bound"
	// EnvelopeNone: the lowest row did not pass; nothing is demonstrated.
	EnvelopeNone EnvelopeState = "none"
	// EnvelopeNoRows: there are no rows with a known load.
	EnvelopeNoRows EnvelopeState = "no-rows"
)

// Envelope is the operating envelope the matrix demonstrates: the highest
// tested load such that it and every lower tested load pass the objective.
// It is not the highest load that completed once; a pass above a failure is
// flagged non-monotone and not counted.
type Envelope struct {
	State    EnvelopeState `json:"state"`
	LoadKind LoadKind      `json:"load_kind"`
	// Ceiling is the demonstrated load (streams or req/s); nil without one.
	Ceiling *float64 `json:"ceiling"`
	// CeilingRow is the index in Result.Matrix of the ceiling row.
	CeilingRow *int `json:"ceiling_row"`
	// FirstFailure is the lowest load that did not pass, if any, and why.
	FirstFailure       *float64 `json:"first_failure"`
	FirstFailureReason string   `json:"first_failure_reason,omitempty"`
	// NonMonotone lists the loads that passed above a non-passing row.
	NonMonotone []float64 `json:"non_monotone"`
	// Text says it in a sentence: "demonstrated ceiling: 8 concurrent
	// streams", "at least 10 concurrent streams (every row passed)", "no
	// envelope: the lowest row (1 stream) fails".
	Text string `json:"text"`
}
