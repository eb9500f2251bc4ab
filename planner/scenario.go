package planner

// ScenarioResult is one demand scenario costed for every option on the same
// denominator: successful in-objective requests a month.
type ScenarioResult struct {
	Scenario Scenario `json:"scenario"`
	// BusyHourRate is monthly requests x busy-hour share / 3600, req/s.
	BusyHourRate float64 `json:"busy_hour_rate"`
	// BoxesNeeded is ceil(busy-hour rate / per-box capacity), at least 1;
	// nil when capacity is unknown.
	BoxesNeeded *int `json:"boxes_needed"`
	// ExceedsPlan is true when more boxes are needed than the plan allows
	// (or capacity is unknown); ExceedsReason says which.
	ExceedsPlan   bool         `json:"exceeds_plan"`
	ExceedsReason string       `json:"exceeds_reason,omitempty"`
	Options       []OptionCost `json:"options"`
}

// OptionCost is one option (self-hosting or an API quote) in one scenario.
type OptionCost struct {
	// Option is "self-hosted" or the quote's name; Kind is "self-hosted" or "api".
	Option      string `json:"option"`
	Kind        string `json:"kind"`
	MonthlyCost Money  `json:"monthly_cost"`
	// SuccessfulRequests is the shared denominator.
	SuccessfulRequests int64 `json:"successful_requests"`
	// CostPer1000 is monthly cost / successful requests x 1,000; nil when
	// demand is zero.
	CostPer1000 *Money `json:"cost_per_1000"`
	// Boxes is the boxes paid for (self-hosted only).
	Boxes int      `json:"boxes"`
	Basis string   `json:"basis"`
	Notes []string `json:"notes"`
}
