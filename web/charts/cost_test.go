package charts

import "testing"

// Every mark's label sits above the plot (the top end of its vertical
// line), never along the cost lines, and marks next to each other in
// demand get labels at different heights, whichever line they belong to.
func TestCostMarkLabelsAboveThePlot(t *testing.T) {
	opt := option(t, CostLinesChart(CostLines{
		Title: "Cost", Currency: "EUR", Demand: []float64{0, 100_000},
		Series: map[string][]*float64{"self-hosted": {ptr(2400), ptr(2400)}, "api": {ptr(0), ptr(300)}},
		Marks: map[string][]Mark{
			"self-hosted": {{Label: "plan's capacity", Demand: 86_000}, {Label: "peak", Demand: 60_000, Minor: true}},
			"api":         {{Label: "crossover", Demand: 66_667}},
		},
	}))
	dist := map[string]float64{}
	for _, s := range seriesOf(t, opt) {
		for _, d := range s.MarkLine.Data {
			l, _ := d["label"].(map[string]any)
			if l == nil || l["position"] != "end" {
				t.Errorf("%v: label %v, want it at the line's end above the plot", d["name"], l)
				continue
			}
			dist[d["name"].(string)] = l["distance"].(float64)
		}
	}
	// In demand order: peak 60,000, crossover 66,667, plan 86,000.
	if !(dist["peak"] < dist["crossover"] && dist["crossover"] < dist["plan's capacity"]) {
		t.Errorf("label heights %v: neighbouring marks should be staggered", dist)
	}
	grid := opt["grid"].([]any)[0].(map[string]any)
	if grid["top"] != "108" {
		t.Errorf("grid top %v: want room for three tiers of labels", grid["top"])
	}
}
