package planner

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
)

// Crossover is the monthly demand at which self-hosting becomes cheaper than
// one API quote: N = (F_local - F_api) / (V_api - V_local), which is the
// textbook F_local / (V_api - V_local) when the quote has no fixed monthly
// charges. It exists only when V_api > V_local; otherwise Reason says why.
// Because boxes come in whole steps, Stepped gives the demand ranges, within
// the plan, over which self-hosting is cheaper once the boxes are paid for.
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
	// NPerDay is N as requests a day (N / (365 / 12)), rounded up by the
	// same rule.
	NPerDay *int64 `json:"n_per_day"`
	// Formula shows the exact values; FormulaRounded the same with money
	// rounded to cents and per-request prices to four significant digits,
	// for people.
	Formula        string `json:"formula"`
	FormulaRounded string `json:"formula_rounded"`
	// WithinCapacity is false when N needs more boxes than one box serves
	// (at the expected scenario's busy-hour share); nil when unknown.
	WithinCapacity *bool `json:"within_capacity"`
	// Stepped is where self-hosting is cheaper counting whole boxes within
	// the plan; nil when it is nowhere (or capacity is unknown).
	Stepped *SteppedCrossover `json:"stepped"`
	// SteppedNote says why there is no Stepped: self-hosting never
	// cheaper counting whole boxes, or what its computation lacks.
	SteppedNote string `json:"stepped_note,omitempty"`
	Reason      string `json:"reason,omitempty"`
	// Text states the outcome in a sentence.
	Text string `json:"text"`
}

// SteppedCrossover is the break-even once capacity steps are counted. Each
// extra box adds its fixed cost at once, so self-hosting can be cheaper
// over one range of demand, lose to the API again when the next box is
// needed, and win again further on: Ranges holds every demand range within
// the plan where self-hosting is cheaper, and Text says the whole answer.
type SteppedCrossover struct {
	// Demand is the first whole monthly demand at which self-hosting is
	// cheaper, and Boxes the boxes it needs.
	Demand int64 `json:"demand"`
	Boxes  int   `json:"boxes"`
	// Ranges are the demand ranges, in order, within the plan's capacity
	// where self-hosting is cheaper; adjacent ranges are merged.
	Ranges []SteppedRange `json:"ranges"`
	// MaxBoxes is the plan's box count and PlanCapacity the monthly demand
	// they serve; above it demand exceeds the plan.
	MaxBoxes     int    `json:"max_boxes"`
	PlanCapacity int64  `json:"plan_capacity"`
	Text         string `json:"text"`
}

// SteppedRange is a range of whole monthly demand, From to To inclusive,
// over which self-hosting with MinBoxes to MaxBoxes boxes (as many as the
// demand needs, reserve included) costs less than the API.
type SteppedRange struct {
	From     int64 `json:"from"`
	To       int64 `json:"to"`
	MinBoxes int   `json:"min_boxes"`
	MaxBoxes int   `json:"max_boxes"`
}

