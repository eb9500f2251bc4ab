package xlsx

import (
	"fmt"
	"math"
	"strings"

	"capplan/planner"
)

// Hybrid plan block rows, counted from the block's "Boxes owned" row.
const (
	hyOwned = iota
	hyServes
	hyPaid
	hyOverflow
	hyOwn
	hyQuotes // one row per compared quote from here, then the rows below
)

// hybridSheet writes each scenario's hybrid plan (docs/method.md, "The
// hybrid plan: own the base, buy the peak") with live formulas: the 24
// hours of an average day as the planner shaped them (typed, imported or
// flat plus peak, said so), and for each n = 0 ... the boxes the scenario
// needs what n boxes at the queue-aware rate per box serve, the overflow
// each hour and summed over a month (rounded up, as the planner rounds
// demand), the self-hosted cost of the base, the cheapest quote at the
// overflow, the monthly cost, the cost per 1,000 and the best n marked.
// The columns are the n the planner costed; a changed price, demand, box
// rate or hour share recalculates them.
func (b *book) hybridSheet() {
	s := b.sheets[shHybrid]
	res := b.r.Result
	b.title(s, "Hybrid plan: own n boxes for the base, send the overflow to the cheapest quote")
	var compared []int
	for i, q := range res.Quotes {
		if q.Excluded == "" {
			compared = append(compared, i)
		}
	}
	maxCols := 0
	written := 0
	for i, sr := range res.Scenarios {
		h := sr.Hybrid
		if h == nil || len(h.Options) == 0 || i >= len(b.scenarioNames) {
			continue
		}
		maxCols = max(maxCols, len(hybridShown(h)))
		b.hybridBlock(s, i, sr, compared)
		written++
	}
	if written == 0 {
		s.add("No hybrid plan: it needs a capacity per box, demand and a compared API quote.")
	}
	widths := []float64{46, 16, 16}
	for range maxCols {
		widths = append(widths, 16)
	}
	s.cols(append(widths, 40)...)
}

