package planner

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
)

// ProviderInputs are the seller's side of the box: a team that sells tokens
// from it asks the opposite question to the buyer's, "at my prices, what
// utilisation covers the box?". Prices are per million tokens; the box's
// capacity is the report's measured per-box capacity unless typed.
type ProviderInputs struct {
	// Currency is the ISO 4217 code the selling prices are in; empty means
	// the report's.
	Currency         string  `json:"currency,omitempty"`
	InputPerMTokens  *Figure `json:"input_per_m_tokens"`
	OutputPerMTokens *Figure `json:"output_per_m_tokens"`
	// ExpectedUtilisation is the expected share of capacity sold (a
	// fraction); nil when no margin is to be stated.
	ExpectedUtilisation *Figure `json:"expected_utilisation"`
	// CapacityRate overrides the measured capacity, in successful
	// requests per second; InputTokens and OutputTokens override the
	// tokens per request priced for quotes; HoursPerMonth is the hours the
	// box sells (730 when nil).
	CapacityRate  *Figure `json:"capacity_rate,omitempty"`
	InputTokens   *Figure `json:"input_tokens,omitempty"`
	OutputTokens  *Figure `json:"output_tokens,omitempty"`
	HoursPerMonth *Figure `json:"hours_per_month,omitempty"`
	// BilledRevenue is what the box billed over its selling hours
	// (HoursPerMonth), in the selling prices' currency: a ledger total,
	// with the ledger as its source and its own date; nil when none is
	// typed.
	BilledRevenue *Figure `json:"billed_revenue,omitempty"`
}

// ProviderView is the box seen by its seller: revenue at full capacity,
// the utilisation at which revenue covers the monthly cost, and the margin
// at the expected utilisation.
//
//	revenue per request      = (input tokens x input price + output tokens x output price) / 1M
//	revenue at capacity      = revenue per request x capacity (req/s) x 3,600 x hours a month
//	break-even utilisation   = monthly cost / (revenue at capacity - V_local x requests at capacity)
//	margin at utilisation u  = u x revenue at capacity - (monthly cost + V_local x u x requests at capacity)
//
// With no variable cost per request, break-even is monthly cost / revenue at
// capacity.
type ProviderView struct {
	Currency string `json:"currency"`
	// CapacityRate is the successful requests per second sold at full
	// utilisation and CapacityBasis where it came from.
	CapacityRate  *float64 `json:"capacity_rate"`
	CapacityBasis string   `json:"capacity_basis"`
	InputTokens   float64  `json:"input_tokens"`
	OutputTokens  float64  `json:"output_tokens"`
	TokenBasis    string   `json:"token_basis"`
	HoursPerMonth float64  `json:"hours_per_month"`

	RevenuePerRequest Money `json:"revenue_per_request"`
	// Prices holds the selling prices converted, with their originals,
	// when they are in another currency.
	Prices                   []Converted `json:"prices,omitempty"`
	RequestsAtCapacity       *int64      `json:"requests_at_capacity_monthly"`
	RevenueAtCapacityHourly  *Money      `json:"revenue_at_capacity_hourly"`
	RevenueAtCapacityMonthly *Money      `json:"revenue_at_capacity_monthly"`
	// MonthlyCost is one box's fixed monthly cost (F_local) and HourlyCost
	// it over the selling hours; CostPerRequest is V_local.
	MonthlyCost    Money `json:"monthly_cost"`
	HourlyCost     Money `json:"hourly_cost"`
	CostPerRequest Money `json:"cost_per_request"`

	// BreakEvenUtilisation is a fraction (above 1 when even a full box
	// does not pay); nil when each request earns no more than it costs.
	BreakEvenUtilisation *float64 `json:"break_even_utilisation"`
	// BreakEvenMonthly and BreakEvenDaily are the requests sold at
	// break-even, rounded up.
	BreakEvenMonthly *int64 `json:"break_even_requests_monthly"`
	BreakEvenDaily   *int64 `json:"break_even_requests_daily"`

	ExpectedUtilisation *float64 `json:"expected_utilisation"`
	RevenueAtExpected   *Money   `json:"revenue_at_expected_utilisation"`
	CostAtExpected      *Money   `json:"cost_at_expected_utilisation"`
	MarginAtExpected    *Money   `json:"margin_monthly_at_expected_utilisation"`
	// MarginAtExpectedUtilisation is the margin as a fraction of revenue.
	MarginAtExpectedUtilisation *float64 `json:"margin_at_expected_utilisation"`

	// BilledRevenue is the ledger's total over the selling hours
	// (converted), BilledSource and BilledDate its evidence. BilledCost is
	// the cost the modelled margin is taken against (the cost at the
	// expected utilisation, else the fixed cost), so the two margins
	// differ by their revenue only; BilledMargin is the billed revenue
	// less it, BilledMarginShare that over the billed revenue. nil
	// without a ledger total.
	BilledRevenue     *Money   `json:"billed_revenue"`
	BilledSource      string   `json:"billed_source,omitempty"`
	BilledDate        string   `json:"billed_date,omitempty"`
	BilledCost        *Money   `json:"billed_cost"`
	BilledMargin      *Money   `json:"billed_margin"`
	BilledMarginShare *float64 `json:"billed_margin_share"`

	// Chart is monthly revenue, cost and margin against utilisation.
	Chart []ProviderPoint `json:"chart"`
	Basis string          `json:"basis"`
	Text  string          `json:"text"`
	// Reason says what is missing when a figure cannot be given.
	Reason string `json:"reason,omitempty"`
}

