package planner

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
)

// SelfHostedCosts are the monthly cost inputs of one self-hosted box. Every
// category is a Figure with its evidence; a nil category is "not typed" and
// fails the exit check, a typed zero is a stated choice. All categories are
// per box: n boxes cost n times the fixed part. PerRequest is the optional
// variable cost per request (V_local).
type SelfHostedCosts struct {
	// EquipmentMode is "purchase" (PurchasePrice less ResidualValue over
	// DepreciationMonths, as an annuity when CostOfCapital is typed),
	// "rent" (on demand: RentPerHour x RentHoursPerMonth), "committed"
	// (CommitMonthly + CommitUpfront / CommitTermMonths) or "spot"
	// (SpotPerHour with an interruption allowance); see equipment.go.
	EquipmentMode      string  `json:"equipment_mode"`
	PurchasePrice      *Figure `json:"purchase_price"`
	DepreciationMonths int     `json:"depreciation_months"`
	// ResidualValue is what the box is worth at the end of depreciation;
	// CostOfCapital the annual rate (a fraction) the money costs.
	ResidualValue *Figure `json:"residual_value,omitempty"`
	CostOfCapital *Figure `json:"cost_of_capital,omitempty"`
	RentPerHour   *Figure `json:"rent_per_hour"`
	// RentHoursPerMonth defaults to HoursPerMonth (730) when nil; it is
	// the rented hours of spot rent too.
	RentHoursPerMonth *Figure `json:"rent_hours_per_month"`
	// Committed rent: the term, the monthly commitment and any upfront
	// payment (spread over the term).
	CommitTermMonths int     `json:"commit_term_months,omitempty"`
	CommitMonthly    *Figure `json:"commit_monthly,omitempty"`
	CommitUpfront    *Figure `json:"commit_upfront,omitempty"`
	// Spot rent: the rate, the share of hours interrupted, the rate paid
	// for the interrupted share elsewhere, and the extra capacity held
	// against interruptions (fractions).
	SpotPerHour          *Figure `json:"spot_per_hour,omitempty"`
	SpotInterruptedShare *Figure `json:"spot_interrupted_share,omitempty"`
	SpotFallbackPerHour  *Figure `json:"spot_fallback_per_hour,omitempty"`
	SpotExtraCapacity    *Figure `json:"spot_extra_capacity,omitempty"`

	// Source and EvidenceDate are the section's: where its figures come
	// from and their date, unless a figure gives its own. A form fills
	// them into every figure typed without its own, so each figure keeps
	// its evidence; these only remember what the form showed once.
	Source       string `json:"source,omitempty"`
	EvidenceDate string `json:"evidence_date,omitempty"`

	// RentIncludesPower is "yes" when a rented box's rent (on demand,
	// committed or spot) includes its power: the power line is then zero
	// by choice, not "not typed"; "" or "no" when power is paid apart.
	RentIncludesPower string `json:"rent_includes_power,omitempty"`

	// PowerWatts is the typed average draw; the ceiling row's measured
	// Observed.PowerWatts is used instead when the matrix has it.
	PowerWatts *Figure `json:"power_watts"`
	// PowerIdleWatts is the box's draw with the model loaded and no
	// requests; known (typed, or from the GPU log's idle samples), power is
	// priced by use (docs/method.md, "Power by use").
	PowerIdleWatts   *Figure `json:"power_idle_watts,omitempty"`
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

	// GPUsPerBox is the GPUs one box holds (nil: read from the contract's
	// device, else 1) and GPUHourPrice a typed price of one GPU-hour (nil:
	// the box's equipment and power per hour over its GPUs); both serve
	// the frontier-comparable cost per million tokens only
	// (docs/method.md, "Cost per million tokens").
	GPUsPerBox   *Figure `json:"gpus_per_box,omitempty"`
	GPUHourPrice *Figure `json:"gpu_hour_price,omitempty"`

	// Taxes are the taxes per cost line, keyed by the line's category
	// ("equipment", "power", "hosting", ..., "per_request").
	Taxes map[string]*Tax `json:"taxes,omitempty"`
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

	// Catalogue names the public price catalogue the quote's prices were
	// read from ("" for a quote typed from an offer). Its prices go stale
	// after CatalogueStaleDays, sooner than the report's own limit when
	// that is longer: list prices move within weeks.
	Catalogue string `json:"catalogue,omitempty"`
	// Currency is the ISO 4217 code the quote's money is typed in; empty
	// means the report's. Another currency is converted with the report's
	// dated exchange rate.
	Currency string `json:"currency,omitempty"`
	// The pricing model beyond plain token prices (see pricing.go); each
	// nil means "not part of this offer".
	//
	// CachedInputPerMTokens is the price of input tokens served from the
	// provider's prompt cache, and CacheHitShare the expected share of
	// input tokens that hit it (a fraction).
	CachedInputPerMTokens *Figure `json:"cached_input_per_m_tokens,omitempty"`
	CacheHitShare         *Figure `json:"cache_hit_share,omitempty"`
	// ReasoningTokens are the hidden reasoning tokens a request generates,
	// billed as output tokens.
	ReasoningTokens *Figure `json:"reasoning_tokens,omitempty"`
	// BatchDiscount is the discount on token prices for batch traffic (a
	// fraction, 0.5 = half price) and BatchShare the share of traffic
	// eligible for it.
	BatchDiscount *Figure `json:"batch_discount,omitempty"`
	BatchShare    *Figure `json:"batch_share,omitempty"`
	// PerRequestPrice is a price per request on top of tokens.
	PerRequestPrice *Figure `json:"per_request_price,omitempty"`
	// MinimumMonthly is a minimum monthly commitment: usage charges below
	// it are billed as the minimum.
	MinimumMonthly *Figure `json:"minimum_monthly,omitempty"`
	// Tiers are volume bands: graduated token prices by the month's volume.
	Tiers []PriceTier `json:"tiers,omitempty"`
	// TokenMultiplier scales the priced token shape for this provider's
	// tokenizer (1.15 = it counts 15 % more tokens); nil means 1.
	TokenMultiplier *Figure `json:"token_multiplier,omitempty"`
	// Tax is the tax on the provider's invoice (e.g. VAT): on every charge
	// but integration labour, which is the buyer's own work.
	Tax *Tax `json:"tax,omitempty"`
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
	// Conversions are the line's money inputs typed in another currency,
	// each with its original amount and the rate used.
	Conversions []Converted `json:"conversions,omitempty"`
	// Original is the line in its quote's currency when the quote is in
	// another currency than the report's.
	Original *Converted `json:"original,omitempty"`
	// Tax is the line's tax, nil when none is typed; Monthly counts it on
	// the report's tax basis. Gross is the line with all its tax, Net
	// without its recoverable tax.
	Tax   *LineTax `json:"tax,omitempty"`
	Gross Money    `json:"gross"`
	Net   Money    `json:"net"`
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
	// Stale is true when the evidence fails the exit check's evidence
	// item: undated, older than the staleness limit, or dated after the
	// test date or the report date (Future).
	Stale  bool `json:"stale"`
	Future bool `json:"future,omitempty"`
	// Problem says what is wrong with the date.
	Problem string `json:"problem,omitempty"`
	// StaleAfterDays, when set, is this evidence's own staleness limit,
	// applied when shorter than the report's (a catalogue price's
	// CatalogueStaleDays); StaleBy names whose limit it is.
	StaleAfterDays int    `json:"stale_after_days,omitempty"`
	StaleBy        string `json:"stale_by,omitempty"`
}

