package planner

import (
	"fmt"

	"github.com/shopspring/decimal"
)

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
	// Field is the input's key and Label its name for people (FieldLabel).
	Field        string `json:"field"`
	Label        string `json:"label"`
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

var (
	thousand = decimal.NewFromInt(1000)
	million  = decimal.NewFromInt(1_000_000)
)

// amount returns a Figure's amount and whether it was typed.
func amount(f *Figure) (decimal.Decimal, bool) {
	if f == nil {
		return decimal.Zero, false
	}
	return f.Amount, true
}

// orDefault returns the Figure's amount, or def when not typed.
func orDefault(f *Figure, def int64) decimal.Decimal {
	if f == nil {
		return decimal.NewFromInt(def)
	}
	return f.Amount
}

// ev cites a Figure as evidence under its field name; AgeDays and Stale are
// filled later by ageEvidence.
func ev(field string, f *Figure) []Evidence {
	if f == nil {
		return nil
	}
	return []Evidence{{Field: field, Label: FieldLabel(field), Amount: f.Amount.String(), Unit: f.Unit, Source: f.Source, EvidenceDate: f.EvidenceDate}}
}

// SelfHostedMonthly computes the monthly cost of one self-hosted box from
// its categories. measuredWatts is the ceiling row's observed power, used in
// place of the typed watts when known.
func SelfHostedMonthly(s SelfHostedCosts, measuredWatts *float64) SelfHostedCost {
	var out SelfHostedCost
	add := func(cat, label string, v decimal.Decimal, typed bool, basis string, evidence ...[]Evidence) {
		l := CostLine{Category: cat, Label: label, Monthly: NewMoney(v), Typed: typed, Basis: basis}
		for _, e := range evidence {
			l.Evidence = append(l.Evidence, e...)
		}
		if !typed {
			l.Basis = "not typed"
		}
		out.Lines = append(out.Lines, l)
	}

	// Equipment: purchase over depreciation, or rent per hour x hours.
	switch s.EquipmentMode {
	case "rent":
		rate, typed := amount(s.RentPerHour)
		hours := orDefault(s.RentHoursPerMonth, HoursPerMonth)
		add("equipment", "Equipment (rent)", rate.Mul(hours), typed,
			fmt.Sprintf("%s %s x %s h", rate, unitOf(s.RentPerHour, "per h"), hours), ev("self_hosted.rent_per_hour", s.RentPerHour), ev("self_hosted.rent_hours_per_month", s.RentHoursPerMonth))
	default:
		price, typed := amount(s.PurchasePrice)
		v := decimal.Zero
		if s.DepreciationMonths > 0 {
			v = price.Div(decimal.NewFromInt(int64(s.DepreciationMonths)))
		} else {
			typed = false
		}
		add("equipment", "Equipment (purchase, depreciated)", v, typed,
			fmt.Sprintf("%s / %d months", price, s.DepreciationMonths), ev("self_hosted.purchase_price", s.PurchasePrice))
	}

	// Power: watts x hours / 1000 x price per kWh x PUE.
	var watts decimal.Decimal
	wattsKnown := true
	wattsEv := ev("self_hosted.power_watts", s.PowerWatts)
	switch {
	case measuredWatts != nil:
		watts = decimal.NewFromFloat(*measuredWatts)
		out.PowerWatts = F(*measuredWatts)
		out.PowerWattsSource = "measured at the ceiling row"
		wattsEv = nil
	case s.PowerWatts != nil:
		watts = s.PowerWatts.Amount
		out.PowerWatts = F(watts.InexactFloat64())
		out.PowerWattsSource = "typed"
	default:
		wattsKnown = false
		out.PowerWattsSource = "unknown"
	}
	price, priceTyped := amount(s.PowerPricePerKWh)
	pue := orDefault(s.PUE, 1)
	hours := orDefault(s.PowerHoursPerMonth, HoursPerMonth)
	add("power", "Power", watts.Mul(hours).Div(thousand).Mul(price).Mul(pue), wattsKnown && priceTyped,
		fmt.Sprintf("%s W x %s h / 1000 x %s %s x %s PUE", watts, hours, price, unitOf(s.PowerPricePerKWh, "per kWh"), pue),
		wattsEv, ev("self_hosted.power_price_per_kwh", s.PowerPricePerKWh), ev("self_hosted.pue", s.PUE), ev("self_hosted.power_hours_per_month", s.PowerHoursPerMonth))

	for _, c := range []struct {
		cat, label string
		f          *Figure
	}{
		{"facilities", "Facilities", s.Facilities},
		{"hosting", "Hosting", s.Hosting},
		{"support", "Support", s.Support},
		{"software", "Software", s.Software},
		{"monitoring", "Monitoring", s.Monitoring},
		{"backup", "Backup", s.Backup},
	} {
		v, typed := amount(c.f)
		add(c.cat, c.label, v, typed, "monthly", ev("self_hosted."+c.cat, c.f))
	}

	// Operator labour: hours x loaded rate; never optional.
	lh, hTyped := amount(s.LabourHoursPerMonth)
	lr, rTyped := amount(s.LabourRate)
	out.LabourTyped = hTyped && rTyped
	labour := lh.Mul(lr)
	out.LabourTypedZero = out.LabourTyped && labour.IsZero()
	add("labour", "Operator labour", labour, out.LabourTyped, fmt.Sprintf("%s h x %s %s loaded", lh, lr, unitOf(s.LabourRate, "per h")),
		ev("self_hosted.labour_hours_per_month", s.LabourHoursPerMonth), ev("self_hosted.labour_rate", s.LabourRate))
	if out.LabourTypedZero {
		out.Notes = append(out.Notes, "labour typed as zero: a stated choice, not an omission")
	}

	v, typed := amount(s.DowntimeAllowance)
	add("downtime", "Expected downtime allowance", v, typed, "monthly", ev("self_hosted.downtime_allowance", s.DowntimeAllowance))

	total := decimal.Zero
	for _, l := range out.Lines {
		total = total.Add(l.Monthly.Exact)
		if !l.Typed {
			out.Notes = append(out.Notes, l.Label+" not typed: counted as zero")
		}
	}
	out.FixedPerBox = NewMoney(total)
	vl, _ := amount(s.PerRequest)
	out.PerRequest = NewMoney(vl)
	return out
}

