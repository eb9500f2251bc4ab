package planner

// Inputs is everything Compute needs to produce a report: the frozen contract
// and its amendments, the measured rows, what the lead typed in about the
// overload test, candidates and residency, the cost inputs, API quotes,
// demand scenarios and the recommendation. Inputs is data only; Compute never
// changes it.
type Inputs struct {
	// Currency is the one currency of every amount in the report, e.g. "EUR".
	Currency string `json:"currency"`
	// AsOf is the date the report is computed for, YYYY-MM-DD; evidence
	// older than StaleAfterDays before it is stale. Empty means no staleness
	// check can be made (the exit check then fails its evidence item).
	AsOf string `json:"as_of"`
	// StaleAfterDays is the age at which evidence is stale; 0 means 90.
	StaleAfterDays int `json:"stale_after_days"`
	// ExchangeRates convert amounts typed in other currencies into
	// Currency, each a dated rate with its source.
	ExchangeRates []ExchangeRate `json:"exchange_rates,omitempty"`
	// TaxBasis chooses whether the comparison counts recoverable tax:
	// "net" (the default: left out) or "gross". Non-recoverable tax is
	// always a cost.
	TaxBasis string `json:"tax_basis,omitempty"`
	// Provider is the seller's view of the box: selling prices and the
	// expected utilisation; nil when the report does not sell tokens.
	Provider *ProviderInputs `json:"provider,omitempty"`

	// Contract is the test contract as it stands: frozen, with every
	// amendment applied. Its objective is the one in force.
	Contract Contract `json:"contract"`
	// Amendments are the changes made to the contract after the freeze, in
	// the order they were made; for the objective, old and new values are in
	// the objective syntax (Objective.String).
	Amendments []Amendment `json:"amendments"`

	// Rows is the concurrency matrix of the model the report proposes to
	// serve (the baseline unless the lead chose otherwise).
	Rows []Row `json:"rows"`
	// Reference is the public frontier rows imported or typed as a
	// reference: never evidence (reference.go); nil when none.
	Reference *ReferenceInput `json:"reference,omitempty"`

	// Admission holds the lead's choices for the admission limit; zero values
	// mean "use the proposal".
	Admission AdmissionInput `json:"admission"`
	// Overload is the recorded overload test; nil when not yet run.
	Overload *OverloadTest `json:"overload"`

	// Candidates are the baseline and its variants. A baseline candidate
	// with no rows of its own is judged on Rows.
	Candidates []Candidate `json:"candidates"`
	// Routes is the residency plan when several routes share the box.
	Routes []Route `json:"routes"`

	// SelfHosted are the monthly cost inputs of one box.
	SelfHosted SelfHostedCosts `json:"self_hosted"`
	// Quotes are the API price quotes compared with self-hosting.
	Quotes []Quote `json:"quotes"`
	// TokenBasis chooses the tokens per request priced for API quotes:
	// "contract" (the contract's workload, the default) or "measured" (the
	// mean prompt and output tokens of the ceiling row).
	TokenBasis string `json:"token_basis"`
	// MaxBoxes is how many boxes the plan allows; 0 means 1.
	MaxBoxes int `json:"max_boxes"`
	// Fleet sizes capacity beyond one box: topology, scaling factor and
	// reserve; nil sizes one box at a time, as before.
	Fleet *FleetInputs `json:"fleet,omitempty"`
	// Scenarios are the demand scenarios, normally low, expected and peak.
	Scenarios []Scenario `json:"scenarios"`

	// Recommendation is the lead's decision; nil when not yet written.
	Recommendation *Recommendation `json:"recommendation"`

	// Operations evidence (see evidence.go): GPU telemetry aligned to the
	// rows, a soak with its drains, the metered usage of a shared box and
	// aggregate production demand; nil when not imported.
	Telemetry *TelemetryInput `json:"telemetry"`
	Soak      *Soak           `json:"soak"`
	Showback  *ShowbackUsage  `json:"showback"`
	Demand    *Demand         `json:"demand"`
	// LooseningAccepted is a reviewer's written acceptance of an objective
	// loosened after results existed; nil when none was given.
	LooseningAccepted *LooseningAcceptance `json:"loosening_accepted"`
	// Workflow is whether the contract is frozen and where the review
	// stands; nil when not known. It moves no figure (see Headline).
	Workflow *Workflow `json:"workflow,omitempty"`
	// AmendmentAccepted is a reviewer's written acceptance of the workload
	// and objective in force after they were amended once results existed
	// (docs/method.md, "Exit check").
	AmendmentAccepted *AmendmentAcceptance `json:"amendment_accepted,omitempty"`
}

