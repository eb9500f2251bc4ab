package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/shopspring/decimal"
)

// The field registry: every cost input defined once, with its key, label,
// unit, kind, bounds, whether it is required and a line of help. The forms,
// the validation, FieldLabel (hence error messages and the evidence table)
// and the workbook's input block and named ranges are all driven from the
// lists below. Adding a cost category is one entry here plus its arithmetic
// in cost.go (docs/method.md, "Costs").

// Kind is what sort of value a field holds; it decides how a form reads
// it, how the workbook formats it and the default bounds.
type Kind string

const (
	// KindMoney is an amount of the report's currency shown to the cent:
	// a monthly charge, a price per hour or per million tokens.
	KindMoney Kind = "money"
	// KindFineMoney is a small price shown to six decimals: per kWh, per
	// request.
	KindFineMoney Kind = "fine_money"
	// KindQuantity is a number in its own unit: watts, hours, a ratio.
	KindQuantity Kind = "quantity"
	// KindFraction is a share typed as a fraction (0.02 = 2 %).
	KindFraction Kind = "fraction"
	// KindMonths is a whole number of months (not a Figure).
	KindMonths Kind = "months"
	// KindChoice is one of Field.Options (not a Figure).
	KindChoice Kind = "choice"
)

// IsFigure reports whether a field of this kind is a Figure: an amount
// with its unit, source and evidence date.
func (k Kind) IsFigure() bool {
	switch k {
	case KindMoney, KindFineMoney, KindQuantity, KindFraction:
		return true
	}
	return false
}

// Bound is a limit on a field's amount. Msg is the refusal; a %s in it is
// replaced by the amount typed.
type Bound struct {
	Value decimal.Decimal
	// Strict excludes Value itself.
	Strict bool
	Msg    string
}

// Field is one input as the forms, the validation, the labels and the
// workbook know it.
type Field struct {
	// Group and Name make the key, Group+"."+Name: "self_hosted" or
	// "quote" (a quote in a report is "quotes[i]").
	Group, Name string
	// Label names the input for people, everywhere: forms, error
	// messages, the evidence table, the workbook.
	Label string
	// Short is the name a form shows beside the unit when Label already
	// says the unit ("Input tokens price" beside "EUR/1M tokens"); Label
	// when empty.
	Short string
	// Unit is the usual unit; "CUR" stands for the report's currency.
	Unit string
	Kind Kind
	// Help is one line shown beside the input ("blank means 730").
	Help string
	// Required is the refusal when the input is not typed; "" means the
	// input is optional.
	Required string
	// Min and Max bound the amount. A Figure kind without Min refuses
	// negative amounts.
	Min, Max *Bound
	// Options are the choices of a KindChoice field; a blank value is
	// allowed (the first option applies).
	Options []string
	// Charge marks a quote's fixed monthly charge: a cost line of its own,
	// summed into the quote's fixed cost (F_api).
	Charge bool
	// Sheet is the workbook's named range for the input cell (a quote's is
	// prefixed "Quote1_", "Quote2_", ...).
	Sheet string
	// Modes are the equipment modes (EquipPurchase, ...) the field
	// belongs to; a form shows it only under one of them. Empty: every
	// mode.
	Modes []string
	// Power marks an input of the power line, which a rent that includes
	// power makes moot.
	Power bool
	// OwnEvidence marks a figure that keeps its own source and evidence
	// date in a form whose other figures share one (a ledger total beside
	// the selling prices); both are required with it.
	OwnEvidence bool
}

// rentedModes are the equipment modes that rent the box.
var rentedModes = []string{EquipRent, EquipCommitted, EquipSpot}

// ShownFor reports whether a form shows the field for an equipment mode
// ("" is a purchase) and whether the rent includes power.
func (f Field) ShownFor(mode string, powerInRent bool) bool {
	if mode == "" {
		mode = EquipPurchase
	}
	if f.Power && powerInRent {
		return false
	}
	return len(f.Modes) == 0 || slices.Contains(f.Modes, mode)
}

// Key is the field's key in the forms and in FieldError.Field.
func (f Field) Key() string { return f.Group + "." + f.Name }

