package planner

import (
	"fmt"
	"math"

	"github.com/shopspring/decimal"
)

// ScenarioResult is one demand scenario costed for every option on the same
// denominator: successful in-objective requests a month.
type ScenarioResult struct {
	Scenario Scenario `json:"scenario"`
	// BusyHourRate is the busiest hour's request rate, req/s
	// (Scenario.BusyRate); PeakToAverage that over the month's average
	// rate; BusyHour the busiest hour as typed and what it implies; and
	// BusyHourWarning why it is implausible ("" when it is not).
	BusyHourRate    float64  `json:"busy_hour_rate"`
	PeakToAverage   *float64 `json:"peak_to_average"`
	BusyHour        string   `json:"busy_hour"`
	BusyHourWarning string   `json:"busy_hour_warning,omitempty"`
	// BoxesNeeded is ceil(busy-hour rate / per-box capacity), at least 1,
	// or with a fleet its serving boxes plus the reserve
	// (Capacity.BoxesNeeded); nil when capacity is unknown.
	BoxesNeeded *int `json:"boxes_needed"`
	// Sizing splits BoxesNeeded into serving and reserve boxes when the
	// report has a fleet (Capacity.BoxesNeeded); nil otherwise.
	Sizing *Sizing `json:"sizing,omitempty"`
	// ExceedsPlan is true when more boxes are needed than the plan allows
	// (or capacity is unknown); ExceedsReason says which.
	// Queue is the busy hour simulated on the serving boxes (and one
	// fewer), nil without a simulation (Capacity.Queue).
	Queue *ScenarioQueue `json:"queue,omitempty"`
	// Hybrid is owning n boxes and buying the overflow from the cheapest
	// quote, n = 0 ... the serving boxes needed (docs/method.md, "The
	// hybrid plan"); nil without quotes or capacity.
	Hybrid *Hybrid `json:"hybrid,omitempty"`
	// BusyHours is the hours a month the boxes spend serving the
	// scenario's requests (BusyHours) and Utilisation that over the boxes'
	// powered hours; nil unless power is priced by use.
	BusyHours   *float64 `json:"busy_hours,omitempty"`
	Utilisation *float64 `json:"utilisation,omitempty"`
	// PowerUse says so in words ("" unless power is priced by use).
	PowerUse      string       `json:"power_use,omitempty"`
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
	// Original is the monthly cost in the quote's own currency, with the
	// rate, when that is not the report's.
	Original *Converted `json:"original,omitempty"`
	// Gross and Net are the monthly cost with all tax and without
	// recoverable tax; MonthlyCost is the one on the report's basis.
	Gross Money `json:"gross"`
	Net   Money `json:"net"`
	// PerMTokens is the monthly cost per million input, output and
	// blended tokens of the successful in-objective requests
	// (docs/method.md, "Cost per million tokens"); nil without demand.
	PerMTokens *TokenPrices `json:"per_m_tokens"`
}

// BusyHourRate is the request rate of the busiest hour, req/s.
func BusyHourRate(monthly int64, share float64) float64 {
	return float64(monthly) * share / 3600
}

// BoxesFor is the whole boxes a busy-hour rate needs at a per-box capacity:
// ceil(rate / capacity), at least one (an owned box is paid while idle).
func BoxesFor(busyRate, perBox float64) int {
	if busyRate <= 0 || perBox <= 0 {
		return 1
	}
	return max(1, int(math.Ceil(busyRate/perBox-1e-9)))
}

