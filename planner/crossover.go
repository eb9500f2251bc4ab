package planner

import (
	"fmt"
	"math"

	"github.com/shopspring/decimal"
)

// Crossover is the monthly demand at which self-hosting becomes cheaper than
// one API quote: N = (F_local - F_api) / (V_api - V_local), which is the
// textbook F_local / (V_api - V_local) when the quote has no fixed monthly
// charges. It exists only when V_api > V_local; otherwise Reason says why.
// Because boxes come in whole steps, Stepped gives the first demand at which
// self-hosting is cheaper once the extra boxes are paid for.
type Crossover struct {
	Quote  string `json:"quote"`
	FLocal Money  `json:"f_local"`
	FAPI   Money  `json:"f_api"`
	VLocal Money  `json:"v_local"`
	VAPI   Money  `json:"v_api"`
	// Exists is true when the denominator is positive.
	Exists bool `json:"exists"`
	// N is the exact break-even in requests a month; NRounded is it
	// rounded up to a whole request.
	N        *decimal.Decimal `json:"n"`
	NRounded *int64           `json:"n_rounded"`
	Formula  string           `json:"formula"`
	// WithinCapacity is false when N needs more boxes than one box serves
	// (at the expected scenario's busy-hour share); nil when unknown.
	WithinCapacity *bool `json:"within_capacity"`
	// Stepped is the first demand, counting whole boxes within the plan,
	// at which self-hosting is cheaper; nil when there is none.
	Stepped *SteppedCrossover `json:"stepped"`
	Reason  string            `json:"reason,omitempty"`
	// Text states the outcome in a sentence.
	Text string `json:"text"`
}

// SteppedCrossover is the break-even once capacity steps are counted.
type SteppedCrossover struct {
	// Demand is the first whole monthly demand at which self-hosting is
	// cheaper, and Boxes the boxes it needs.
	Demand int64  `json:"demand"`
	Boxes  int    `json:"boxes"`
	Text   string `json:"text"`
}

// CostChart is the data of the monthly cost against monthly demand chart:
// self-hosting as a stepped line, one line per quote, crossovers marked.
// Values are float64 because they are drawn, not summed.
type CostChart struct {
	Currency string        `json:"currency"`
	XLabel   string        `json:"x_label"`
	YLabel   string        `json:"y_label"`
	Series   []ChartSeries `json:"series"`
	Markers  []ChartMarker `json:"markers"`
}

// ChartSeries is one line of the cost chart.
type ChartSeries struct {
	Name   string       `json:"name"`
	Kind   string       `json:"kind"` // "self-hosted" or "api"
	Points []ChartPoint `json:"points"`
}

// ChartPoint is monthly cost at a monthly demand.
type ChartPoint struct {
	Demand float64 `json:"demand"`
	Cost   float64 `json:"cost"`
}

// ChartMarker marks a point on the chart: a crossover or a scenario.
type ChartMarker struct {
	Label  string  `json:"label"`
	Kind   string  `json:"kind"` // "crossover" or "scenario"
	Demand float64 `json:"demand"`
	Cost   float64 `json:"cost"`
}

// maxSteppedBoxes bounds the search for a stepped crossover beyond the plan.
const maxSteppedBoxes = 1000

// monthlyPerBox is the monthly demand one box serves when share of it falls
// in the busiest hour; 0 when unknown.
func monthlyPerBox(capacity Capacity, share float64) float64 {
	if capacity.PerBoxRate == nil || share <= 0 {
		return 0
	}
	return *capacity.PerBoxRate * 3600 / share
}

// FindCrossover finds the break-even demand between self-hosting and one
// quote, plain and counting whole boxes. share is the busy-hour share used to
// turn per-box capacity into monthly demand (0 when no scenario gives one).
func FindCrossover(self SelfHostedCost, q QuoteCost, capacity Capacity, share float64) Crossover {
	x := Crossover{Quote: q.Name, FLocal: self.FixedPerBox, FAPI: q.Fixed, VLocal: self.PerRequest, VAPI: q.PerRequest}
	fl, fa, vl, va := self.FixedPerBox.Exact, q.Fixed.Exact, self.PerRequest.Exact, q.PerRequest.Exact
	num, den := fl.Sub(fa), va.Sub(vl)
	x.Formula = fmt.Sprintf("N = (F_local - F_api) / (V_api - V_local) = (%s - %s) / (%s - %s)", fl, fa, va, vl)
	perBox := monthlyPerBox(capacity, share)
	maxBoxes := max(1, capacity.MaxBoxes)

	switch {
	case !den.IsPositive():
		x.Reason = fmt.Sprintf("the API costs no more per request than self-hosting (V_api %s <= V_local %s): there is no demand above which self-hosting becomes cheaper", va, vl)
	case !num.IsPositive():
		x.Exists = true
		zero := decimal.Zero
		x.N, x.NRounded = &zero, new(int64)
		x.Text = fmt.Sprintf("self-hosting is cheaper than %s at any demand: its fixed monthly cost %s is not above the API's %s", q.Name, fl, fa)
	default:
		x.Exists = true
		n := num.Div(den)
		x.N = &n
		r := n.Ceil().IntPart()
		x.NRounded = &r
		x.Text = fmt.Sprintf("self-hosting becomes cheaper than %s above %s requests a month", q.Name, n.Round(0).String())
	}
	if x.Exists && perBox > 0 {
		within := x.N.InexactFloat64() <= perBox
		x.WithinCapacity = &within
		if !within {
			x.Reason = fmt.Sprintf("the crossover (%s requests a month) lies beyond what one box serves within the objective (%s a month at a %s busy-hour share)", x.N.Round(0), fmtNum(math.Floor(perBox)), fmtPct(share))
			x.Text = x.Reason
		}
	}
	if perBox > 0 {
		x.Stepped = steppedCrossover(fl, fa, vl, va, perBox, maxBoxes)
		switch {
		case x.Stepped != nil && x.WithinCapacity != nil && !*x.WithinCapacity:
			x.Text += "; counting whole boxes: " + x.Stepped.Text
		case x.Stepped == nil && (x.WithinCapacity == nil || !*x.WithinCapacity) && x.Exists:
			x.Text += "; counting whole boxes, self-hosting is never cheaper: each box costs more than the API charges for the work it can serve"
		}
	} else if x.Exists {
		x.Text += " (capacity per box unknown: the stepped crossover cannot be computed)"
	}
	if x.Text == "" {
		x.Text = x.Reason
	}
	return x
}