// FormLabel is the label a form shows next to the unit.
func (f Field) FormLabel() string {
	if f.Short != "" {
		return f.Short
	}
	return f.Label
}

// InputField is a Field of a record T with the address of its value in a
// T: Figure for the Figure kinds, Int for KindMonths, Text for KindChoice.
type InputField[T any] struct {
	Field
	Figure func(*T) **Figure
	Int    func(*T) *int
	Text   func(*T) *string
}

var nonNegativeBound = &Bound{Value: decimal.Zero, Msg: "must not be negative, got %s"}

func atMost(v int64, msg string) *Bound  { return &Bound{Value: decimal.NewFromInt(v), Msg: msg} }
func atLeast(v int64, msg string) *Bound { return &Bound{Value: decimal.NewFromInt(v), Msg: msg} }
func below(v int64, msg string) *Bound {
	return &Bound{Value: decimal.NewFromInt(v), Strict: true, Msg: msg}
}

const labourRequired = "operator labour must be typed (a typed zero is allowed)"

var monthHours = atMost(744, "a month has at most 744 hours")

const (
	spotFraction  = "a fraction from 0 to 1 (0.1 = 10 %%), got %s"
	quoteFraction = "a fraction from 0 to 1 (0.3 = 30 %%), got %s"
)

// SelfHostedFields are the inputs of SelfHostedCosts, in the order the
// form, the evidence and the workbook list them (docs/method.md, "Costs").
var SelfHostedFields = []InputField[SelfHostedCosts]{
	{Field: Field{Name: "equipment_mode", Label: "Equipment (purchase, rent, committed or spot)", Kind: KindChoice,
		Options: []string{EquipPurchase, EquipRent, EquipCommitted, EquipSpot}, Sheet: "SH_Equipment_Mode"},
		Text: func(s *SelfHostedCosts) *string { return &s.EquipmentMode }},
	{Field: Field{Name: "purchase_price", Label: "Equipment purchase price", Unit: "CUR", Kind: KindMoney, Help: "when bought: spread over the depreciation months", Modes: []string{EquipPurchase}, Sheet: "SH_Purchase_Price"},
		Figure: func(s *SelfHostedCosts) **Figure { return &s.PurchasePrice }},
	{Field: Field{Name: "depreciation_months", Label: "Depreciation (months)", Unit: "months", Kind: KindMonths, Modes: []string{EquipPurchase}, Sheet: "SH_Depreciation_Months"},
		Int: func(s *SelfHostedCosts) *int { return &s.DepreciationMonths }},
	{Field: Field{Name: "residual_value", Label: "Residual value", Unit: "CUR", Kind: KindMoney, Help: "when bought: worth at the end of depreciation", Modes: []string{EquipPurchase}, Sheet: "SH_Residual_Value"},
		Figure: func(s *SelfHostedCosts) **Figure { return &s.ResidualValue }},
	{Field: Field{Name: "cost_of_capital", Label: "Cost of capital", Unit: "fraction/year", Kind: KindFraction, Help: "when bought: annual rate; typed makes depreciation an annuity",
		Max: below(1, "an annual rate as a fraction below 1 (0.06 = 6 %%), got %s"), Modes: []string{EquipPurchase}, Sheet: "SH_Cost_Of_Capital"},
		Figure: func(s *SelfHostedCosts) **Figure { return &s.CostOfCapital }},
	{Field: Field{Name: "rent_per_hour", Label: "Equipment rent per hour", Unit: "CUR/h", Kind: KindMoney, Help: "when rented", Modes: []string{EquipRent}, Sheet: "SH_Rent_Per_Hour"},
		Figure: func(s *SelfHostedCosts) **Figure { return &s.RentPerHour }},
	{Field: Field{Name: "rent_hours_per_month", Label: "Rented hours per month", Unit: "h/month", Kind: KindQuantity, Help: "blank means 730", Max: monthHours, Modes: []string{EquipRent, EquipSpot}, Sheet: "SH_Rent_Hours_Per_Month"},
		Figure: func(s *SelfHostedCosts) **Figure { return &s.RentHoursPerMonth }},
	{Field: Field{Name: "commit_term_months", Label: "Commitment term (months)", Unit: "months", Kind: KindMonths, Help: "committed rent", Modes: []string{EquipCommitted}, Sheet: "SH_Commit_Term_Months"},
		Int: func(s *SelfHostedCosts) *int { return &s.CommitTermMonths }},
	{Field: Field{Name: "commit_monthly", Label: "Committed rent per month", Unit: "CUR/month", Kind: KindMoney, Help: "committed rent", Modes: []string{EquipCommitted}, Sheet: "SH_Commit_Monthly"},
		Figure: func(s *SelfHostedCosts) **Figure { return &s.CommitMonthly }},
	{Field: Field{Name: "commit_upfront", Label: "Committed rent paid upfront", Unit: "CUR", Kind: KindMoney, Help: "committed rent: spread over the term", Modes: []string{EquipCommitted}, Sheet: "SH_Commit_Upfront"},
		Figure: func(s *SelfHostedCosts) **Figure { return &s.CommitUpfront }},
	{Field: Field{Name: "spot_per_hour", Label: "Spot rent per hour", Unit: "CUR/h", Kind: KindMoney, Help: "spot rent", Modes: []string{EquipSpot}, Sheet: "SH_Spot_Per_Hour"},
		Figure: func(s *SelfHostedCosts) **Figure { return &s.SpotPerHour }},
	{Field: Field{Name: "spot_interrupted_share", Label: "Spot hours interrupted", Unit: "fraction", Kind: KindFraction, Help: "spot rent: 0.1 = 10 % of hours",
		Max: atMost(1, spotFraction), Modes: []string{EquipSpot}, Sheet: "SH_Spot_Interrupted_Share"},
		Figure: func(s *SelfHostedCosts) **Figure { return &s.SpotInterruptedShare }},
	{Field: Field{Name: "spot_fallback_per_hour", Label: "Fallback rent per interrupted hour", Unit: "CUR/h", Kind: KindMoney, Help: "spot rent", Modes: []string{EquipSpot}, Sheet: "SH_Spot_Fallback_Per_Hour"},
		Figure: func(s *SelfHostedCosts) **Figure { return &s.SpotFallbackPerHour }},
	{Field: Field{Name: "spot_extra_capacity", Label: "Extra capacity held against interruptions", Unit: "fraction", Kind: KindFraction, Help: "spot rent: 0.2 = 20 % more",
		Max: atMost(1, spotFraction), Modes: []string{EquipSpot}, Sheet: "SH_Spot_Extra_Capacity"},
		Figure: func(s *SelfHostedCosts) **Figure { return &s.SpotExtraCapacity }},
	{Field: Field{Name: "rent_includes_power", Label: "Rent includes power", Kind: KindChoice, Options: []string{"no", "yes"},
		Help: "yes: the rent pays the power, so the power line is zero by choice", Modes: rentedModes, Sheet: "SH_Rent_Includes_Power"},
		Text: func(s *SelfHostedCosts) *string { return &s.RentIncludesPower }},
	{Field: Field{Name: "power_watts", Label: "Power draw", Unit: "W", Kind: KindQuantity, Help: "used when the ceiling row has no measured watts", Power: true, Sheet: "SH_Power_Watts"},
		Figure: func(s *SelfHostedCosts) **Figure { return &s.PowerWatts }},
	{Field: Field{Name: "power_idle_watts", Label: "Idle power draw", Unit: "W", Kind: KindQuantity,
		Help: "the box with the model loaded and no requests; known, power is priced by use: idle watts for idle time, measured watts for busy time", Power: true, Sheet: "SH_Power_Idle_Watts"},
		Figure: func(s *SelfHostedCosts) **Figure { return &s.PowerIdleWatts }},
	{Field: Field{Name: "power_price_per_kwh", Label: "Power price per kWh", Unit: "CUR/kWh", Kind: KindFineMoney, Power: true, Sheet: "SH_Power_Price_Per_kWh"},
		Figure: func(s *SelfHostedCosts) **Figure { return &s.PowerPricePerKWh }},
	{Field: Field{Name: "pue", Label: "PUE (power usage effectiveness)", Unit: "ratio", Kind: KindQuantity, Help: "at least 1; blank means 1",
		Min: atLeast(1, "power usage effectiveness is at least 1, got %s"), Power: true, Sheet: "SH_PUE"},
		Figure: func(s *SelfHostedCosts) **Figure { return &s.PUE }},
	{Field: Field{Name: "power_hours_per_month", Label: "Powered hours per month", Unit: "h/month", Kind: KindQuantity, Help: "blank means 730", Max: monthHours, Power: true, Sheet: "SH_Power_Hours_Per_Month"},
		Figure: func(s *SelfHostedCosts) **Figure { return &s.PowerHoursPerMonth }},
	{Field: Field{Name: "facilities", Label: "Facilities", Unit: "CUR/month", Kind: KindMoney, Sheet: "SH_Facilities"},
		Figure: func(s *SelfHostedCosts) **Figure { return &s.Facilities }},
	{Field: Field{Name: "hosting", Label: "Hosting", Unit: "CUR/month", Kind: KindMoney, Sheet: "SH_Hosting"},
		Figure: func(s *SelfHostedCosts) **Figure { return &s.Hosting }},
	{Field: Field{Name: "support", Label: "Self-hosted support", Unit: "CUR/month", Kind: KindMoney, Sheet: "SH_Support"},
		Figure: func(s *SelfHostedCosts) **Figure { return &s.Support }},
	{Field: Field{Name: "software", Label: "Software", Unit: "CUR/month", Kind: KindMoney, Sheet: "SH_Software"},
		Figure: func(s *SelfHostedCosts) **Figure { return &s.Software }},
	{Field: Field{Name: "monitoring", Label: "Self-hosted monitoring", Unit: "CUR/month", Kind: KindMoney, Sheet: "SH_Monitoring"},
		Figure: func(s *SelfHostedCosts) **Figure { return &s.Monitoring }},
	{Field: Field{Name: "backup", Label: "Backup", Unit: "CUR/month", Kind: KindMoney, Sheet: "SH_Backup"},
		Figure: func(s *SelfHostedCosts) **Figure { return &s.Backup }},
	{Field: Field{Name: "labour_hours_per_month", Label: "Operator labour hours per month", Unit: "h/month", Kind: KindQuantity,
		Help: "required: type 0 if none is spent", Required: labourRequired, Sheet: "SH_Labour_Hours_Per_Month"},
		Figure: func(s *SelfHostedCosts) **Figure { return &s.LabourHoursPerMonth }},
	{Field: Field{Name: "labour_rate", Label: "Operator labour loaded rate", Unit: "CUR/h", Kind: KindMoney,
		Help: "required: type 0 if none is spent", Required: labourRequired, Sheet: "SH_Labour_Rate"},
		Figure: func(s *SelfHostedCosts) **Figure { return &s.LabourRate }},
	{Field: Field{Name: "downtime_allowance", Label: "Expected downtime allowance", Unit: "CUR/month", Kind: KindMoney, Sheet: "SH_Downtime_Allowance"},
		Figure: func(s *SelfHostedCosts) **Figure { return &s.DowntimeAllowance }},
	{Field: Field{Name: "per_request", Label: "Variable cost per request (V_local)", Unit: "CUR/request", Kind: KindFineMoney, Help: "blank means 0", Sheet: "SH_Per_Request"},
		Figure: func(s *SelfHostedCosts) **Figure { return &s.PerRequest }},
	{Field: Field{Name: "gpus_per_box", Label: "GPUs per box", Unit: "GPUs", Kind: KindQuantity, Help: "blank: from the contract's device (\"1x H100\"), else 1",
		Min: &Bound{Value: decimal.Zero, Strict: true, Msg: "a box holds at least part of a GPU: must be above 0, got %s"}, Sheet: "SH_GPUs_Per_Box"},
		Figure: func(s *SelfHostedCosts) **Figure { return &s.GPUsPerBox }},
	{Field: Field{Name: "gpu_hour_price", Label: "GPU-hour price for the frontier comparison", Short: "GPU-hour price", Unit: "CUR/GPU-h", Kind: KindMoney,
		Help: "blank: the box's equipment and power per hour over its GPUs", Sheet: "SH_GPU_Hour_Price"},
		Figure: func(s *SelfHostedCosts) **Figure { return &s.GPUHourPrice }},
}