// ProviderPoint is one utilisation on the provider chart; MarginShare is
// nil at zero revenue.
type ProviderPoint struct {
	Utilisation float64  `json:"utilisation"`
	Revenue     float64  `json:"revenue"`
	Cost        float64  `json:"cost"`
	Margin      float64  `json:"margin"`
	MarginShare *float64 `json:"margin_share"`
}

// ProviderMonthly computes the provider view in one currency: the selling
// prices, one box's costs and its capacity. inTok and outTok are the tokens
// per request priced for quotes, used unless p types its own.
func ProviderMonthly(p ProviderInputs, self SelfHostedCost, capacity Capacity, inTok, outTok float64, tokenBasis string) ProviderView {
	return providerMonthly(p, self, capacity, inTok, outTok, tokenBasis, nil, "")
}

func providerMonthly(p ProviderInputs, self SelfHostedCost, capacity Capacity, inTok, outTok float64, tokenBasis string, conv *converter, currency string) ProviderView {
	v := ProviderView{Currency: currency, InputTokens: inTok, OutputTokens: outTok, TokenBasis: tokenBasis, Chart: []ProviderPoint{}}
	if p.InputTokens != nil || p.OutputTokens != nil {
		v.InputTokens = figOr(p.InputTokens, inTok)
		v.OutputTokens = figOr(p.OutputTokens, outTok)
		v.TokenBasis = "typed for the provider view"
	}
	rate, ok := conv.use(p.Currency, "provider.currency")
	if !ok {
		v.Reason = fmt.Sprintf("no exchange rate for %s: the selling prices are not converted", strings.ToUpper(p.Currency))
		v.Text = v.Reason
		return v
	}
	ip, _ := amount(p.InputPerMTokens)
	op, _ := amount(p.OutputPerMTokens)
	for _, f := range []*Figure{p.InputPerMTokens, p.OutputPerMTokens} {
		if f != nil && rate != nil {
			v.Prices = append(v.Prices, *rate.original(f.Amount))
		}
	}
	in, out := decimal.NewFromFloat(v.InputTokens), decimal.NewFromFloat(v.OutputTokens)
	perReq := rate.of(in.Mul(ip).Add(out.Mul(op)).Div(million))
	v.RevenuePerRequest = NewMoney(perReq)
	hours := orDefault(p.HoursPerMonth, HoursPerMonth)
	v.HoursPerMonth = hours.InexactFloat64()
	fl, vl := self.FixedPerBox.Exact, self.PerRequest.Exact
	v.MonthlyCost, v.CostPerRequest = self.FixedPerBox, self.PerRequest
	if hours.IsPositive() {
		v.HourlyCost = NewMoney(fl.Div(hours))
	}

	var capRate decimal.Decimal
	switch {
	case p.CapacityRate != nil:
		capRate = p.CapacityRate.Amount
		v.CapacityBasis = "typed"
	case capacity.ClosedLoopPerBox != nil:
		// Utilisation is a share of the measured ceiling, as a seller
		// states it; with random arrivals the objective holds only up to
		// the share the simulation found (docs/method.md, "Queues in the
		// busy hour").
		capRate = decimal.NewFromFloat(*capacity.ClosedLoopPerBox)
		v.CapacityBasis = "measured: the closed-loop ceiling's " + fmtNum(*capacity.ClosedLoopPerBox) + " successful in-objective req/s per box"
		if q := capacity.Queue; q != nil {
			v.CapacityBasis += fmt.Sprintf("; with random arrivals the objective holds up to %s of it (%s req/s)", DisplayShare(q.Utilisation), fmtNum(q.SustainableRate))
		}
	case capacity.PerBoxRate != nil:
		capRate = decimal.NewFromFloat(*capacity.PerBoxRate)
		v.CapacityBasis = "measured: " + capacity.Basis
	default:
		v.Reason = "capacity per box unknown: " + orNone(capacity.Reason)
		v.Text = "The provider view needs the box's capacity: " + orNone(capacity.Reason)
		return v
	}
	v.CapacityRate = F(capRate.InexactFloat64())
	if p.InputPerMTokens == nil || p.OutputPerMTokens == nil {
		v.Reason = "selling prices per million input and output tokens are not typed"
		v.Text = "The provider view needs the selling prices per million input and output tokens."
		return v
	}
	perHour := capRate.Mul(decimal.NewFromInt(3600))
	reqCap := perHour.Mul(hours)
	nCap := RoundRequests(reqCap, Served)
	v.RequestsAtCapacity = &nCap
	revHour, revMonth := NewMoney(perReq.Mul(perHour)), NewMoney(perReq.Mul(reqCap))
	v.RevenueAtCapacityHourly, v.RevenueAtCapacityMonthly = &revHour, &revMonth
	v.Basis = fmt.Sprintf("(%s input tokens x %s + %s output tokens x %s) / 1M%s = %s a request; x %s req/s x 3,600 x %s h = %s a month at full capacity",
		in, ip, out, op, rate.text(currency), DisplayMoney(perReq), strconv.FormatFloat(capRate.InexactFloat64(), 'g', 4, 64), hours, DisplayMoney(revMonth.Exact))

	contribution := perReq.Sub(vl).Mul(reqCap) // what a full box earns over its variable cost
	if contribution.IsPositive() {
		be := fl.Div(contribution)
		v.BreakEvenUtilisation = F(be.InexactFloat64())
		m := RoundRequests(be.Mul(reqCap), Wanted)
		d := PerDay(be.Mul(reqCap))
		v.BreakEvenMonthly, v.BreakEvenDaily = &m, &d
	} else {
		v.Reason = "each request earns no more than its variable cost: no utilisation covers the box"
	}

	at := func(u decimal.Decimal) (rev, cost decimal.Decimal) {
		return revMonth.Exact.Mul(u), fl.Add(vl.Mul(reqCap).Mul(u))
	}
	if p.ExpectedUtilisation != nil {
		u := p.ExpectedUtilisation.Amount
		rev, cost := at(u)
		r, c, m := NewMoney(rev), NewMoney(cost), NewMoney(rev.Sub(cost))
		v.ExpectedUtilisation = F(u.InexactFloat64())
		v.RevenueAtExpected, v.CostAtExpected, v.MarginAtExpected = &r, &c, &m
		if rev.IsPositive() {
			v.MarginAtExpectedUtilisation = F(rev.Sub(cost).Div(rev).InexactFloat64())
		}
	}
	if f := p.BilledRevenue; f != nil {
		billed, cost := rate.of(f.Amount), fl
		if v.CostAtExpected != nil {
			cost = v.CostAtExpected.Exact
		}
		b, c, m := NewMoney(billed), NewMoney(cost), NewMoney(billed.Sub(cost))
		v.BilledRevenue, v.BilledCost, v.BilledMargin = &b, &c, &m
		v.BilledSource, v.BilledDate = f.Source, f.EvidenceDate
		if billed.IsPositive() {
			v.BilledMarginShare = F(billed.Sub(cost).Div(billed).InexactFloat64())
		}
	}
	for i := 1; i <= 20; i++ {
		u := decimal.NewFromInt(int64(i)).Div(decimal.NewFromInt(20))
		rev, cost := at(u)
		pt := ProviderPoint{Utilisation: u.InexactFloat64(), Revenue: rev.InexactFloat64(), Cost: cost.InexactFloat64(), Margin: rev.Sub(cost).InexactFloat64()}
		if rev.IsPositive() {
			pt.MarginShare = F(rev.Sub(cost).Div(rev).InexactFloat64())
		}
		v.Chart = append(v.Chart, pt)
	}
	v.Text = providerText(v)
	return v
}

