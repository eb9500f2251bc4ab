package planner

// AdmissionInput holds the lead's choices for the admission limit. Zero
// values mean "use the proposal"; an override of max in flight needs a reason.
type AdmissionInput struct {
	OverrideMaxInFlight *int     `json:"override_max_in_flight"`
	OverrideReason      string   `json:"override_reason"`
	QueueSize           *int     `json:"queue_size"`
	MaxQueueAgeS        *float64 `json:"max_queue_age_s"`
	RetryAfterS         *int     `json:"retry_after_s"`
	ClientMaxRetries    *int     `json:"client_max_retries"`
}

// Admission is the limit placed in front of the model so excess work is
// refused safely instead of queueing without end: a maximum in flight
// derived from the demonstrated ceiling (with a margin when the evidence is
// weak), a finite queue with a maximum age, HTTP 429 with Retry-After on
// overload, and a small cap on backed-off client retries.
type Admission struct {
	// Basis is how in-flight was derived: "concurrency" (the ceiling's
	// streams), "littles-law" (rate x mean end-to-end latency), or "none".
	Basis string `json:"basis"`
	// CeilingInFlight is the in-flight count the ceiling demonstrates.
	CeilingInFlight *int `json:"ceiling_in_flight"`
	// LittlesLaw shows the arithmetic for rate runs, e.g.
	// "11.3 req/s x 13.9 s = 157.07, rounded down to 157".
	LittlesLaw string `json:"littles_law,omitempty"`
	// WeakEvidence lists why the evidence is weak (short windows, few
	// requests, few rows); a margin is proposed when it is not empty.
	WeakEvidence []string `json:"weak_evidence"`
	// Margin is the fraction taken off the ceiling (0.25 = 25 %).
	Margin float64 `json:"margin"`
	// ProposedMaxInFlight is the proposal after the margin.
	ProposedMaxInFlight *int `json:"proposed_max_in_flight"`
	// Overridden is true when the lead replaced the proposal.
	Overridden     bool   `json:"overridden"`
	OverrideReason string `json:"override_reason,omitempty"`
	// MaxInFlight is the limit in force: the override or the proposal.
	MaxInFlight      *int    `json:"max_in_flight"`
	QueueSize        int     `json:"queue_size"`
	MaxQueueAgeS     float64 `json:"max_queue_age_s"`
	OverloadStatus   int     `json:"overload_status"`
	RetryAfterS      int     `json:"retry_after_s"`
	ClientMaxRetries int     `json:"client_max_retries"`
	Backoff          string  `json:"backoff"`
	// Reasons explain each proposed value.
	Reasons []string `json:"reasons"`
	// Settings are the ready-to-paste server and gateway settings.
	Settings Settings `json:"settings"`
}

// Settings are the admission limit as configuration: vLLM flags and a
// gateway block, ready to paste.
type Settings struct {
	// VLLMFlags are the flags for `vllm serve`, e.g. "--max-num-seqs 8".
	VLLMFlags []string `json:"vllm_flags"`
	// VLLMNotes say what the flags do not cover (e.g. queue limits the
	// recorded vLLM version lacks, to be enforced at the gateway).
	VLLMNotes []string `json:"vllm_notes"`
	Gateway   Gateway  `json:"gateway"`
	// GatewayJSON is Gateway as indented JSON, ready to paste.
	GatewayJSON string `json:"gateway_json"`
}

// Gateway is the admission block for the gateway in front of vLLM.
type Gateway struct {
	MaxInFlight      int     `json:"max_in_flight"`
	QueueSize        int     `json:"queue_size"`
	MaxQueueAgeS     float64 `json:"max_queue_age_s"`
	OverloadStatus   int     `json:"overload_status"`
	RetryAfterS      int     `json:"retry_after_s"`
	ClientMaxRetries int     `json:"client_max_retries"`
	Backoff          string  `json:"backoff"`
}

// Overload outcomes: what came back when load was sent above the limit.
const (
	OverloadRejected429  = "429-retry-after" // refused with 429 and Retry-After
	OverloadBoundedQueue = "bounded-queue"   // queued within the max queue age
	OverloadOther        = "other"           // anything else: timeouts, 5xx, OOM
)

// OverloadTest records the deliberate test above the admission limit: what
// was sent, what came back, and whether the worker stayed healthy and
// recovered afterwards.
type OverloadTest struct {
	Sent    string `json:"sent"`    // e.g. "20 concurrent streams for 60 s"
	Outcome string `json:"outcome"` // one of the Overload* constants
	// RetryAfter is true when 429 responses carried Retry-After.
	RetryAfter    bool   `json:"retry_after"`
	WorkerHealthy bool   `json:"worker_healthy"`
	Recovered     bool   `json:"recovered"`
	Date          string `json:"date"`
	Notes         string `json:"notes"`
}

// OverloadResult is the verdict on the overload test.
type OverloadResult struct {
	Recorded bool          `json:"recorded"`
	Test     *OverloadTest `json:"test"`
	Pass     bool          `json:"pass"`
	Reasons  []string      `json:"reasons"`
}
