package view

import (
	"fmt"

	"github.com/a-h/templ"

	"capplan/planner"
	"capplan/web/charts"
)

// costChart draws Result.Chart. The planner gives each line as segments of
// two points (self-hosting one segment per box count up to the plan's
// maximum, a quote one straight segment); the chart wants every line on one
// shared demand axis, which the planner gives (CostChart.OnAxis).
// Crossovers are marked on their quote's line; the plan's capacity and the
// scenarios on the self-hosted line.
func costChart(ch planner.CostChart) templ.Component {
	ax := ch.OnAxis()
	c := charts.CostLines{Title: "Monthly cost against monthly demand", Currency: ch.Currency, XName: ch.XLabel,
		Demand: ax.Demand, Series: map[string][]*float64{}, Marks: map[string][]charts.Mark{}}
	if ch.XMax > 0 {
		c.XMax = ch.XMax
	}
	selfName := ""
	for _, l := range ax.Lines {
		c.Series[l.Name] = l.Costs
		if l.Kind == "self-hosted" {
			c.Stepped = append(c.Stepped, l.Name)
			selfName = l.Name
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
				series[o.Option][i] = o.CostPer1000.Exact.InexactFloat64()
			}
		}
	}
	return charts.BarChart("Cost per 1,000 successful in-objective requests", cats, series, r.Currency+" per 1,000")
}

// formulaText is the crossover formula for people: money in cents and
// per-request prices to four significant digits, as the planner wrote it.
func formulaText(x planner.Crossover) string {
	if x.FormulaRounded != "" {
		return x.FormulaRounded
	}
	return x.Formula
}

// queuedScenarios names the scenarios whose busy hour was simulated.
func queuedScenarios(r planner.Result) []string {
	var out []string
	for _, s := range r.Scenarios {
		if s.Queue != nil {
			out = append(out, s.Scenario.Name)
		}
	}
	return out
}

// tokenCostsSummary is the rest of the folded token costs' line: the
// frontier-comparable figure and the all-in one of the scenario the page
// leads with, "" when there is no frontier figure.
func tokenCostsSummary(r planner.Result) string {
	f := r.Frontier
	if f.PerMTokens == nil {
		return ""
	}
	out := fmt.Sprintf(": frontier-comparable %s %s", moneyText(*f.PerMTokens), r.Currency)
	if g := f.Shown(); g != nil {
		out += fmt.Sprintf(", all-in self-hosted %s %s (%s)", moneyText(g.AllIn), r.Currency, g.Scenario)
	}
	return out
}