// providerText states the provider view in a sentence.
func providerText(v ProviderView) string {
	cur := ""
	if v.Currency != "" {
		cur = " " + v.Currency
	}
	var b strings.Builder
	fmt.Fprintf(&b, "At these prices a full box earns %s%s an hour (%s%s a month)", v.RevenueAtCapacityHourly.Display(), cur, v.RevenueAtCapacityMonthly.Display(), cur)
	switch be := v.BreakEvenUtilisation; {
	case be == nil:
		b.WriteString("; each request earns no more than it costs, so no utilisation covers the box")
	case *be > 1:
		fmt.Fprintf(&b, "; it would need %s utilisation to cover its %s%s a month: even a full box does not pay", DisplayShare(*be), v.MonthlyCost.Display(), cur)
	default:
		fmt.Fprintf(&b, "; it covers its %s%s a month at %s utilisation (%s requests a month, %s a day)",
			v.MonthlyCost.Display(), cur, DisplayShare(*be), DisplayCount(*v.BreakEvenMonthly), DisplayCount(*v.BreakEvenDaily))
	}
	if v.MarginAtExpected != nil {
		fmt.Fprintf(&b, "; at the expected %s utilisation the margin is %s%s a month", DisplayShare(*v.ExpectedUtilisation), v.MarginAtExpected.Display(), cur)
		if v.MarginAtExpectedUtilisation != nil {
			fmt.Fprintf(&b, ", %s of revenue", DisplayShare(*v.MarginAtExpectedUtilisation))
		}
	}
	if v.BilledRevenue != nil {
		fmt.Fprintf(&b, "; the ledger billed %s%s (%s, %s) against %s%s of cost: a margin of %s%s", v.BilledRevenue.Display(), cur, orNone(v.BilledSource), orNone(v.BilledDate),
			v.BilledCost.Display(), cur, v.BilledMargin.Display(), cur)
		if v.BilledMarginShare != nil {
			fmt.Fprintf(&b, ", %s of billed revenue", DisplayShare(*v.BilledMarginShare))
		}
		if v.RevenueAtExpected != nil {
			fmt.Fprintf(&b, ", beside the modelled %s%s", v.RevenueAtExpected.Display(), cur)
			if v.MarginAtExpectedUtilisation != nil {
				fmt.Fprintf(&b, " (%s)", DisplayShare(*v.MarginAtExpectedUtilisation))
			}
		}
	}
	return b.String() + "."
}

func figOr(f *Figure, def float64) float64 {
	if f == nil {
		return def
	}
	return f.Amount.InexactFloat64()
}

func (p ProviderInputs) validate(es *FieldErrors, prefix string) {
	checkCurrency(es, prefix+".currency", p.Currency)
	validateFields(es, prefix, &p, ProviderFields)
}

// providerEvidence lists the provider view's typed figures as evidence.
func providerEvidence(p *ProviderInputs) []Evidence {
	if p == nil {
		return nil
	}
	var out []Evidence
	for _, f := range ProviderFields {
		out = append(out, ev(f.Key(), *f.Figure(p))...)
	}
	return out
}
