package web

import (
	"slices"

	"github.com/a-h/templ"

	"capplan/planner"
	"capplan/web/charts"
)

// costChart draws Result.Chart. The planner gives each line as segments of
// two points (self-hosting one segment per box count, a quote one straight
// segment); charts.CostChart wants every line on one shared demand axis, so
// each line is read off its own segments at every demand the chart names.
// Nothing is computed that the chart does not already hold.
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

	series := map[string][]float64{}
	var stepped []string
	for _, s := range ch.Series {
		ys := make([]float64, len(demand))
		for i, d := range demand {
			ys[i] = onSegments(s.Points, d)
		}
		series[s.Name] = ys
		if s.Kind == "self-hosted" {
			stepped = append(stepped, s.Name)
		}
	}
	crossovers := map[string]float64{}
	for _, m := range ch.Markers {
		if m.Kind != "crossover" {
			continue
		}
		for _, s := range ch.Series {
			if s.Kind == "api" && m.Label == "crossover with "+s.Name {
				crossovers[s.Name] = m.Demand
			}
		}
	}
	return charts.CostChart("Monthly cost against monthly demand", demand, series, crossovers, ch.Currency, stepped)
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