// Amendment is one change to the frozen contract, kept with its reason. An
// amendment of the objective made after results existed is shown to every
// reader, and one that loosens it is flagged.
type Amendment struct {
	// Field names what changed: "objective", "workload", "loads", ...
	Field    string `json:"field"`
	OldValue string `json:"old_value"`
	NewValue string `json:"new_value"`
	Reason   string `json:"reason"`
	Who      string `json:"who"`
	When     string `json:"when"` // RFC 3339 or YYYY-MM-DD
	// ResultsExisted is true when rows had already been imported.
	ResultsExisted bool `json:"results_existed"`
	// Loosened is true when the amendment loosens the objective (see Amend).
	Loosened bool `json:"loosened,omitempty"`
}

// Scenario is one level of monthly demand with its busiest hour (a share
// of a day's requests, a peak rate, or in older reports a share of the
// month's); the busy hour sizes capacity, the month sizes cost.
type Scenario struct {
	// Name is "low", "expected" or "peak" (other names are allowed).
	Name string `json:"name"`
	// MonthlyRequests is the successful in-objective requests wanted a month.
	MonthlyRequests int64 `json:"monthly_requests"`
	// BusyHourKind is how the busiest hour is given: BusyDayShare,
	// BusyPeakRate, or BusyMonthShare (also when empty: scenarios saved
	// before the kind existed). Read it through the methods of busyhour.go.
	BusyHourKind string `json:"busy_hour_kind,omitempty"`
	// BusyHourShare is the fraction (0..1] of the requests that arrive in
	// the busiest hour: of a day's for BusyDayShare, of the month's for
	// BusyMonthShare.
	BusyHourShare float64 `json:"busy_hour_share,omitempty"`
	// PeakRate is the busiest hour's request rate, req/s, for BusyPeakRate.
	PeakRate float64 `json:"peak_rate,omitempty"`
	// Burst is the busiest minute's rate over the busiest hour's mean
	// (1.5 when minute peaks run half again above it); 0 means none typed
	// (imported per-minute traffic gives one, else arrivals are Poisson).
	Burst float64 `json:"burst,omitempty"`
	// DayProfile is the typed share of a day's requests in each clock
	// hour (24 shares summing to 1), for the hybrid plan's overflow; nil
	// means none typed.
	DayProfile []float64 `json:"day_profile,omitempty"`
}

// Recommendation is the decision the report supports: keep, change or stop
// self-hosting, who owns it, when it is reviewed, when it expires, what
// reopens it and the gates money cannot settle.
type Recommendation struct {
	Decision   string `json:"decision"` // "keep", "change" or "stop"
	Owner      string `json:"owner"`
	ReviewDate string `json:"review_date"` // YYYY-MM-DD
	Expiry     string `json:"expiry"`      // YYYY-MM-DD
	// Triggers are the events that reopen the decision, free text.
	Triggers []string `json:"triggers"`
	// Gates are the non-financial gates: data location, capability,
	// contract, recovery and exit.
	Gates []NonFinancialGate `json:"gates"`
	// Justification says, in writing, why the decision picks the option
	// that costs more per 1,000 in the expected scenario; the exit check
	// requires it then.
	Justification string `json:"justification,omitempty"`
	// BeyondPlan says, in writing, why the plan's boxes stand although a
	// demand scenario's busy hour needs more; the exit check requires it
	// then, unless the decision changes or stops the plan.
	BeyondPlan string `json:"beyond_plan,omitempty"`
	Notes      string `json:"notes,omitempty"`
}

// NonFinancialGate is a requirement price cannot settle (data location,
// capability, contract, recovery, exit), each passed or failed with a note.
type NonFinancialGate struct {
	Name string `json:"name"`
	Pass bool   `json:"pass"`
	Note string `json:"note"`
}

// RequiredGates are the non-financial gates every recommendation states.
var RequiredGates = []string{"data location", "capability", "contract", "recovery", "exit"}