// QuoteFields are a quote's prices and monthly charges. The quote's name,
// provider and model, and the library's currency, source and date, are the
// quote's identity rather than cost inputs.
var QuoteFields = []InputField[Quote]{
	{Field: Field{Name: "input_per_m_tokens", Label: "Input price per 1M tokens", Short: "Input tokens price", Unit: "CUR/1M tokens", Kind: KindMoney,
		Help: "per million input tokens", Required: "required", Sheet: "Price_Input_Per_M"},
		Figure: func(q *Quote) **Figure { return &q.InputPerMTokens }},
	{Field: Field{Name: "output_per_m_tokens", Label: "Output price per 1M tokens", Short: "Output tokens price", Unit: "CUR/1M tokens", Kind: KindMoney,
		Help: "per million output tokens", Required: "required", Sheet: "Price_Output_Per_M"},
		Figure: func(q *Quote) **Figure { return &q.OutputPerMTokens }},
	{Field: Field{Name: "retry_rate", Label: "Expected retry/failure rate", Unit: "fraction", Kind: KindFraction, Help: "r, the share of attempts that fail and are retried until they succeed: a success costs 1 / (1 - r) attempts (0.02 = 2 %)",
		Max: below(1, "a fraction below 1 (0.02 = 2 %%), got %s"), Sheet: "Retry_Rate"},
		Figure: func(q *Quote) **Figure { return &q.RetryRate }},
	{Field: Field{Name: "cached_input_per_m_tokens", Label: "Cached input price per 1M tokens", Short: "Cached input tokens price", Unit: "CUR/1M tokens", Kind: KindMoney,
		Help: "per million input tokens served from the prompt cache", Sheet: "Price_Cached_Input_Per_M"},
		Figure: func(q *Quote) **Figure { return &q.CachedInputPerMTokens }},
	{Field: Field{Name: "cache_hit_share", Label: "Cache-hit share of input tokens", Unit: "fraction", Kind: KindFraction, Help: "0.3 = 30 % of input tokens",
		Max: atMost(1, quoteFraction), Sheet: "Cache_Hit_Share"},
		Figure: func(q *Quote) **Figure { return &q.CacheHitShare }},
	{Field: Field{Name: "reasoning_tokens", Label: "Reasoning tokens per request", Unit: "tokens", Kind: KindQuantity, Help: "hidden tokens billed as output", Sheet: "Reasoning_Tokens"},
		Figure: func(q *Quote) **Figure { return &q.ReasoningTokens }},
	{Field: Field{Name: "batch_discount", Label: "Batch discount", Unit: "fraction", Kind: KindFraction, Help: "0.5 = half price for batch traffic",
		Max: atMost(1, quoteFraction), Sheet: "Batch_Discount"},
		Figure: func(q *Quote) **Figure { return &q.BatchDiscount }},
	{Field: Field{Name: "batch_share", Label: "Batch share of traffic", Unit: "fraction", Kind: KindFraction, Help: "share eligible for the batch discount",
		Max: atMost(1, quoteFraction), Sheet: "Batch_Share"},
		Figure: func(q *Quote) **Figure { return &q.BatchShare }},
	{Field: Field{Name: "per_request_price", Label: "Price per request", Unit: "CUR/request", Kind: KindFineMoney, Help: "on top of tokens", Sheet: "Price_Per_Request"},
		Figure: func(q *Quote) **Figure { return &q.PerRequestPrice }},
	{Field: Field{Name: "minimum_monthly", Label: "Minimum monthly commitment", Unit: "CUR/month", Kind: KindMoney, Help: "usage below it is billed as the minimum", Sheet: "Minimum_Monthly"},
		Figure: func(q *Quote) **Figure { return &q.MinimumMonthly }},
	{Field: Field{Name: "token_multiplier", Label: "Tokenizer multiplier", Unit: "ratio", Kind: KindQuantity, Help: "1.15 = counts 15 % more tokens; blank means 1",
		Min: &Bound{Value: decimal.Zero, Strict: true, Msg: "must be above 0 (1.15 = 15 %% more tokens), got %s"}, Sheet: "Token_Multiplier"},
		Figure: func(q *Quote) **Figure { return &q.TokenMultiplier }},
	{Field: Field{Name: "platform", Label: "Platform charges", Unit: "CUR/month", Kind: KindMoney, Charge: true, Sheet: "Platform"},
		Figure: func(q *Quote) **Figure { return &q.Platform }},
	{Field: Field{Name: "storage_network", Label: "Storage, network and egress", Unit: "CUR/month", Kind: KindMoney, Charge: true, Sheet: "Storage_Network"},
		Figure: func(q *Quote) **Figure { return &q.StorageNetwork }},
	{Field: Field{Name: "support", Label: "Support", Unit: "CUR/month", Kind: KindMoney, Charge: true, Sheet: "Support"},
		Figure: func(q *Quote) **Figure { return &q.Support }},
	{Field: Field{Name: "integration_labour", Label: "Integration labour", Unit: "CUR/month", Kind: KindMoney, Charge: true, Sheet: "Integration_Labour"},
		Figure: func(q *Quote) **Figure { return &q.IntegrationLabour }},
	{Field: Field{Name: "monitoring", Label: "Monitoring", Unit: "CUR/month", Kind: KindMoney, Charge: true, Sheet: "Monitoring"},
		Figure: func(q *Quote) **Figure { return &q.Monitoring }},
}