// CostChart is the data of the monthly cost against monthly demand chart:
// self-hosting as a stepped line, one line per quote, crossovers marked.
// Values are float64 because they are drawn, not summed.
//
// The demand axis runs from 0 to XMax: a round number a bit beyond the
// larger of the peak scenario and the plan's capacity (max boxes x monthly
// demand per box), stretched to a crossover only when that lies within
// three times that. A crossover further out is not drawn; Notes say where
// it is. Self-hosting is drawn only up to the plan's capacity.
type CostChart struct {
	Currency string        `json:"currency"`
	XLabel   string        `json:"x_label"`
	YLabel   string        `json:"y_label"`
	XMax     float64       `json:"x_max"`
	Series   []ChartSeries `json:"series"`
	Markers  []ChartMarker `json:"markers"`
	Notes    []string      `json:"notes"`
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

// ChartMarker marks a point on the chart: a crossover, a scenario or the
// end of the plan's capacity. Series names the line a crossover lies on.
type ChartMarker struct {
	Series string  `json:"series,omitempty"`
	Label  string  `json:"label"`
	Kind   string  `json:"kind"` // "crossover", "scenario" or "plan" (the plan's capacity)
	Demand float64 `json:"demand"`
	Cost   float64 `json:"cost"`
}

// monthlyPerBox is the monthly demand one box serves when share of it falls
// in the busiest hour; 0 when unknown.
func monthlyPerBox(capacity Capacity, share float64) float64 {
	if capacity.PerBoxRate == nil || share <= 0 {
		return 0
	}
	return *capacity.PerBoxRate * 3600 / share
}

// perBoxMissing names the input that leaves the monthly demand one box
// serves unknown: the demonstrated ceiling, or the scenarios' busy hour.
func perBoxMissing(capacity Capacity, share float64) string {
	if capacity.PerBoxRate == nil {
		if capacity.Reason == "" {
			return "capacity per box unknown: no demonstrated ceiling"
		}
		return capacity.Reason
	}
	if share <= 0 {
		return "the demand a box serves a month is unknown: no demand scenario gives its busiest hour (enter the expected scenario under Demand scenarios)"
	}
	return "the demand a box serves a month is unknown"
}

// FindCrossover finds the break-even demand between self-hosting and one
// quote, plain and counting whole boxes. share is the busy-hour share used to
// turn per-box capacity into monthly demand (0 when no scenario gives one).
//
// A quote with volume tiers or a minimum commitment is priced in straight
// pieces; F_api and V_api are then the intercept and slope of the piece in
// which the costs cross (the first piece when they never do).
func FindCrossover(self SelfHostedCost, q QuoteCost, capacity Capacity, share float64) Crossover {
	fl, vl := self.FixedPerBox.Exact, self.PerRequest.Exact
	perBox := monthlyPerBox(capacity, share)
	st := stepsOf(capacity, share)
	fleetNote := ""
	if capacity.Fleet != nil && perBox > 0 {
		// The smallest fleet is one serving box and its reserve.
		perBox = st.topF(1)
		if n := st.paid(1); n > 1 {
			fl = fl.Mul(decimal.NewFromInt(int64(n)))
			fleetNote = fmt.Sprintf(", F_local being %s (one serving box and its reserve)", boxes(n))
		}
	}
	seg := crossingSegment(q.segments(), fl, vl)
	fa, va := seg.Intercept.Exact, seg.Slope.Exact
	x := Crossover{Quote: q.Name, FLocal: NewMoney(fl), FAPI: seg.Intercept, VLocal: self.PerRequest, VAPI: seg.Slope}
	if fleetNote == "" {
		x.FLocal = self.FixedPerBox
	}
	num, den := fl.Sub(fa), va.Sub(vl)
	x.Formula = fmt.Sprintf("N = (F_local - F_api) / (V_api - V_local) = (%s - %s) / (%s - %s)%s", fl, fa, va, vl, fleetNote)
	x.FormulaRounded = fmt.Sprintf("N = (F_local - F_api) / (V_api - V_local) = (%s - %s) / (%s - %s)",
		fl.StringFixed(2), fa.StringFixed(2), sigDigits(va, 4), sigDigits(vl, 4))
	if !q.Linear() {
		note := fmt.Sprintf(" (the piece of %s's tiered price from %s requests a month)", q.Name, DisplayCount(RoundRequests(seg.From, Wanted)))
		x.Formula += note
		x.FormulaRounded += note
	}

	switch {
	case !den.IsPositive():
		x.Reason = fmt.Sprintf("the API costs no more per request than self-hosting (V_api %s, at most V_local %s): there is no demand above which self-hosting becomes cheaper", va, vl)
	case !num.IsPositive():
		x.Exists = true
		zero := decimal.Zero
		x.N, x.NRounded = &zero, new(int64)
		x.Text = fmt.Sprintf("self-hosting is cheaper than %s at any demand: its fixed monthly cost %s is not above the API's %s", q.Name, fl, fa)
	default:
		x.Exists = true
		n := num.Div(den)
		x.N = &n
		r, d := RoundRequests(n, Wanted), PerDay(n)
		x.NRounded, x.NPerDay = &r, &d
		x.FormulaRounded = reproducingFormula(fl, fa, va, vl, r)
		if !q.Linear() {
			x.FormulaRounded += fmt.Sprintf(" (the piece of %s's tiered price from %s requests a month)", q.Name, DisplayCount(RoundRequests(seg.From, Wanted)))
		}
		x.Text = fmt.Sprintf("self-hosting breaks even with %s at %s requests a month (%s a day) and is cheaper above that", q.Name, groupDigits(r), groupDigits(d))
	}
	if x.Exists && perBox > 0 {
		within := x.N.InexactFloat64() <= perBox
		x.WithinCapacity = &within
		if !within {
			what := "one box serves"
			if capacity.Fleet != nil {
				what = "one serving box serves"
			}
			x.Reason = fmt.Sprintf("the crossover (%s requests a month) lies beyond what %s within the objective (%s a month with the busiest hour at %s times the average rate)", groupDigits(*x.NRounded), what, groupDigits(int64(math.Floor(perBox))), fmtNum(share*secondsPerMonth()/3600))
			x.Text = x.Reason
		}
	}
	if perBox > 0 {
		x.Stepped = steppedOver(self.FixedPerBox.Exact, q.segments(), vl, st)
		switch {
		case x.Stepped != nil:
			if x.Text == "" {
				x.Text = x.Reason
			}
			x.Text += "; counting whole boxes: " + x.Stepped.Text
		case x.Exists:
			x.SteppedNote = "self-hosting is never cheaper: each box costs more than the API charges for the work it can serve"
			x.Text += "; counting whole boxes, " + x.SteppedNote
		}
	} else if x.Exists {
		x.SteppedNote = perBoxMissing(capacity, share) + ": the stepped crossover cannot be computed"
		x.Text += " (" + x.SteppedNote + ")"
	}
	if x.Text == "" {
		x.Text = x.Reason
	}
	return x
}

// boxSteps are the whole-box steps of self-hosting's cost: k serving
// boxes serve topF(k) requests a month and paid(k) boxes are bought for
// them (k, or k and the fleet's reserve); serving is the most serving
// boxes the plan's maxBoxes hold.
type boxSteps struct {
	maxBoxes, serving int
	topF              func(k int) float64
	paid              func(k int) int
}

// servingOf is the most serving boxes bought as paid boxes.
func (b boxSteps) servingOf(paid int) int {
	k := 0
	for n := 1; n <= b.serving; n++ {
		if b.paid(n) == paid {
			k = n
		}
	}
	return k
}

// top is topF rounded down to a whole request (segmentTop's rule).
func (b boxSteps) top(k int) int64 { return int64(math.Floor(b.topF(k) + 1e-6)) }

// stepsOf is the steps of a capacity at a busy-hour share: one box at a
// time without a fleet, else as Capacity.Serves and the reserve size them.
func stepsOf(capacity Capacity, share float64) boxSteps {
	maxBoxes := max(1, capacity.MaxBoxes)
	perBox := monthlyPerBox(capacity, share)
	if capacity.Fleet == nil || perBox <= 0 {
		return linearSteps(perBox, maxBoxes)
	}
	return boxSteps{maxBoxes: maxBoxes, serving: capacity.maxServing(maxBoxes),
		topF: func(k int) float64 { return capacity.Serves(k) * 3600 / share },
		paid: capacity.paid}
}

// linearSteps is one box at a time, each serving perBox a month.
func linearSteps(perBox float64, maxBoxes int) boxSteps {
	return boxSteps{maxBoxes: maxBoxes, serving: maxBoxes,
		topF: func(k int) float64 { return perBox * float64(k) },
		paid: func(k int) int { return k }}
}

// cheaperWithin returns the whole demands in [lo, hi] at which k boxes cost
// less than the API: self - api = k x F_local - F_api - D x (V_api - V_local) < 0.
func cheaperWithin(fl, fa, vl, va decimal.Decimal, k int, lo, hi int64) (from, to int64, ok bool) {
	if hi < lo {
		return 0, 0, false
	}
	den := va.Sub(vl)
	base := fl.Mul(decimal.NewFromInt(int64(k))).Sub(fa)
	dLo, dHi := decimal.NewFromInt(lo), decimal.NewFromInt(hi)
	switch den.Sign() {
	case 1: // cheaper above base / den
		q := base.Div(den).Floor()
		if q.GreaterThanOrEqual(dHi) {
			return 0, 0, false
		}
		if q.LessThan(dLo) {
			return lo, hi, true
		}
		return q.IntPart() + 1, hi, true
	case -1: // cheaper below base / den
		q := base.Div(den).Ceil()
		if q.LessThanOrEqual(dLo) {
			return 0, 0, false
		}
		if q.GreaterThan(dHi) {
			return lo, hi, true
		}
		return lo, q.IntPart() - 1, true
	default:
		if base.IsNegative() {
			return lo, hi, true
		}
		return 0, 0, false
	}
}

// steppedCrossover finds every range of whole monthly demand, within the
// plan's maxBoxes, over which as many boxes as the demand needs cost less
// than the API, and states them; nil when there is none.
func steppedCrossover(fl, fa, vl, va decimal.Decimal, perBox float64, maxBoxes int) *SteppedCrossover {
	return steppedOver(fl, []CostSegment{{Intercept: NewMoney(fa), Slope: NewMoney(va)}}, vl, linearSteps(perBox, max(1, maxBoxes)))
}

// steppedOver is steppedCrossover against an API price in straight
// pieces, over the steps st (fl is one box's fixed cost).
func steppedOver(fl decimal.Decimal, api []CostSegment, vl decimal.Decimal, st boxSteps) *SteppedCrossover {
	if st.serving < 1 {
		return nil
	}
	s := &SteppedCrossover{MaxBoxes: st.maxBoxes, PlanCapacity: st.top(st.serving)}
	lo := int64(0)
	for k := 1; k <= st.serving; k++ {
		hi := st.top(k)
		paid := st.paid(k)
		// Within k boxes' demand, each straight piece of the API's price.
		for _, seg := range api {
			sLo, sHi := max(lo, RoundRequests(seg.From, Wanted)), hi
			if seg.To != nil {
				sHi = min(hi, RoundRequests(*seg.To, Wanted)-1)
			}
			from, to, ok := cheaperWithin(fl, seg.Intercept.Exact, vl, seg.Slope.Exact, paid, sLo, sHi)
			if !ok {
				continue
			}
			if n := len(s.Ranges); n > 0 && s.Ranges[n-1].To+1 == from {
				s.Ranges[n-1].To, s.Ranges[n-1].MaxBoxes = to, paid
				continue
			}
			s.Ranges = append(s.Ranges, SteppedRange{From: from, To: to, MinBoxes: paid, MaxBoxes: paid})
		}
		lo = max(lo, hi+1)
	}
	if len(s.Ranges) == 0 {
		// A range exists with k boxes only if it exists with one: the
		// break-even grows by F_local / (V_api - V_local) a box while the
		// capacity grows by one box's demand.
		return nil
	}
	s.Demand, s.Boxes = s.Ranges[0].From, s.Ranges[0].MinBoxes
	s.Text = steppedText(s, st)
	return s
}

// steppedText states the ranges of a stepped crossover in one sentence:
// where self-hosting is cheaper, where the next box makes the API cheaper
// again, and where demand exceeds the plan.
func steppedText(s *SteppedCrossover, st boxSteps) string {
	var b strings.Builder
	for i, r := range s.Ranges {
		if i > 0 {
			fmt.Fprintf(&b, "; above that %s, up to %s requests a month; self-hosting is cheaper again ",
				apiCheaper(s.Ranges, i-1, st), groupDigits(r.From-1))
		} else {
			b.WriteString("self-hosting is cheaper ")
		}
		if r.From == 0 {
			fmt.Fprintf(&b, "up to %s requests a month (%s)", groupDigits(r.To), boxRange(r))
		} else {
			fmt.Fprintf(&b, "from %s to %s requests a month (%s)", groupDigits(r.From), groupDigits(r.To), boxRange(r))
		}
	}
	if n := len(s.Ranges); s.Ranges[n-1].To < s.PlanCapacity {
		fmt.Fprintf(&b, "; above that %s, up to %s requests a month", apiCheaper(s.Ranges, n-1, st), groupDigits(s.PlanCapacity))
	}
	fmt.Fprintf(&b, "; above %s requests a month demand exceeds the plan's %s", groupDigits(s.PlanCapacity), boxes(s.MaxBoxes))
	return b.String()
}

// apiCheaper says that the API is cheaper after range i, and why when the
// range ended where its boxes were full: the next box; "again" when the API
// was cheaper before it too.
func apiCheaper(rs []SteppedRange, i int, st boxSteps) string {
	again := ""
	if i > 0 || rs[i].From > 0 {
		again = " again"
	}
	if r := rs[i]; r.To == st.top(st.servingOf(r.MaxBoxes)) {
		return fmt.Sprintf("a %s box makes the API cheaper%s", ordinal(r.MaxBoxes+1), again)
	}
	return "the API is cheaper" + again
}

// boxes writes a count of boxes: "1 box", "2 boxes".
func boxes(n int) string { return fmt.Sprintf("%d %s", n, plural(n, "box", "boxes")) }

// boxRange writes the boxes of a range: "1 box", "2 boxes", "1 to 3 boxes".
func boxRange(r SteppedRange) string {
	if r.MinBoxes == r.MaxBoxes {
		return boxes(r.MinBoxes)
	}
	return fmt.Sprintf("%d to %d boxes", r.MinBoxes, r.MaxBoxes)
}

// ordinal writes n as an ordinal: "second", "third", ..., "11th", "22nd".
func ordinal(n int) string {
	words := []string{"zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"}
	if n >= 0 && n < len(words) {
		return words[n]
	}
	return rankText(n)
}

// chartReach is how far beyond the plan's capacity (or the peak scenario)
// the demand axis stretches to show a crossover.
const chartReach = 3

// BuildChart draws monthly cost against monthly demand: self-hosting stepped
// by boxes up to the plan's maximum, one straight line per quote, crossovers
// within reach and scenarios marked (see CostChart for the demand range).
func BuildChart(currency string, self SelfHostedCost, quotes []QuoteCost, xs []Crossover, scenarios []ScenarioResult, capacity Capacity, share float64) CostChart {
	ch := CostChart{Currency: currency, XLabel: "successful in-objective requests a month", YLabel: "monthly cost (" + currency + ")", Notes: []string{}}
	perBox := monthlyPerBox(capacity, share)
	maxBoxes := max(1, capacity.MaxBoxes)
	st := stepsOf(capacity, share)
	planCap := perBox * float64(maxBoxes)
	if capacity.Fleet != nil && perBox > 0 {
		planCap = 0
		if st.serving > 0 {
			planCap = st.topF(st.serving)
		}
	}
	base := planCap
	for _, s := range scenarios {
		base = max(base, float64(s.Scenario.MonthlyRequests))
	}
	type cross struct {
		quote  int
		demand float64
	}
	var drawn []cross
	top := base
	for i, x := range xs {
		if i >= len(quotes) {
			break
		}
		d := crossoverDemand(x)
		if d < 0 {
			continue
		}
		if base > 0 && d > chartReach*base {
			where := "beyond the drawn range"
			if planCap > 0 && d > planCap {
				where = fmt.Sprintf("beyond the plan's capacity (%s a month with %s)", groupInt(planCap), boxes(maxBoxes))
			}
			ch.Notes = append(ch.Notes, fmt.Sprintf("The crossover with %s is at %s requests a month, %s: not drawn.", x.Quote, compactCount(d), where))
			continue
		}
		drawn = append(drawn, cross{i, d})
		top = max(top, d)
	}
	if top <= 0 {
		top = 100_000
	}
	xmax := niceCeil(top * 1.1)
	ch.XMax = xmax

	fl, vl := self.FixedPerBox.Exact.InexactFloat64(), self.PerRequest.Exact.InexactFloat64()
	selfCost := func(k int, d float64) float64 { return float64(k)*fl + d*vl }
	sh := ChartSeries{Name: "self-hosted", Kind: "self-hosted"}
	if perBox <= 0 {
		sh.Points = []ChartPoint{{0, selfCost(1, 0)}, {xmax, selfCost(1, xmax)}}
		ch.Notes = append(ch.Notes, "Self-hosting is drawn as one box: "+perBoxMissing(capacity, share)+".")
	} else {
		lo := 0.0
		for k := 1; k <= st.serving; k++ {
			hi := math.Min(st.topF(k), xmax)
			sh.Points = append(sh.Points, ChartPoint{lo, selfCost(st.paid(k), lo)}, ChartPoint{hi, selfCost(st.paid(k), hi)})
			if hi >= xmax {
				break
			}
			lo = hi
		}
		if capacity.Fleet != nil && st.serving < 1 {
			ch.Notes = append(ch.Notes, fmt.Sprintf("The plan's %s hold no serving box beside the reserve: self-hosting is not drawn.", boxes(maxBoxes)))
		} else if planCap < xmax {
			label := fmt.Sprintf("plan's capacity: %s, %s a month", boxes(maxBoxes), groupInt(planCap))
			if capacity.Fleet != nil {
				label = fmt.Sprintf("plan's capacity: %s (%d in reserve), %s a month", boxes(st.paid(st.serving)), st.paid(st.serving)-st.serving, groupInt(planCap))
			}
			ch.Markers = append(ch.Markers, ChartMarker{Series: sh.Name, Kind: "plan", Demand: planCap, Cost: selfCost(st.paid(max(1, st.serving)), planCap),
				Label: label})
		}
	}
	ch.Series = append(ch.Series, sh)
	for _, q := range quotes {
		// A straight line, or a point where each piece of a tiered price starts.
		pts := []ChartPoint{{0, costAt(q, 0)}}
		for _, seg := range q.segments()[1:] {
			if f := seg.From.InexactFloat64(); f > 0 && f < xmax {
				pts = append(pts, ChartPoint{f, costAt(q, f)})
			}
		}
		ch.Series = append(ch.Series, ChartSeries{Name: q.Name, Kind: "api", Points: append(pts, ChartPoint{xmax, costAt(q, xmax)})})
	}
	for _, c := range drawn {
		q := quotes[c.quote]
		ch.Markers = append(ch.Markers, ChartMarker{Series: q.Name, Kind: "crossover", Demand: c.demand,
			Label: fmt.Sprintf("crossover %s/month", groupInt(c.demand)),
			Cost:  costAt(q, c.demand)})
	}
	for _, s := range scenarios {
		if len(s.Options) > 0 {
			ch.Markers = append(ch.Markers, ChartMarker{Label: s.Scenario.Name, Kind: "scenario", Demand: float64(s.Scenario.MonthlyRequests), Cost: s.Options[0].MonthlyCost.Exact.InexactFloat64()})
		}
	}
	return ch
}

// crossoverDemand is where a crossover is drawn: the stepped break-even
// when there is one, else the plain N; -1 when there is neither.
func crossoverDemand(x Crossover) float64 {
	switch {
	case x.Stepped != nil:
		return float64(x.Stepped.Demand)
	case x.N != nil:
		return x.N.InexactFloat64()
	}
	return -1
}

// niceCeil returns the smallest of 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8 or 10 times
// a power of ten that is at least x (x > 0).
func niceCeil(x float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10} {
		if m*p >= x*(1-1e-12) {
			return m * p
		}
	}
	return 10 * p
}

