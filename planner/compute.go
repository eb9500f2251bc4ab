package planner

// Result is the computed report: every number any screen, the JSON API or
// the XLSX export shows. It is produced once by Compute from Inputs; the
// renderers never compute figures of their own.
type Result struct {
	Currency string `json:"currency"`
	AsOf     string `json:"as_of"`
	// Rounding states how displayed amounts are rounded.
	Rounding string `json:"rounding"`
	// Problems are the refused inputs (Compute still computes what it can).
	Problems FieldErrors `json:"problems"`

	// Objective is the objective in force after the amendments, and
	// ObjectiveText it in the objective syntax.
	Objective     Objective `json:"objective"`
	ObjectiveText string    `json:"objective_text"`
	// ObjectiveLoosened is true when an amendment loosened the objective
	// after results existed; Loosening names each loosened term.
	ObjectiveLoosened bool              `json:"objective_loosened"`
	Loosening         []string          `json:"loosening"`
	Amendments        []AmendmentResult `json:"amendments"`

	// Matrix is the rows ordered by load, each with its verdict.
	Matrix []RowResult `json:"matrix"`
	// ContractWarnings are matrix-wide findings (e.g. rows of several load
	// kinds, duplicate loads).
	ContractWarnings []Warning      `json:"contract_warnings"`
	Envelope         Envelope       `json:"envelope"`
	Admission        Admission      `json:"admission"`
	Overload         OverloadResult `json:"overload"`

	Candidates Comparison `json:"candidates"`
	Residency  Residency  `json:"residency"`

	SelfHosted SelfHostedCost   `json:"self_hosted"`
	Quotes     []QuoteCost      `json:"quotes"`
	Capacity   Capacity         `json:"capacity"`
	Scenarios  []ScenarioResult `json:"scenarios"`
	Crossovers []Crossover      `json:"crossovers"`
	Chart      CostChart        `json:"chart"`

	// Evidence lists every typed cost Figure with its age; Stale counts
	// the stale or undated ones.
	Evidence       []Evidence `json:"evidence"`
	StaleAfterDays int        `json:"stale_after_days"`
	Stale          int        `json:"stale"`

	Recommendation *Recommendation `json:"recommendation"`

	ExitCheck []ExitItem `json:"exit_check"`
	ExitPass  bool       `json:"exit_pass"`
}

// AmendmentResult is one amendment as the report shows it, with whether it
// loosened the objective and whether that happened after results existed.
type AmendmentResult struct {
	Amendment Amendment `json:"amendment"`
	Loosened  bool      `json:"loosened"`
	// LoosenedAfterResults is the flag every reader must see.
	LoosenedAfterResults bool     `json:"loosened_after_results"`
	Details              []string `json:"details"`
}

// Compute produces the report from its inputs. It never fails: refused
// inputs are listed in Result.Problems and the parts they feed are left
// empty or marked, while everything else is still computed.
func Compute(in Inputs) Result {
	r := Result{
		Currency: in.Currency,
		AsOf:     in.AsOf,
		Rounding: RoundingRule,
	}
	return r
}