// SelfHostedCost is the monthly all-in cost of self-hosting, split into the
// fixed cost of one box (F_local) and the cost per request (V_local).
type SelfHostedCost struct {
	Lines       []CostLine `json:"lines"`
	FixedPerBox Money      `json:"fixed_per_box"`
	PerRequest  Money      `json:"per_request"`
	// PowerWatts is the draw used for the power line and where it came
	// from: "measured at the ceiling row (SOURCE)", SOURCE being the row's
	// (Row.Measured), or "typed".
	PowerWatts       *float64 `json:"power_watts"`
	PowerWattsSource string   `json:"power_watts_source"`
	// Power says whether power was priced by use (idle watts for idle
	// time, measured watts for busy time) and why or why not.
	Power PowerUse `json:"power_use"`
	// LabourTyped is false when labour was not entered (a report error);
	// LabourTypedZero is true when it was typed as zero on purpose.
	LabourTyped     bool     `json:"labour_typed"`
	LabourTypedZero bool     `json:"labour_typed_zero"`
	Notes           []string `json:"notes"`
	// FixedGross and FixedNet are FixedPerBox with all tax and without
	// recoverable tax; FixedPerBox is the one on the report's basis.
	FixedGross Money `json:"fixed_gross"`
	FixedNet   Money `json:"fixed_net"`
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

	// Currency is the currency the quote is typed in; Original holds Fixed
	// and PerRequest in it, with the rate, when it is not the report's.
	Currency           string     `json:"currency"`
	FixedOriginal      *Converted `json:"fixed_original,omitempty"`
	PerRequestOriginal *Converted `json:"per_request_original,omitempty"`
	// Segments are the quote's monthly cost against monthly demand, on the
	// report's tax basis, as straight pieces: one for a plain per-token
	// price, more when volume tiers or a minimum commitment bend it.
	Segments []CostSegment `json:"segments"`
	// Excluded says why the quote is left out of scenarios, crossovers and
	// the chart (no exchange rate for its currency); empty when compared.
	Excluded string `json:"excluded,omitempty"`

	// Tokens priced per request after the tokenizer multiplier and retries.
	PricedInputTokens  decimal.Decimal `json:"priced_input_tokens"`
	PricedOutputTokens decimal.Decimal `json:"priced_output_tokens"`

	// The pre-tax pieces of the cost in the quote's currency, for
	// MonthlyAt on either tax basis.
	pre      []CostSegment
	untaxed  decimal.Decimal
	tax      *Tax
	rate     *rateUse
	taxBasis string
}

