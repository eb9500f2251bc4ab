package planner

import "github.com/shopspring/decimal"

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
