package planner

import (
	"fmt"
	"math"

	"github.com/shopspring/decimal"
)

// The hybrid plan (docs/method.md, "The hybrid plan: own the base, buy
// the peak"): own n boxes for the base of the month's demand and send
// what they would refuse, the busy hours' overflow, to the cheapest
// eligible API quote. Every n from 0 (all API) to the boxes the scenario
// needs (all self-hosted) is costed on the shared denominator, the
// month's requests.

// Where a hybrid's monthly shape comes from.
const (
	ShapeImported = "imported" // production traffic's mean day, by clock hour
	ShapeTyped    = "typed"    // the scenario's typed day profile
	ShapeFlatPeak = "flat-plus-peak"
)

// HybridOption is owning Boxes boxes and buying the overflow.
type HybridOption struct {
	Boxes int `json:"boxes"`
	// Paid is the boxes bought: Boxes serving plus the fleet's reserve.
	Paid int `json:"paid"`
	// ServesRate is what the boxes serve, req/s; Overflow the requests a
	// month above it, sent to Quote.
	ServesRate float64 `json:"serves_rate"`
	Overflow   int64   `json:"overflow"`
	OwnCost    Money   `json:"own_cost"`
	APICost    Money   `json:"api_cost"`
	Quote      string  `json:"quote,omitempty"`
	Monthly    Money   `json:"monthly"`
	// CostPer1000 is Monthly over the month's requests x 1,000; nil
	// without demand.
	CostPer1000 *Money `json:"cost_per_1000"`
	Basis       string `json:"basis"`
}

// Hybrid is a scenario's hybrid plans, n = 0 ... the boxes it needs.
type Hybrid struct {
	// Shape is ShapeImported, ShapeTyped or ShapeFlatPeak; ShapeText says
	// it, and Hours are the 24 shares of a day's requests used.
	Shape     string         `json:"shape"`
	ShapeText string         `json:"shape_text"`
	Hours     []float64      `json:"hours"`
	Options   []HybridOption `json:"options"`
	// Best is the index in Options of the cheapest; Wins is true when it
	// owns some boxes but fewer than all, and beats both all-API and
	// all-self-hosted.
	Best int    `json:"best"`
	Wins bool   `json:"wins"`
	Text string `json:"text"`
}

// dayShape is the 24 hourly shares of a day a scenario's month is made
// of: the typed profile, else imported production traffic's mean day,
// else one busy hour at the scenario's day share and 23 equal hours.
func dayShape(s Scenario, d *Demand) ([]float64, string, string) {
	if p := normalised(s.DayProfile); p != nil {
		return p, ShapeTyped, "the scenario's typed day profile"
	}
	if d != nil {
		if p := normalised(d.HourShares); p != nil {
			return p, ShapeImported, fmt.Sprintf("production traffic's mean full day by clock hour (%d full days)", d.FullDays)
		}
	}
	share := min(1, max(1.0/24, s.DayShare()))
	p := make([]float64, 24)
	for h := range p {
		p[h] = (1 - share) / 23
	}
	p[0] = share
	return p, ShapeFlatPeak, fmt.Sprintf("flat plus peak: every day one busy hour with %s of its requests and 23 even hours (no hourly profile typed or imported, only the busy hour's share)", DisplayShare(share))
}

// normalised is 24 non-negative shares scaled to sum to 1, nil when p is
// not that.
func normalised(p []float64) []float64 {
	if len(p) != 24 {
		return nil
	}
	sum := 0.0
	for _, v := range p {
		if v < 0 || math.IsNaN(v) {
			return nil
		}
		sum += v
	}
	if sum <= 0 {
		return nil
	}
	out := make([]float64, 24)
	for i, v := range p {
		out[i] = v / sum
	}
	return out
}

