package planner

import (
	"testing"

	"github.com/shopspring/decimal"
)

func TestCostChartOnAxis(t *testing.T) {
	ch := CostChart{
		Series: []ChartSeries{
			// Self-hosting: 2,000 for the first box up to 1,000 requests,
			// 4,000 with two boxes up to 2,000: a step at 1,000.
			{Name: "self-hosted", Kind: "self-hosted", Points: []ChartPoint{{0, 2000}, {1000, 2000}, {1000, 4000}, {2000, 4000}}},
			// An API at 3 per request beyond 500 of fixed charges.
			{Name: "api", Kind: "api", Points: []ChartPoint{{0, 500}, {3000, 9500}}},
		},
		Markers: []ChartMarker{{Kind: "scenario", Demand: 500}, {Kind: "crossover", Demand: 3000}},
	}
	ax := ch.OnAxis()
	wantDemand := []float64{0, 500, 1000, 2000, 3000}
	if len(ax.Demand) != len(wantDemand) {
		t.Fatalf("demand %v, want %v", ax.Demand, wantDemand)
	}
	for i, d := range wantDemand {
		if ax.Demand[i] != d {
			t.Fatalf("demand %v, want %v", ax.Demand, wantDemand)
		}
	}
	self, api := ax.Lines[0].Costs, ax.Lines[1].Costs
	for i, want := range []float64{2000, 2000, 4000, 4000} { // the step is taken at 1,000
		if self[i] == nil || *self[i] != want {
			t.Errorf("self-hosted at %g = %v, want %g", ax.Demand[i], self[i], want)
		}
	}
	if self[4] != nil {
		t.Errorf("self-hosted beyond the plan = %v, want no value", *self[4])
	}
	for i, want := range []float64{500, 2000, 3500, 6500, 9500} {
		if api[i] == nil || *api[i] != want {
			t.Errorf("api at %g = %v, want %g", ax.Demand[i], api[i], want)
		}
	}
}

func TestScenarioCheapest(t *testing.T) {
	m := func(s string) *Money { v := NewMoney(decimal.RequireFromString(s)); return &v }
	tests := []struct {
		name string
		opts []OptionCost
		want []string
	}{
		{"the API wins", []OptionCost{{Option: "self-hosted", CostPer1000: m("25")}, {Option: "api", CostPer1000: m("30")}}, []string{"self-hosted"}},
		{"a tie names both", []OptionCost{{Option: "a", CostPer1000: m("30")}, {Option: "b", CostPer1000: m("30")}}, []string{"a", "b"}},
		{"one priced option compares with nothing", []OptionCost{{Option: "a", CostPer1000: m("30")}, {Option: "b"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ScenarioResult{Options: tt.opts}.Cheapest()
			if len(got) != len(tt.want) {
				t.Fatalf("cheapest %v, want %v", got, tt.want)
			}
			for _, w := range tt.want {
				if !got[w] {
					t.Errorf("cheapest %v lacks %s", got, w)
				}
			}
		})
	}
}