// Capacity is what one box serves within the objective: the ceiling row's
// successful requests per second times the share of them within every
// latency bound, in successful in-objective requests per second
// (PerBoxCapacity). Boxes are added in whole steps when the busy-hour rate
// passes it.
type Capacity struct {
	// PerBoxRate is nil when there is no envelope to size from.
	PerBoxRate *float64 `json:"per_box_rate"`
	// CeilingRate is the ceiling row's successful requests per second
	// (SuccessfulRate); InObjectiveShare the share of its successful
	// requests within every latency bound (1 without per-request records);
	// SuccessRate is shown beside them and is not multiplied in again.
	CeilingRate      *float64 `json:"ceiling_rate"`
	InObjectiveShare *float64 `json:"in_objective_share"`
	SuccessRate      *float64 `json:"success_rate"`
	// MaxBoxes is how many boxes the plan allows.
	MaxBoxes int    `json:"max_boxes"`
	Basis    string `json:"basis"`
	Reason   string `json:"reason,omitempty"`
	// Goodput is the ceiling row's goodput when its file carries
	// per-request records: PerBoxRate is then the successful rate times
	// the in-objective share of its successes. Without records PerBoxRate
	// is the successful rate, which counts successful requests that missed
	// a latency bound: UpperBound says so, and UpperBoundNote in words.
	Goodput        *Goodput `json:"goodput"`
	UpperBound     bool     `json:"upper_bound"`
	UpperBoundNote string   `json:"upper_bound_note,omitempty"`
	// Source names the matrix capacity, and so every cost per request and
	// the crossover, is computed from: always the report's own matrix
	// (SourceReport), the contract's baseline model. SourceText says so in
	// words, and names the candidate the comparison chooses when that is
	// another matrix, which then prices nothing.
	Source     string `json:"source"`
	SourceText string `json:"source_text"`
	// Fleet sizes boxes beyond one (BoxesNeeded, Serves); nil sizes one
	// box at a time. The result carries it as result.fleet.
	Fleet *Fleet `json:"-"`
	// Queue is the box under random arrivals (docs/method.md, "Queues in
	// the busy hour"): when present, PerBoxRate is its sustainable rate
	// times the in-objective share, and ClosedLoopPerBox what the
	// closed-loop ceiling alone would have said. QueueNote says why there
	// is no simulation when Queue is nil.
	Queue            *QueueSizing `json:"queue"`
	ClosedLoopPerBox *float64     `json:"closed_loop_per_box"`
	QueueNote        string       `json:"queue_note,omitempty"`
}