// QuoteMonthly prices one API quote: the fixed monthly charges, and the
// price per request from the tokens per request, inflated by the expected
// retry or failure rate.
func QuoteMonthly(q Quote, inTokens, outTokens float64, basis string) QuoteCost {
	qc := QuoteCost{Name: q.Name, Provider: q.Provider, Model: q.Model, InputTokens: inTokens, OutputTokens: outTokens, TokenBasis: basis}
	fixed := decimal.Zero
	for _, c := range []struct {
		cat, label string
		f          *Figure
	}{
		{"platform", "Platform charges", q.Platform},
		{"storage_network", "Storage, network and egress", q.StorageNetwork},
		{"support", "Support", q.Support},
		{"integration_labour", "Integration labour", q.IntegrationLabour},
		{"monitoring", "Monitoring", q.Monitoring},
	} {
		v, typed := amount(c.f)
		basis := "monthly"
		if !typed {
			basis = "not charged"
		}
		qc.Lines = append(qc.Lines, CostLine{Category: c.cat, Label: c.label, Monthly: NewMoney(v), Typed: typed, Basis: basis, Evidence: ev(quoteField(q, c.cat), c.f)})
		fixed = fixed.Add(v)
	}
	qc.Fixed = NewMoney(fixed)

	in, inTyped := amount(q.InputPerMTokens)
	out, outTyped := amount(q.OutputPerMTokens)
	retry, _ := amount(q.RetryRate)
	inT, outT := decimal.NewFromFloat(inTokens), decimal.NewFromFloat(outTokens)
	per := inT.Mul(in).Add(outT.Mul(out)).Div(million).Mul(decimal.NewFromInt(1).Add(retry))
	qc.PerRequest = NewMoney(per)
	qc.PerRequestBasis = fmt.Sprintf("(%s input tokens x %s + %s output tokens x %s) / 1M x (1 + %s retry/failure)", inT, in, outT, out, retry)
	if !inTyped || !outTyped {
		qc.Notes = append(qc.Notes, "token prices not typed: counted as zero")
	}
	return qc
}

func quoteField(q Quote, cat string) string {
	return fmt.Sprintf("quotes[%s].%s", q.Name, cat)
}

// quoteEvidence lists the evidence of a quote's per-request prices.
func quoteEvidence(q Quote) []Evidence {
	var out []Evidence
	out = append(out, ev(quoteField(q, "input_per_m_tokens"), q.InputPerMTokens)...)
	out = append(out, ev(quoteField(q, "output_per_m_tokens"), q.OutputPerMTokens)...)
	out = append(out, ev(quoteField(q, "retry_rate"), q.RetryRate)...)
	return out
}

// PerBoxCapacity is what one box serves within the objective, from the
// ceiling row: its request rate times its success rate.
func PerBoxCapacity(m []RowResult, e Envelope, maxBoxes int) Capacity {
	c := Capacity{MaxBoxes: maxBoxes}
	if e.CeilingRow == nil {
		c.Reason = "no demonstrated ceiling: capacity per box unknown (" + e.Text + ")"
		return c
	}
	rr := m[*e.CeilingRow]
	rate := firstOf(rr.Row.RequestRate, rr.Row.AchievedRate)
	if rate == nil && rr.Row.LoadKind == LoadRate {
		rate = rr.Row.Load
	}
	if rate == nil || rr.SuccessRate == nil {
		c.Reason = "the ceiling row lacks its request rate or success rate: capacity per box unknown"
		return c
	}
	c.CeilingRate = F(*rate)
	c.SuccessRate = F(*rr.SuccessRate)
	c.PerBoxRate = F(*rate * *rr.SuccessRate)
	c.Basis = fmt.Sprintf("%s req/s at the ceiling x %s success = %s successful in-objective req/s per box", fmtNum(*rate), fmtPct(*rr.SuccessRate), fmtNum(*c.PerBoxRate))
	return c
}

// unitOf is the unit a figure was typed in ("EUR/kWh"), or def when it has
// none, so that the arithmetic shown names the currency.
func unitOf(f *Figure, def string) string {
	if f == nil || f.Unit == "" {
		return def
	}
	return f.Unit
}
