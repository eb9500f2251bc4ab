package web

import (
	"slices"

	"github.com/a-h/templ"

	"capplan/planner"
	"capplan/web/charts"
)

// costChart draws Result.Chart. The planner gives each line as segments of
// two points (self-hosting one segment per box count up to the plan's
// maximum, a quote one straight segment); the chart wants every line on one
// shared demand axis, so each line is read off its own segments at every
// demand the chart names, and left blank beyond its last point (self-hosting
// beyond the plan's capacity). Crossovers are marked on their quote's line;
// the plan's capacity and the scenarios on the self-hosted line. Nothing is
// computed that the chart does not already hold.
func costChart(ch planner.CostChart) templ.Component {
	var demand []float64
	for _, s := range ch.Series {
		for _, p := range s.Points {
			demand = append(demand, p.Demand)
		}
	}
	for _, m := range ch.Markers {
		demand = append(demand, m.Demand)
	}
	slices.Sort(demand)
	demand = slices.Compact(demand)

	c := charts.CostLines{Title: "Monthly cost against monthly demand", Currency: ch.Currency, XName: ch.XLabel,
		Demand: demand, Series: map[string][]*float64{}, Marks: map[string][]charts.Mark{}}
	if ch.XMax > 0 {
		c.XMax = ch.XMax
	}
	selfName := ""
	for _, s := range ch.Series {
		ys := make([]*float64, len(demand))
		for i, d := range demand {
			if len(s.Points) > 0 && d >= s.Points[0].Demand && d <= s.Points[len(s.Points)-1].Demand {
				y := onSegments(s.Points, d)
				ys[i] = &y
			}
		}
		c.Series[s.Name] = ys
		if s.Kind == "self-hosted" {
			c.Stepped = append(c.Stepped, s.Name)
			selfName = s.Name
		}
	}
	for _, m := range ch.Markers {
		switch {
		case m.Kind == "crossover" && m.Series != "":
			c.Marks[m.Series] = append(c.Marks[m.Series], charts.Mark{Label: m.Label, Demand: m.Demand})
		case m.Kind == "plan" && selfName != "":
			c.Marks[selfName] = append(c.Marks[selfName], charts.Mark{Label: m.Label, Demand: m.Demand})
		case m.Kind == "scenario" && selfName != "":
			c.Marks[selfName] = append(c.Marks[selfName], charts.Mark{Label: m.Label, Demand: m.Demand, Minor: true})
		}
	}
	return charts.CostLinesChart(c)
}

// onSegments reads a line given as consecutive two-point segments at x: the
// segment whose start is at or below x and whose end is above it (the last
// one beyond its end), straight between its two points.
func onSegments(ps []planner.ChartPoint, x float64) float64 {
	if len(ps) == 0 {
		return 0
	}
	if len(ps) == 1 {
		return ps[0].Cost
	}
	seg := 0
	for j := 0; j+1 < len(ps); j += 2 {
		if ps[j].Demand <= x {
			seg = j
		}
		if ps[j].Demand <= x && x < ps[j+1].Demand {
			break
		}
	}
	a, b := ps[seg], ps[min(seg+1, len(ps)-1)]
	if b.Demand == a.Demand {
		return a.Cost
	}
	return a.Cost + (b.Cost-a.Cost)*(x-a.Demand)/(b.Demand-a.Demand)
}

// per1000Chart draws the cost per 1,000 successful in-objective requests of
// every option in every scenario, as the planner rounded it.
func per1000Chart(r planner.Result) templ.Component {
	var cats []string
	series := map[string][]float64{}
	for i, s := range r.Scenarios {
		cats = append(cats, s.Scenario.Name)
		for _, o := range s.Options {
			if _, ok := series[o.Option]; !ok {
				series[o.Option] = make([]float64, len(r.Scenarios))
			}
			if o.CostPer1000 != nil {
				series[o.Option][i] = o.CostPer1000.Rounded.InexactFloat64()
			}
		}
	}
	return charts.BarChart("Cost per 1,000 successful in-objective requests", cats, series, r.Currency+" per 1,000")
}

// cheapestOptions names the options with the lowest cost per 1,000 in a
// scenario, as the planner computed it (exact amounts compared; ties all
// named). Options without a cost per 1,000 take no part.
func cheapestOptions(s planner.ScenarioResult) map[string]bool {
	var best *planner.Money
	for _, o := range s.Options {
		if o.CostPer1000 != nil && (best == nil || o.CostPer1000.Exact.LessThan(best.Exact)) {
			best = o.CostPer1000
		}
	}
	out := map[string]bool{}
	if best == nil || len(s.Options) < 2 {
		return out
	}
	for _, o := range s.Options {
		if o.CostPer1000 != nil && o.CostPer1000.Exact.Equal(best.Exact) {
			out[o.Option] = true
		}
	}
	return out
}

// formulaText is the crossover formula for people: money in cents and
// per-request prices to four significant digits, as the planner wrote it.
func formulaText(x planner.Crossover) string {
	if x.FormulaRounded != "" {
		return x.FormulaRounded
	}
	return x.Formula
}