// ProviderFields are the provider view's inputs: the selling prices, the
// expected utilisation and what overrides the measured figures
// (docs/method.md, "Provider view").
var ProviderFields = []InputField[ProviderInputs]{
	{Field: Field{Name: "input_per_m_tokens", Label: "Selling price per 1M input tokens", Short: "Input tokens selling price", Unit: "CUR/1M tokens", Kind: KindMoney,
		Required: "required: the price per million input tokens you sell at", Sheet: "Provider_Price_Input_Per_M"},
		Figure: func(p *ProviderInputs) **Figure { return &p.InputPerMTokens }},
	{Field: Field{Name: "output_per_m_tokens", Label: "Selling price per 1M output tokens", Short: "Output tokens selling price", Unit: "CUR/1M tokens", Kind: KindMoney,
		Required: "required: the price per million output tokens you sell at", Sheet: "Provider_Price_Output_Per_M"},
		Figure: func(p *ProviderInputs) **Figure { return &p.OutputPerMTokens }},
	{Field: Field{Name: "expected_utilisation", Label: "Expected utilisation (share of capacity sold)", Short: "Expected utilisation", Unit: "fraction", Kind: KindFraction,
		Help: "0.62 = 62 % of capacity; blank: no margin stated", Max: atMost(1, "a share of capacity from 0 to 1 (0.62 = 62 %%), got %s"), Sheet: "Provider_Expected_Utilisation"},
		Figure: func(p *ProviderInputs) **Figure { return &p.ExpectedUtilisation }},
	{Field: Field{Name: "capacity_rate", Label: "Capacity sold at full utilisation (successful req/s)", Short: "Capacity sold", Unit: "req/s", Kind: KindQuantity,
		Help: "blank: the measured capacity", Sheet: "Provider_Capacity_Rate"},
		Figure: func(p *ProviderInputs) **Figure { return &p.CapacityRate }},
	{Field: Field{Name: "input_tokens", Label: "Input tokens per request", Unit: "tokens", Kind: KindQuantity, Help: "blank: as priced for quotes", Sheet: "Provider_Input_Tokens"},
		Figure: func(p *ProviderInputs) **Figure { return &p.InputTokens }},
	{Field: Field{Name: "output_tokens", Label: "Output tokens per request", Unit: "tokens", Kind: KindQuantity, Help: "blank: as priced for quotes", Sheet: "Provider_Output_Tokens"},
		Figure: func(p *ProviderInputs) **Figure { return &p.OutputTokens }},
	{Field: Field{Name: "hours_per_month", Label: "Selling hours a month", Unit: "h/month", Kind: KindQuantity, Help: "blank means 730", Max: monthHours, Sheet: "Provider_Hours"},
		Figure: func(p *ProviderInputs) **Figure { return &p.HoursPerMonth }},
	{Field: Field{Name: "billed_revenue", Label: "Billed revenue over the selling hours (ledger total)", Short: "Billed revenue (ledger total)", Unit: "CUR", Kind: KindMoney,
		Help: "blank: no ledger total", Sheet: "Provider_Billed_Revenue", OwnEvidence: true},
		Figure: func(p *ProviderInputs) **Figure { return &p.BilledRevenue }},
}