// Overflow is the requests a month above what boxes serving rate req/s
// take, every day shaped by hours (shares of a day's requests): the sum
// over hours of max(0, that hour's rate - rate) x 3,600 s, times the days
// of a month, rounded up (demand rounds up, docs/method.md "Rounding").
func Overflow(monthly int64, hours []float64, rate float64) int64 {
	perDay := float64(monthly) / daysPerMonth
	over := 0.0
	for _, sh := range hours {
		if r := perDay * sh / 3600; r > rate {
			over += (r - rate) * 3600
		}
	}
	return min(monthly, RoundRequests(RequestsOf(over*daysPerMonth), Wanted))
}

// BuildHybrid costs owning n = 0 ... maxOwn boxes and sending the
// overflow to the cheapest quote at that overflow. nil without quotes or
// capacity.
func BuildHybrid(s Scenario, capacity Capacity, self SelfHostedCost, quotes []QuoteCost, demand *Demand, maxOwn int) *Hybrid {
	if len(quotes) == 0 || capacity.PerBoxRate == nil || maxOwn < 1 || s.MonthlyRequests <= 0 {
		return nil
	}
	hours, shape, text := dayShape(s, demand)
	h := &Hybrid{Shape: shape, ShapeText: text, Hours: hours}
	d := s.MonthlyRequests
	for n := 0; n <= maxOwn; n++ {
		o := HybridOption{Boxes: n, Paid: n}
		if n > 0 && capacity.Fleet != nil {
			o.Paid = capacity.paid(n)
		}
		o.ServesRate = capacity.Serves(n)
		o.Overflow = Overflow(d, hours, o.ServesRate)
		own := self.FixedPerBox.Exact.Mul(decimal.NewFromInt(int64(o.Paid))).Add(self.PerRequest.Exact.Mul(decimal.NewFromInt(d - o.Overflow)))
		api := decimal.Zero
		if o.Overflow > 0 {
			for i, q := range quotes {
				c := q.MonthlyAt(o.Overflow)
				if i == 0 || c.LessThan(api) {
					api, o.Quote = c, q.Name
				}
			}
		}
		o.OwnCost, o.APICost = NewMoney(own), NewMoney(api)
		o.Monthly = NewMoney(own.Add(api))
		o.CostPer1000 = CostPer1000(own.Add(api), d)
		switch {
		case n == 0:
			o.Basis = fmt.Sprintf("no box: all %s requests to %s at %s", groupDigits(d), o.Quote, o.APICost.Display())
		case o.Overflow == 0:
			o.Basis = fmt.Sprintf("%s at %s serve every hour: %s", boxes(o.Paid), DisplayInputDecimal(self.FixedPerBox.Exact), o.OwnCost.Display())
		default:
			o.Basis = fmt.Sprintf("%s (%s req/s) %s + %s overflow requests to %s %s = %s",
				boxes(o.Paid), fmtNum(o.ServesRate), o.OwnCost.Display(), groupDigits(o.Overflow), o.Quote, o.APICost.Display(), o.Monthly.Display())
		}
		h.Options = append(h.Options, o)
		if o.Monthly.Exact.LessThan(h.Options[h.Best].Monthly.Exact) {
			h.Best = n
		}
	}
	b := h.Options[h.Best]
	h.Wins = b.Boxes > 0 && b.Overflow > 0
	per := "–"
	if b.CostPer1000 != nil {
		per = b.CostPer1000.Display()
	}
	switch {
	case h.Wins:
		h.Text = fmt.Sprintf("own %s and buy the peaks: %s per 1,000 (%s overflow requests a month to %s)", boxes(b.Boxes), per, groupDigits(b.Overflow), b.Quote)
	case b.Boxes == 0:
		h.Text = fmt.Sprintf("no hybrid beats all-API here: owning any box costs more than the API charges for what it serves (%s per 1,000 all-API)", per)
	default:
		h.Text = fmt.Sprintf("no hybrid beats owning every box the busy hour needs (%s per 1,000)", per)
	}
	return h
}
