package planner

// SelfHostedCosts are the monthly cost inputs of one self-hosted box. Every
// category is a Figure with its evidence; a nil category is "not typed" and
// fails the exit check, a typed zero is a stated choice. All categories are
// per box: n boxes cost n times the fixed part. PerRequest is the optional
// variable cost per request (V_local).
type SelfHostedCosts struct {
	// EquipmentMode is "purchase" (PurchasePrice over DepreciationMonths)
	// or "rent" (RentPerHour x RentHoursPerMonth).
	EquipmentMode      string  `json:"equipment_mode"`
	PurchasePrice      *Figure `json:"purchase_price"`
	DepreciationMonths int     `json:"depreciation_months"`
	RentPerHour        *Figure `json:"rent_per_hour"`
	// RentHoursPerMonth defaults to HoursPerMonth (730) when nil.
	RentHoursPerMonth *Figure `json:"rent_hours_per_month"`

	// PowerWatts is the typed average draw; the ceiling row's measured
	// Observed.PowerWatts is used instead when the matrix has it.
	PowerWatts       *Figure `json:"power_watts"`
	PowerPricePerKWh *Figure `json:"power_price_per_kwh"`
	// PUE is the facility's power usage effectiveness (>= 1); nil means 1.
	PUE *Figure `json:"pue"`
	// PowerHoursPerMonth defaults to HoursPerMonth (730) when nil.
	PowerHoursPerMonth *Figure `json:"power_hours_per_month"`

	Facilities *Figure `json:"facilities"`
	Hosting    *Figure `json:"hosting"`
	Support    *Figure `json:"support"`
	Software   *Figure `json:"software"`
	Monitoring *Figure `json:"monitoring"`
	Backup     *Figure `json:"backup"`

	// Operator labour is never optional: both must be typed (zero allowed).
	LabourHoursPerMonth *Figure `json:"labour_hours_per_month"`
	LabourRate          *Figure `json:"labour_rate"` // loaded rate per hour

	DowntimeAllowance *Figure `json:"downtime_allowance"`
	// PerRequest is V_local, the variable cost per request; nil means 0.
	PerRequest *Figure `json:"per_request"`
}

// HoursPerMonth is the average month, 8,760 h / 12.
const HoursPerMonth = 730

// Quote is one API price quote: token prices, the expected retry or failure
// rate, and the monthly charges that come with the service.
type Quote struct {
	Name     string `json:"name"`
	Provider string `json:"provider"`
	Model    string `json:"model"`
	// Token prices per million tokens.
	InputPerMTokens  *Figure `json:"input_per_m_tokens"`
	OutputPerMTokens *Figure `json:"output_per_m_tokens"`
	// RetryRate is the expected share of requests paid again because of
	// retries or failures, a fraction; nil means 0.
	RetryRate *Figure `json:"retry_rate"`
	// Monthly charges; nil means not charged.
	Platform          *Figure `json:"platform"`
	StorageNetwork    *Figure `json:"storage_network"`
	Support           *Figure `json:"support"`
	IntegrationLabour *Figure `json:"integration_labour"`
	Monitoring        *Figure `json:"monitoring"`
}

// CostLine is one category of a monthly cost, with how it was computed and
// the evidence behind it.
type CostLine struct {
	// Category is a stable key: "equipment", "power", "facilities",
	// "hosting", "support", "software", "monitoring", "backup", "labour",
	// "downtime", "platform", "storage_network", "integration_labour", ...
	Category string `json:"category"`
	Label    string `json:"label"`
	Monthly  Money  `json:"monthly"`
	// Basis shows the arithmetic, e.g. "700 W x 730 h x 0.30 /kWh x 1.4 PUE".
	Basis string `json:"basis"`
	// Typed is false when the input was not entered (counted as zero).
	Typed bool `json:"typed"`
	// Evidence lists the Figures behind the line.
	Evidence []Evidence `json:"evidence"`
}

// Evidence is one input Figure as cited in the report, with its age.
type Evidence struct {
	Field        string `json:"field"`
	Amount       string `json:"amount"`
	Unit         string `json:"unit"`
	Source       string `json:"source"`
	EvidenceDate string `json:"evidence_date"`
	// AgeDays is nil when either date is missing or malformed.
	AgeDays *int `json:"age_days"`
	Stale   bool `json:"stale"`
	// Problem is set when the date is missing or malformed.
	Problem string `json:"problem,omitempty"`
}

// SelfHostedCost is the monthly all-in cost of self-hosting, split into the
// fixed cost of one box (F_local) and the cost per request (V_local).
type SelfHostedCost struct {
	Lines       []CostLine `json:"lines"`
	FixedPerBox Money      `json:"fixed_per_box"`
	PerRequest  Money      `json:"per_request"`
	// PowerWatts is the draw used for the power line and where it came
	// from: "measured at the ceiling row" or "typed".
	PowerWatts       *float64 `json:"power_watts"`
	PowerWattsSource string   `json:"power_watts_source"`
	// LabourTyped is false when labour was not entered (a report error);
	// LabourTypedZero is true when it was typed as zero on purpose.
	LabourTyped     bool     `json:"labour_typed"`
	LabourTypedZero bool     `json:"labour_typed_zero"`
	Notes           []string `json:"notes"`
}

// QuoteCost is one API quote as monthly cost: the fixed monthly charges
// (F_api) and the price per request (V_api) from the tokens per request.
type QuoteCost struct {
	Name     string `json:"name"`
	Provider string `json:"provider"`
	Model    string `json:"model"`
	// Tokens per request priced, and where they came from ("contract" or
	// "measured").
	InputTokens  float64    `json:"input_tokens"`
	OutputTokens float64    `json:"output_tokens"`
	TokenBasis   string     `json:"token_basis"`
	Lines        []CostLine `json:"lines"`
	Fixed        Money      `json:"fixed"`
	PerRequest   Money      `json:"per_request"`
	// PerRequestBasis shows the arithmetic of PerRequest.
	PerRequestBasis string   `json:"per_request_basis"`
	Notes           []string `json:"notes"`
}

// Capacity is what one box serves within the objective: the ceiling row's
// request rate times its success rate, in successful in-objective requests
// per second. Boxes are added in whole steps when the busy-hour rate passes it.
type Capacity struct {
	// PerBoxRate is nil when there is no envelope to size from.
	PerBoxRate  *float64 `json:"per_box_rate"`
	CeilingRate *float64 `json:"ceiling_rate"`
	SuccessRate *float64 `json:"success_rate"`
	// MaxBoxes is how many boxes the plan allows.
	MaxBoxes int    `json:"max_boxes"`
	Basis    string `json:"basis"`
	Reason   string `json:"reason,omitempty"`
}