// steppedCrossover finds the first whole monthly demand at which k boxes
// (as many as the demand needs) cost less than the API.
func steppedCrossover(fl, fa, vl, va decimal.Decimal, perBox float64, maxBoxes int) *SteppedCrossover {
	den := va.Sub(vl)
	prevHi := int64(-1)
	for k := 1; k <= maxSteppedBoxes; k++ {
		hi := int64(math.Floor(perBox * float64(k)))
		lo := prevHi + 1
		prevHi = hi
		if hi < lo {
			continue
		}
		base := fl.Mul(decimal.NewFromInt(int64(k))).Sub(fa) // self - api = base - D x den
		var d int64
		if den.IsPositive() {
			d = max(lo, base.Div(den).Floor().IntPart()+1)
		} else {
			if !base.Sub(decimal.NewFromInt(lo).Mul(den)).IsNegative() {
				continue
			}
			d = lo
		}
		if d > hi {
			continue
		}
		s := &SteppedCrossover{Demand: d, Boxes: k}
		s.Text = fmt.Sprintf("self-hosting is cheaper from %d requests a month with %d box(es)", d, k)
		if k > maxBoxes {
			s.Text += fmt.Sprintf(", more than the plan's %d", maxBoxes)
		}
		return s
	}
	return nil
}

// BuildChart draws monthly cost against monthly demand: self-hosting stepped
// by boxes, one straight line per quote, crossovers and scenarios marked.
func BuildChart(currency string, self SelfHostedCost, quotes []QuoteCost, xs []Crossover, scenarios []ScenarioResult, capacity Capacity, share float64) CostChart {
	ch := CostChart{Currency: currency, XLabel: "successful in-objective requests a month", YLabel: "monthly cost (" + currency + ")"}
	perBox := monthlyPerBox(capacity, share)
	xmax := perBox * float64(max(1, capacity.MaxBoxes))
	for _, s := range scenarios {
		xmax = max(xmax, float64(s.Scenario.MonthlyRequests))
	}
	for _, x := range xs {
		if x.N != nil {
			xmax = max(xmax, x.N.InexactFloat64()*1.25)
		}
		if x.Stepped != nil {
			xmax = max(xmax, float64(x.Stepped.Demand)*1.25)
		}
	}
	if xmax <= 0 {
		xmax = 100_000
	}
	xmax *= 1.1

	fl, vl := self.FixedPerBox.Exact.InexactFloat64(), self.PerRequest.Exact.InexactFloat64()
	selfCost := func(k int, d float64) float64 { return float64(k)*fl + d*vl }
	sh := ChartSeries{Name: "self-hosted", Kind: "self-hosted"}
	if perBox <= 0 {
		sh.Points = []ChartPoint{{0, selfCost(1, 0)}, {xmax, selfCost(1, xmax)}}
	} else {
		for k := 1; k <= 200; k++ {
			lo, hi := perBox*float64(k-1), math.Min(perBox*float64(k), xmax)
			sh.Points = append(sh.Points, ChartPoint{lo, selfCost(k, lo)}, ChartPoint{hi, selfCost(k, hi)})
			if hi >= xmax {
				break
			}
		}
	}
	ch.Series = append(ch.Series, sh)
	for _, q := range quotes {
		fa, va := q.Fixed.Exact.InexactFloat64(), q.PerRequest.Exact.InexactFloat64()
		ch.Series = append(ch.Series, ChartSeries{Name: q.Name, Kind: "api", Points: []ChartPoint{{0, fa}, {xmax, fa + xmax*va}}})
	}
	for i, x := range xs {
		d := -1.0
		switch {
		case x.Stepped != nil:
			d = float64(x.Stepped.Demand)
		case x.N != nil:
			d = x.N.InexactFloat64()
		}
		if d >= 0 && i < len(quotes) {
			ch.Markers = append(ch.Markers, ChartMarker{Label: "crossover with " + x.Quote, Kind: "crossover", Demand: d,
				Cost: quotes[i].Fixed.Exact.InexactFloat64() + d*quotes[i].PerRequest.Exact.InexactFloat64()})
		}
	}
	for _, s := range scenarios {
		if len(s.Options) > 0 {
			ch.Markers = append(ch.Markers, ChartMarker{Label: s.Scenario.Name, Kind: "scenario", Demand: float64(s.Scenario.MonthlyRequests), Cost: s.Options[0].MonthlyCost.Exact.InexactFloat64()})
		}
	}
	return ch
}