// groupInt writes v rounded to a whole number with thousands separators:
// 66666.7 -> "66,667".
func groupInt(v float64) string {
	s := strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// compactCount writes a large count for a sentence, to 3 significant
// figures (DisplayNumber): "8.28 million" from 8,275,383, "30 million",
// "66,667" below a million.
func compactCount(v float64) string {
	switch {
	case math.Abs(v) >= 1e9:
		return DisplayNumber(v/1e9, 0) + " billion"
	case math.Abs(v) >= 1e6:
		return DisplayNumber(v/1e6, 0) + " million"
	}
	return groupInt(v)
}

// reproducingFormula writes the crossover's formula with its inputs
// rounded for reading (money to cents, per-request costs to 4 significant
// figures) and no further than still gives the crossover: the figures
// shown, divided out, give the exact N to the two decimals shown (cut, as
// quotientText writes it), and so the count it rounds up to (RoundRequests,
// the one rule). Where cents and 4 figures are not enough, each gets one
// more digit until they are (the exact values at worst). The formula ends
// with the quotient and the count it rounds up to.
func reproducingFormula(fl, fa, va, vl decimal.Decimal, want int64) string {
	money := func(m decimal.Decimal, extra int) string {
		s := m.StringFixed(int32(2 + extra))
		for extra > 0 && strings.HasSuffix(s, "0") {
			s, extra = s[:len(s)-1], extra-1
		}
		return s
	}
	shown := func(extra int) (a, b, c, d string) {
		return money(fl, extra), money(fa, extra), sigDigits(va, 4+extra), sigDigits(vl, 4+extra)
	}
	var a, b, c, d string
	var n decimal.Decimal
	exact := fl.Sub(fa).Div(va.Sub(vl))
	for extra := 0; ; extra++ {
		a, b, c, d = shown(extra)
		den := decimal.RequireFromString(c).Sub(decimal.RequireFromString(d))
		if extra >= 16 || !den.IsPositive() {
			a, b, c, d = fl.String(), fa.String(), va.String(), vl.String()
			n = exact
			break
		}
		n = decimal.RequireFromString(a).Sub(decimal.RequireFromString(b)).Div(den)
		if RoundRequests(n, Wanted) == want && quotientText(n) == quotientText(exact) {
			break
		}
	}
	return fmt.Sprintf("N = (F_local - F_api) / (V_api - V_local) = (%s - %s) / (%s - %s) = %s, rounded up to %s",
		a, b, c, d, quotientText(n), DisplayCount(want))
}

// quotientText writes a quotient to two decimals, cut rather than rounded
// (so it never reads as the next whole request); more when two decimals
// would hide that it is not whole.
func quotientText(n decimal.Decimal) string {
	t := n.Truncate(2)
	if t.Equal(t.Truncate(0)) && !n.Equal(t) {
		t = n.Truncate(8)
	}
	whole, frac, _ := strings.Cut(t.StringFixed(max(2, -t.Exponent())), ".")
	w, _ := strconv.ParseInt(whole, 10, 64)
	return groupDigits(w) + "." + frac
}

// sigDigits writes d rounded to n significant digits: 0.00026112 -> 0.0002611;
// whole-number digits are never dropped.
func sigDigits(d decimal.Decimal, n int) string {
	if d.IsZero() {
		return "0"
	}
	exp := int(math.Floor(math.Log10(math.Abs(d.InexactFloat64()))))
	places := max(0, n-1-exp)
	return d.Round(int32(places)).String()
}

// groupDigits writes a whole number with thousands separators: 75,000.
func groupDigits(v int64) string {
	s := strconv.FormatInt(v, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// crossingSegment picks the straight piece of an API price in which it
// first costs more than one self-hosted box (F_local + V_local x demand):
// the first piece whose end is above the box's cost, or which rises faster
// when unbounded; the last piece when there is none (the API stays cheaper
// per request at volume).
func crossingSegment(segs []CostSegment, fl, vl decimal.Decimal) CostSegment {
	if len(segs) == 1 {
		return segs[0]
	}
	for _, s := range segs {
		if s.To == nil {
			if s.Slope.Exact.GreaterThan(vl) || s.at(s.From).GreaterThan(fl.Add(vl.Mul(s.From))) {
				return s
			}
			continue
		}
		if s.at(*s.To).GreaterThan(fl.Add(vl.Mul(*s.To))) {
			return s
		}
	}
	return segs[len(segs)-1]
}

// costAt is a quote's monthly cost at a demand, for drawing.
func costAt(q QuoteCost, d float64) float64 {
	dd := decimal.NewFromFloat(d)
	return segmentAt(q.segments(), dd).at(dd).InexactFloat64()
}