// CostScenario costs one scenario for self-hosting and every quote on the
// shared denominator, successful in-objective requests a month.
func CostScenario(s Scenario, capacity Capacity, self SelfHostedCost, quotes []QuoteCost) ScenarioResult {
	res := ScenarioResult{Scenario: s, BusyHourRate: s.BusyRate(), PeakToAverage: s.PeakToAverage(),
		BusyHour: s.BusyHourText(), BusyHourWarning: s.BusyHourWarning()}
	d := decimal.NewFromInt(s.MonthlyRequests)
	maxBoxes := max(1, capacity.MaxBoxes)

	boxes := 1
	var notes []string
	if capacity.PerBoxRate == nil {
		res.ExceedsPlan = true
		res.ExceedsReason = perBoxMissing(capacity, 1) + ": costed as one box"
		notes = append(notes, res.ExceedsReason)
	} else {
		z, _ := capacity.BoxesNeeded(res.BusyHourRate)
		boxes = z.Boxes
		res.BoxesNeeded = I(boxes)
		why := fmt.Sprintf("%s req/s at %s req/s per box", fmtNum(res.BusyHourRate), fmtNum(*capacity.PerBoxRate))
		if capacity.Fleet != nil {
			res.Sizing = &z
			why = fmt.Sprintf("%d serving + %d in reserve: %s", z.Serving, z.Reserve, z.Basis)
			notes = append(notes, fmt.Sprintf("%d %s: %d serving and %d in reserve (%s)", boxes, plural(boxes, "box", "boxes"), z.Serving, z.Reserve, z.Basis))
		}
		if boxes > maxBoxes {
			res.ExceedsPlan = true
			res.ExceedsReason = fmt.Sprintf("the busy hour needs %d boxes (%s), more than the plan's %d", boxes, why, maxBoxes)
			notes = append(notes, res.ExceedsReason)
		}
	}
	k := decimal.NewFromInt(int64(boxes))
	if pu := self.Power; pu.ByUse && pu.ServiceRate != nil {
		bh := BusyHours(d, *pu.ServiceRate).InexactFloat64()
		res.BusyHours = &bh
		res.Utilisation = Utilisation(s.MonthlyRequests, boxes, decimal.NewFromFloat(pu.PoweredHours), *pu.ServiceRate)
		if res.Utilisation != nil {
			res.PowerUse = fmt.Sprintf("power by use: busy %s h a month of %d %s x %s h powered (%s utilisation), idle the rest",
				DisplayNumber(bh, 1), boxes, plural(boxes, "box", "boxes"), DisplayInput(pu.PoweredHours), DisplayShare(*res.Utilisation))
			notes = append(notes, res.PowerUse)
		}
	}
	selfCost := self.FixedPerBox.Exact.Mul(k).Add(self.PerRequest.Exact.Mul(d))
	o := option("self-hosted", "self-hosted", selfCost, s.MonthlyRequests, boxes,
		fmt.Sprintf("%d %s x %s + %d requests x %s", boxes, plural(boxes, "box", "boxes"), DisplayInputDecimal(self.FixedPerBox.Exact), s.MonthlyRequests, DisplayInputDecimal(self.PerRequest.Exact)), notes)
	o.Gross, o.Net = NewMoney(orMoney(self.FixedGross, self.FixedPerBox).Mul(k).Add(self.PerRequest.Exact.Mul(d))),
		NewMoney(orMoney(self.FixedNet, self.FixedPerBox).Mul(k).Add(self.PerRequest.Exact.Mul(d)))
	res.Options = append(res.Options, o)
	for _, q := range quotes {
		c := q.MonthlyAt(s.MonthlyRequests)
		basis := fmt.Sprintf("%s + %d requests x %s", DisplayInputDecimal(q.Fixed.Exact), s.MonthlyRequests, DisplayInputDecimal(q.PerRequest.Exact))
		if !q.Linear() {
			seg := segmentAt(q.segments(), d)
			basis = fmt.Sprintf("%s + %d requests x %s (the piece of the tiered price from %s requests a month)",
				DisplayInputDecimal(seg.Intercept.Exact), s.MonthlyRequests, DisplayInputDecimal(seg.Slope.Exact), DisplayCount(RoundRequests(seg.From, Wanted)))
		}
		o := option(q.Name, "api", c, s.MonthlyRequests, 0, basis, nil)
		o.Original = q.originalAt(s.MonthlyRequests)
		o.Gross, o.Net = NewMoney(q.monthlyOn(s.MonthlyRequests, TaxGross)), NewMoney(q.monthlyOn(s.MonthlyRequests, TaxNet))
		res.Options = append(res.Options, o)
	}
	return res
}

func option(name, kind string, cost decimal.Decimal, requests int64, boxes int, basis string, notes []string) OptionCost {
	o := OptionCost{Option: name, Kind: kind, MonthlyCost: NewMoney(cost), SuccessfulRequests: requests, Boxes: boxes, Basis: basis, Notes: notes}
	if p := CostPer1000(cost, requests); p != nil {
		o.CostPer1000 = p
	} else {
		o.Notes = append(o.Notes, "no demand: cost per 1,000 is undefined")
	}
	return o
}

// CostPer1000 is monthly cost / successful requests x 1,000, nil when there
// are no requests.
func CostPer1000(monthly decimal.Decimal, successful int64) *Money {
	if successful <= 0 {
		return nil
	}
	m := NewMoney(monthly.Mul(thousand).Div(decimal.NewFromInt(successful)))
	return &m
}

// BeyondPlan is true when the scenario's busiest hour needs more boxes
// (the reserve included) than the plan's; the headline and the exit check
// read it.
func (s ScenarioResult) BeyondPlan(plan int) bool {
	return s.BoxesNeeded != nil && *s.BoxesNeeded > max(1, plan)
}

// Cheapest names the options with the lowest cost per 1,000 successful
// in-objective requests in this scenario (several when they tie); none
// when fewer than two options have a cost to compare.
func (s ScenarioResult) Cheapest() map[string]bool {
	var best *Money
	priced := 0
	for _, o := range s.Options {
		if o.CostPer1000 == nil {
			continue
		}
		priced++
		if best == nil || o.CostPer1000.Exact.LessThan(best.Exact) {
			best = o.CostPer1000
		}
	}
	out := map[string]bool{}
	if priced < 2 {
		return out
	}
	for _, o := range s.Options {
		if o.CostPer1000 != nil && o.CostPer1000.Exact.Equal(best.Exact) {
			out[o.Option] = true
		}
	}
	return out
}

// orMoney is m's exact amount, or def's when m was never computed (a
// SelfHostedCost built by hand).
func orMoney(m, def Money) decimal.Decimal {
	if m == (Money{}) {
		return def.Exact
	}
	return m.Exact
}
