package planner

// Route is one model route sharing the box. A resident route keeps its
// model loaded; a switched route loads it on demand (unloading another) and
// pays a cold start.
type Route struct {
	Name      string `json:"name"`
	Model     string `json:"model"`
	Residency string `json:"residency"` // "resident" or "switched"
	// ColdStartS is the load time of a switched route, seconds.
	ColdStartS          *float64 `json:"cold_start_s"`
	MemoryBudgetGiB     *float64 `json:"memory_budget_gib"`
	AdmittedConcurrency *int     `json:"admitted_concurrency"`
	QueuePolicy         string   `json:"queue_policy"`
	Owner               string   `json:"owner"`
	OverloadOutcome     string   `json:"overload_outcome"`
}

// Residency is the fit check of the routes on one device: resident routes
// all at once plus the largest switched route (only one is loaded at a time)
// against the device memory less the objective's headroom.
type Residency struct {
	Routes      []Route  `json:"routes"`
	ResidentGiB float64  `json:"resident_gib"`
	SwitchedGiB float64  `json:"switched_gib"` // the largest switched budget
	TotalGiB    float64  `json:"total_gib"`
	DeviceGiB   *float64 `json:"device_gib"`
	Headroom    float64  `json:"headroom"` // the fraction kept free
	UsableGiB   *float64 `json:"usable_gib"`
	// Fits is nil when it cannot be judged (no device memory, a route
	// without budget).
	Fits    *bool    `json:"fits"`
	Reasons []string `json:"reasons"`
}