// withArrivals makes the capacity per box the rate that holds the
// objective with random arrivals (q), keeping the closed-loop figure
// beside it; without q it says why the closed-loop ceiling stands.
func (c *Capacity) withArrivals(q *QueueSizing, why string) {
	if c.PerBoxRate == nil {
		return
	}
	c.ClosedLoopPerBox = F(*c.PerBoxRate)
	if q == nil || q.SustainableRate <= 0 {
		if q != nil {
			why = "no arrival rate held the objective in the simulation: " + q.Basis
		}
		c.QueueNote = "capacity per box is the closed-loop ceiling's, not simulated with arrivals (" + why + "): near it a queue builds and users wait"
		return
	}
	c.Queue = q
	share := 1.0
	if c.InObjectiveShare != nil {
		share = *c.InObjectiveShare
	}
	rate := q.SustainableRate * share
	c.PerBoxRate = F(rate)
	c.Basis = fmt.Sprintf("%s req/s with random arrivals x %s in objective = %s successful in-objective req/s per box (closed loop: %s)",
		fmtNum(q.SustainableRate), fmtPct(share), fmtNum(rate), c.Basis)
}

// SourceReport is Capacity.Source for the report's own matrix.
const SourceReport = "report"

// costSource fills c.Source and c.SourceText: the report's matrix, whose
// model is the contract's baseline, against the candidates' choice.
func costSource(c *Capacity, model string, cmp Comparison) {
	c.Source = SourceReport
	if model == "" {
		model = "the contract's baseline model"
	}
	c.SourceText = fmt.Sprintf("Capacity and costs come from the report's own matrix (%s)", model)
	if cmp.Chosen == "" {
		return
	}
	for _, cr := range cmp.Candidates {
		if cr.Name != cmp.Chosen {
			continue
		}
		if cr.Baseline {
			c.SourceText += fmt.Sprintf(", the baseline the candidates' comparison chooses (%s)", cr.Name)
		} else {
			c.SourceText += fmt.Sprintf(", not from the matrix of %s, the candidate the comparison chooses; to cost %s, amend the contract to its model and import its run into the report", cr.Name, cr.Name)
		}
	}
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
// its categories, in the currency its figures are typed in, counting
// non-recoverable tax. measuredWatts is the ceiling row's observed power,
// used in place of the typed watts when known.
func SelfHostedMonthly(s SelfHostedCosts, measuredWatts *float64) SelfHostedCost {
	return selfHostedMonthly(s, measuredWatts, nil, TaxNet, nil)
}

// selfHostedMonthly is SelfHostedMonthly with money inputs in other
// currencies converted by conv and tax counted on basis.
// p carries what pricing power by use needs (pricePower); nil prices it
// by use only from a typed idle draw with a known service rate, that is
// never.
func selfHostedMonthly(s SelfHostedCosts, measuredWatts *float64, conv *converter, basis string, p *powerInputs) SelfHostedCost {
	var out SelfHostedCost
	// The money inputs of the line being built: converted ones, and the
	// currencies that had no rate.
	var conversions []Converted
	var unconverted []string
	money := func(field string, f *Figure) decimal.Decimal {
		if f == nil {
			return decimal.Zero
		}
		// The figure's currency: its own, else the one its unit names
		// ("USD/h"), else the report's.
		cur := figureCurrency(f, "")
		u, ok := conv.use(cur, field)
		if !ok {
			unconverted = append(unconverted, strings.ToUpper(cur))
			return decimal.Zero
		}
		if u != nil {
			conversions = append(conversions, *u.original(f.Amount))
		}
		return u.of(f.Amount)
	}
	gross, net := decimal.Zero, decimal.Zero
	add := func(cat, label string, v decimal.Decimal, typed bool, arith string, evidence ...[]Evidence) {
		l := CostLine{Category: cat, Label: label, Typed: typed, Basis: arith, Conversions: conversions}
		for _, e := range evidence {
			l.Evidence = append(l.Evidence, e...)
		}
		if t := s.Taxes[cat]; t != nil {
			l.Evidence = append(l.Evidence, ev("self_hosted.taxes."+cat+".rate", t.Rate)...)
		}
		if len(unconverted) > 0 {
			v, l.Typed = decimal.Zero, false
			l.Basis = "no exchange rate for " + strings.Join(unconverted, ", ") + ": not converted, counted as zero"
		} else if !typed {
			l.Basis = "not typed"
		}
		conversions, unconverted = nil, nil
		var monthly decimal.Decimal
		monthly, l.Tax = s.Taxes[cat].apply(v, basis)
		if l.Typed {
			l.Basis += taxText(l.Tax)
		}
		l.Monthly = NewMoney(monthly)
		g, n := grossNet(monthly, l.Tax)
		l.Gross, l.Net = NewMoney(g), NewMoney(n)
		gross, net = gross.Add(g), net.Add(n)
		out.Lines = append(out.Lines, l)
	}

	// Equipment: purchase, on-demand, committed or spot rent.
	label, v, typed, arith, evs := s.equipmentLine(money)
	add("equipment", label, v, typed, arith, evs...)

	// Power: watts x hours / 1000 x price per kWh x PUE, or by use: idle
	// watts for every hour and the watts above idle per request.
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
	var energy decimal.Decimal
	if s.PowerInRent() {
		// Paid with the rent: zero by choice, and said so; nothing by use.
		out.Power.Text = "power included in the rent: no power cost of its own"
		add("power", "Power (included in the rent)", decimal.Zero, true, "included in the rent: no power cost of its own")
	} else {
		price := money("self_hosted.power_price_per_kwh", s.PowerPricePerKWh)
		pue := orDefault(s.PUE, 1)
		hours := orDefault(s.PowerHoursPerMonth, HoursPerMonth)
		powerLine, powerArith, e := pricePower(s, watts, wattsKnown, price, pue, hours, unitOf(s.PowerPricePerKWh, "per kWh"), p, &out)
		energy = e
		idleEv := []Evidence(nil)
		if out.Power.ByUse {
			idleEv = ev("self_hosted.power_idle_watts", s.PowerIdleWatts)
		}
		add("power", "Power", powerLine, wattsKnown && s.PowerPricePerKWh != nil, powerArith,
			wattsEv, idleEv, ev("self_hosted.power_price_per_kwh", s.PowerPricePerKWh), ev("self_hosted.pue", s.PUE), ev("self_hosted.power_hours_per_month", s.PowerHoursPerMonth))
	}

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
		add(c.cat, c.label, money("self_hosted."+c.cat, c.f), c.f != nil, "monthly", ev("self_hosted."+c.cat, c.f))
	}

	// Operator labour: hours x loaded rate; never optional.
	lh, hTyped := amount(s.LabourHoursPerMonth)
	lr := money("self_hosted.labour_rate", s.LabourRate)
	out.LabourTyped = hTyped && s.LabourRate != nil
	labour := lh.Mul(lr)
	out.LabourTypedZero = out.LabourTyped && labour.IsZero()
	add("labour", "Operator labour", labour, out.LabourTyped, fmt.Sprintf("%s h x %s %s loaded", lh, lr, unitOf(s.LabourRate, "per h")),
		ev("self_hosted.labour_hours_per_month", s.LabourHoursPerMonth), ev("self_hosted.labour_rate", s.LabourRate))
	if out.LabourTypedZero {
		out.Notes = append(out.Notes, "labour typed as zero: a stated choice, not an omission")
	}

	add("downtime", "Expected downtime allowance", money("self_hosted.downtime_allowance", s.DowntimeAllowance), s.DowntimeAllowance != nil,
		"monthly", ev("self_hosted.downtime_allowance", s.DowntimeAllowance))

	total := decimal.Zero
	for _, l := range out.Lines {
		total = total.Add(l.Monthly.Exact)
		if !l.Typed {
			out.Notes = append(out.Notes, l.Label+" not typed: counted as zero")
		}
	}
	out.FixedPerBox = NewMoney(total)
	out.FixedGross, out.FixedNet = NewMoney(gross), NewMoney(net)
	vl := money("self_hosted.per_request", s.PerRequest)
	unconverted, conversions = nil, nil
	vl, _ = s.Taxes["per_request"].apply(vl, basis)
	if out.Power.ByUse && s.PowerPricePerKWh != nil {
		// The busy time's energy joins V_local, taxed as power; the sum is
		// a computed per-request price (RoundPerRequest).
		e, _ := s.Taxes["power"].apply(energy, basis)
		busy, _ := s.Taxes["power"].apply(out.Power.AlwaysBusy.Exact, basis)
		out.Power.AlwaysBusy = NewMoney(busy)
		out.Power.EnergyPerRequest = NewMoney(RoundPerRequest(e))
		vl = RoundPerRequest(vl.Add(e))
	}
	out.PerRequest = NewMoney(vl)
	return out
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
	for _, f := range []struct {
		name string
		f    *Figure
	}{
		{"cached_input_per_m_tokens", q.CachedInputPerMTokens}, {"cache_hit_share", q.CacheHitShare},
		{"reasoning_tokens", q.ReasoningTokens}, {"batch_discount", q.BatchDiscount}, {"batch_share", q.BatchShare},
		{"per_request_price", q.PerRequestPrice}, {"minimum_monthly", q.MinimumMonthly}, {"token_multiplier", q.TokenMultiplier},
	} {
		out = append(out, ev(quoteField(q, f.name), f.f)...)
	}
	for i, t := range q.Tiers {
		out = append(out, ev(quoteField(q, fmt.Sprintf("tiers[%d].input_per_m_tokens", i)), t.InputPerMTokens)...)
		out = append(out, ev(quoteField(q, fmt.Sprintf("tiers[%d].output_per_m_tokens", i)), t.OutputPerMTokens)...)
	}
	if q.Tax != nil {
		out = append(out, ev(quoteField(q, "tax.rate"), q.Tax.Rate)...)
	}
	if q.Catalogue != "" {
		for i := range out {
			out[i].StaleAfterDays, out[i].StaleBy = CatalogueStaleDays, "the "+q.Catalogue+" catalogue's limit"
		}
	}
	return out
}