func (b *book) hybridBlock(s *sheet, i int, sr planner.ScenarioResult, compared []int) {
	res := b.r.Result
	h := sr.Hybrid
	base := b.scenarioNames[i]
	s.add()
	s.add(excelize_bold(b, fmt.Sprintf("Scenario %s: %s", sr.Scenario.Name, h.Text)))
	s.add("Shape of the days (as computed on export)", v(b.st.wrap, h.ShapeText))
	if shown := hybridShown(h); len(shown) < len(h.Options) {
		s.add("Boxes owned shown", v(b.st.wrap, fmt.Sprintf("%d of the %d the planner costed (0 to %d): the first, those around the best (%d) and the last", len(shown), len(h.Options), len(h.Options)-1, h.Best)))
	}
	reqRow := s.next()
	s.add("Requests a month", fx(b.st.int, base+"_Requests", sr.Scenario.MonthlyRequests))
	req := abs(2, reqRow)
	dayRow := s.next()
	perDay := float64(sr.Scenario.MonthlyRequests) / planner.DaysPerMonth.InexactFloat64()
	s.add("Requests on an average day (a month is 365 / 12 days)", fx(b.st.num, req+"/(365/12)", perDay))
	day := abs(2, dayRow)

	// One column per n shown; opts[k] is column k's.
	opts := hybridShown(h)
	nOpts := len(opts)
	col := func(k int) int { return 4 + k }
	top := s.next()
	row := func(k int) int { return top + k }
	quoteRows := len(compared)
	apiRow := row(hyQuotes + quoteRows)
	monthlyRow, perRow, bestRow := apiRow+2, apiRow+3, apiRow+4
	hoursHdr := bestRow + 2
	firstHour, lastHour := hoursHdr+1, hoursHdr+24
	shares := fmt.Sprintf("%s:%s", abs(2, firstHour), abs(2, lastHour))

	// What each hour's rate is, as cached values (planner.Overflow's).
	rates := make([]float64, 24)
	for hr, sh := range h.Hours {
		rates[hr] = perDay * sh / 3600
	}
	fleet := res.Fleet
	// addRow writes a line of the block: a label, a note beside it and a
	// cell per n.
	addRow := func(label, note any, cell func(n int, o planner.HybridOption) any) {
		cells := []any{label, note, nil}
		for n, o := range opts {
			cells = append(cells, cell(n, o))
		}
		s.add(cells...)
	}
	line := func(label string, cell func(n int, o planner.HybridOption) any) { addRow(label, nil, cell) }
	line("Boxes owned (serving)", func(_ int, o planner.HybridOption) any { return v(b.st.int, o.Boxes) })
	line("They serve (successful in-objective req/s, the queue-aware rate per box)", func(n int, o planner.HybridOption) any {
		nc := rel(col(n), row(hyOwned))
		f := fmt.Sprintf("%s*N(Capacity_Per_Box_Rate)", nc)
		if fleet != nil {
			f = fmt.Sprintf(`IF(%[1]s<=0,0,IF(%[1]s*Fleet_Replicas_Per_Box=1,N(Capacity_Per_Box_Rate),%[1]s*N(Fleet_Box_Rate)))`, nc)
		}
		return fx(b.st.rate, f, o.ServesRate)
	})
	line("Boxes paid (with the fleet's reserve)", func(n int, o planner.HybridOption) any {
		nc := rel(col(n), row(hyOwned))
		switch {
		case fleet == nil:
			return fx(b.st.int, nc, o.Paid)
		case fleet.ReserveRule != planner.ReserveAvailability && fleet.Reserve != nil:
			return fx(b.st.int, fmt.Sprintf("IF(%[1]s<=0,0,%[1]s+Fleet_Reserve)", nc), o.Paid)
		}
		return v(b.st.int, o.Paid) // the availability target's reserve, as computed on export
	})
	line("Overflow requests a month (each hour's above what they serve, x 365 / 12, rounded up)", func(n int, o planner.HybridOption) any {
		c := col(n)
		return fx(b.st.int, fmt.Sprintf("MIN(%s,MAX(0,ROUNDUP(SUM(%s:%s)*(365/12)-1E-6,0)))", req, rel(c, firstHour), rel(c, lastHour)), o.Overflow)
	})
	line("Self-hosted cost a month (boxes paid x F_local + V_local x requests they serve)", func(n int, o planner.HybridOption) any {
		c := col(n)
		return fx(b.st.money, fmt.Sprintf("%s*SH_Fixed_Per_Box+V_Local*(%s-%s)", rel(c, row(hyPaid)), req, rel(c, row(hyOverflow))), money(o.OwnCost))
	})
	for _, qi := range compared {
		qc := res.Quotes[qi]
		// The quote's name alone in the label, which INDEX reads.
		addRow(qc.Name, "at the overflow", func(n int, o planner.HybridOption) any {
			ov := rel(col(n), row(hyOverflow))
			cached := 0.0
			if o.Overflow > 0 {
				cached = money(planner.NewMoney(qc.MonthlyAt(o.Overflow)))
			}
			return fx(b.st.money, fmt.Sprintf("IF(%s<=0,0,%s)", ov, quoteCostAt(quotePrefix(qi), ov, b.r.Inputs.Quotes[qi])), cached)
		})
	}
	firstQ, lastQ := row(hyQuotes), row(hyQuotes+quoteRows-1)
	line("API cost a month (the cheapest quote at the overflow)", func(n int, o planner.HybridOption) any {
		c := col(n)
		return fx(b.st.money, fmt.Sprintf("IF(%s<=0,0,MIN(%s:%s))", rel(c, row(hyOverflow)), rel(c, firstQ), rel(c, lastQ)), money(o.APICost))
	})
	line("Overflow sent to", func(n int, o planner.HybridOption) any {
		c := col(n)
		return fx(0, fmt.Sprintf(`IF(%s<=0,"",INDEX(%s:%s,MATCH(%s,%s:%s,0)))`, rel(c, row(hyOverflow)), abs(1, firstQ), abs(1, lastQ), rel(c, apiRow), rel(c, firstQ), rel(c, lastQ)), quoteLabel(o))
	})
	line("Monthly cost", func(n int, o planner.HybridOption) any {
		c := col(n)
		return fx(b.st.money, fmt.Sprintf("%s+%s", rel(c, row(hyOwn)), rel(c, apiRow)), money(o.Monthly))
	})
	line("Cost per 1,000 successful in-objective requests", func(n int, o planner.HybridOption) any {
		return fx(b.st.money, fmt.Sprintf(`IF(%[1]s<=0,"",%[2]s*1000/%[1]s)`, req, rel(col(n), monthlyRow)), optMoney(o.CostPer1000))
	})
	monthly := fmt.Sprintf("%s:%s", abs(col(0), monthlyRow), abs(col(nOpts-1), monthlyRow))
	owned := fmt.Sprintf("%s:%s", abs(col(0), row(hyOwned)), abs(col(nOpts-1), row(hyOwned)))
	best := fmt.Sprintf("INDEX(%[2]s,MATCH(MIN(%[1]s),%[1]s,0))", monthly, owned)
	cells := []any{"Best: boxes owned (the cheapest monthly cost, the first when tied)", fx(b.st.int, best, h.Best), nil}
	for n, o := range opts {
		mark := ""
		if o.Boxes == h.Best {
			mark = "best"
		}
		cells = append(cells, fx(0, fmt.Sprintf(`IF(%s=%s,"best","")`, rel(col(n), row(hyOwned)), abs(2, bestRow)), mark))
	}
	s.add(cells...)
	b.name(base+"_Hybrid_Best", s, 2, bestRow)
	for n, o := range opts {
		b.name(fmt.Sprintf("%s_Hybrid_%d_Overflow", base, o.Boxes), s, col(n), row(hyOverflow))
		b.name(fmt.Sprintf("%s_Hybrid_%d_Monthly", base, o.Boxes), s, col(n), monthlyRow)
		b.name(fmt.Sprintf("%s_Hybrid_%d_Per_1000", base, o.Boxes), s, col(n), perRow)
	}

	s.add()
	hdr := []string{"Hour of the day", "Share of a day's requests (" + shapeWord(h.Shape) + ")", "Rate that hour (req/s)"}
	for _, o := range opts {
		hdr = append(hdr, fmt.Sprintf("Overflow that hour with %d owned (requests)", o.Boxes))
	}
	b.headers(s, hdr...)
	for hr := range 24 {
		r := firstHour + hr
		cells := []any{fmt.Sprintf("%02d:00", hr), v(b.st.pctIn, h.Hours[hr]),
			fx(b.st.rate, fmt.Sprintf("IF(SUM(%[1]s)<=0,0,%[2]s*%[3]s/SUM(%[1]s)/3600)", shares, day, rel(2, r)), rates[hr])}
		for n, o := range opts {
			cells = append(cells, fx(b.st.num, fmt.Sprintf("MAX(0,%s-%s)*3600", rel(3, r), abs(col(n), row(hyServes))), math.Max(0, rates[hr]-o.ServesRate)*3600))
		}
		s.add(cells...)
	}
}

// hybridShown is the options a scenario's block shows (the page's window,
// see planner.Hybrid.Shown).
func hybridShown(h *planner.Hybrid) []planner.HybridOption {
	shown, _ := h.Shown()
	return shown
}

// quoteLabel is where an option's overflow goes, empty without one.
func quoteLabel(o planner.HybridOption) string {
	if o.Overflow <= 0 {
		return ""
	}
	return o.Quote
}

// shapeWord names where the day's shape came from.
func shapeWord(shape string) string {
	switch shape {
	case planner.ShapeTyped:
		return "typed day profile"
	case planner.ShapeImported:
		return "imported traffic's mean day"
	}
	return strings.ReplaceAll(planner.ShapeFlatPeak, "-", " ") + ": no profile typed or imported"
}