func init() {
	for i := range ProviderFields {
		ProviderFields[i].Group = "provider"
	}
	prefixGroups["provider"] = map[string]string{"currency": "currency of the selling prices"}
	addLabels(prefixGroups["provider"], ProviderFields)
	for i := range SelfHostedFields {
		SelfHostedFields[i].Group = "self_hosted"
	}
	for i := range QuoteFields {
		QuoteFields[i].Group = "quote"
	}
	prefixGroups["self_hosted"] = map[string]string{
		"source": "source of every cost line (unless a line gives its own)", "evidence_date": "date of every cost line (unless a line gives its own)",
	}
	addLabels(prefixGroups["self_hosted"], SelfHostedFields)
	addLabels(quoteFields, QuoteFields)
}

// addLabels adds the fields' labels to one of FieldLabel's groups, first
// letter lower case as they read after "Quote 1: ".
func addLabels[T any](group map[string]string, fs []InputField[T]) {
	for _, f := range fs {
		group[f.Name] = lowerFirst(f.Label)
	}
}

// lowerFirst lowers the first letter unless the word is an abbreviation
// ("PUE").
func lowerFirst(s string) string {
	if len(s) > 1 && s[1] >= 'A' && s[1] <= 'Z' {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// validateFields checks every field of rec against its registry entry:
// required, a Figure's amount within its bounds and its evidence date, a
// choice among its options. Keys are prefix+"."+Name.
func validateFields[T any](es *FieldErrors, prefix string, rec *T, fs []InputField[T]) {
	for _, f := range fs {
		key := prefix + "." + f.Name
		switch {
		case f.Figure != nil:
			fig := *f.Figure(rec)
			if fig == nil {
				if f.Required != "" {
					es.add(key, f.Required)
				}
				continue
			}
			f.checkAmount(es, key, fig.Amount)
			checkDate(es, key+".evidence_date", fig.EvidenceDate, false)
			if f.OwnEvidence {
				if strings.TrimSpace(fig.Source) == "" {
					es.add(key+".source", "required: where this figure comes from (it has its own source)")
				}
				if strings.TrimSpace(fig.EvidenceDate) == "" {
					es.add(key+".evidence_date", "required: the date of this figure (YYYY-MM-DD)")
				}
			}
			checkCurrency(es, key+".currency", fig.Currency)
		case f.Text != nil:
			v := *f.Text(rec)
			if v == "" {
				if f.Required != "" {
					es.add(key, f.Required)
				}
				continue
			}
			if len(f.Options) > 0 && !slices.Contains(f.Options, v) {
				es.add(key, fmt.Sprintf("want %s, got %q", orList(f.Options), v))
			}
		case f.Int != nil:
			n := *f.Int(rec)
			if n < 0 {
				es.add(key, fmt.Sprintf("must not be negative, got %d", n))
			}
		}
	}
}

// checkAmount refuses an amount outside the field's bounds.
func (f Field) checkAmount(es *FieldErrors, key string, a decimal.Decimal) {
	min := f.Min
	if min == nil {
		min = nonNegativeBound
	}
	if a.LessThan(min.Value) || min.Strict && a.Equal(min.Value) {
		es.add(key, boundMsg(min.Msg, a))
	}
	if m := f.Max; m != nil && (a.GreaterThan(m.Value) || m.Strict && a.Equal(m.Value)) {
		es.add(key, boundMsg(m.Msg, a))
	}
}

func boundMsg(msg string, a decimal.Decimal) string {
	if strings.Contains(strings.ReplaceAll(msg, "%%", ""), "%s") {
		return fmt.Sprintf(msg, a)
	}
	return strings.ReplaceAll(msg, "%%", "%")
}

// orList joins choices as "a, b or c".
func orList(ss []string) string {
	if len(ss) < 2 {
		return strings.Join(ss, "")
	}
	return strings.Join(ss[:len(ss)-1], ", ") + " or " + ss[len(ss)-1]
}