// PerBoxCapacity is what one box serves within the objective, from the
// ceiling row (docs/method.md, "Capacity per box"): its successful
// in-objective requests over its measured window, counted once. That is
// its successful request rate (SuccessfulRate) times the share of its
// successful requests that met every latency bound (from its per-request
// records; without them every success counts and the capacity is an
// upper bound). Failed requests are out of the successful rate already,
// so they are never subtracted a second time. This is the one capacity
// figure the page, the API, the scenarios, the crossover and the
// workbook's formula read.
func PerBoxCapacity(m []RowResult, e Envelope, maxBoxes int, o Objective) Capacity {
	c := Capacity{MaxBoxes: maxBoxes}
	if e.CeilingRow == nil {
		c.Reason = "no demonstrated ceiling: capacity per box unknown (" + e.Text + ")"
		return c
	}
	rr := m[*e.CeilingRow]
	in := RowInObjective(rr.Row, o)
	if in.SuccessfulRate == nil {
		c.Reason = "the ceiling row lacks its request rate or success rate: capacity per box unknown"
		return c
	}
	rate := *in.SuccessfulRate
	c.CeilingRate = F(rate)
	if rr.SuccessRate != nil {
		c.SuccessRate = F(*rr.SuccessRate)
	}
	c.PerBoxRate, c.InObjectiveShare = in.Rate, in.Share
	if in.UpperBound {
		c.UpperBound = true
		c.UpperBoundNote = "an upper bound: " + in.Why + ", so the successful requests that missed a latency bound cannot be left out"
		c.Basis = fmt.Sprintf("%s successful req/s at the ceiling (every success counted) = %s successful in-objective req/s per box", fmtNum(rate), fmtNum(rate))
		return c
	}
	g := in.Goodput
	c.Goodput = g
	c.Basis = fmt.Sprintf("%s successful req/s at the ceiling x %s of its successful requests within every latency bound (%d of %d: %s) = %s successful in-objective req/s per box",
		fmtNum(rate), fmtPct(*in.Share), g.Good, g.Requests-g.Failed, g.Bounds, fmtNum(*c.PerBoxRate))
	return c
}

// SuccessfulRate is a row's successful requests per second of its
// measured window: the file's request rate, else its achieved rate (both
// count successes only), else its successful count over its duration,
// else, for a rate run, the set rate times its success rate. nil when the
// row holds none of these.
func SuccessfulRate(r Row) *float64 {
	switch {
	case r.RequestRate != nil:
		return F(*r.RequestRate)
	case r.AchievedRate != nil:
		return F(*r.AchievedRate)
	case r.Successful != nil && r.DurationS != nil && *r.DurationS > 0:
		return F(float64(*r.Successful) / *r.DurationS)
	}
	if sr, _ := successRate(r); sr != nil && r.LoadKind == LoadRate && r.Load != nil {
		return F(*r.Load * *sr)
	}
	return nil
}

// unitOf is the unit a figure was typed in ("EUR/kWh"), or def when it has
// none, so that the arithmetic shown names the currency.
func unitOf(f *Figure, def string) string {
	if f == nil || f.Unit == "" {
		return def
	}
	return f.Unit
}
