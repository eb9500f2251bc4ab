package charts

import (
	"fmt"
	"maps"
	"slices"

	"github.com/a-h/templ"
	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// CostChart plots monthly cost against demand, one line per option.
// series maps an option's name to its cost at each demand point. Names
// listed in stepped (the self-hosted options, whose cost jumps a whole
// replica at a time) are drawn as step lines that hold each point's cost
// until the next demand point. crossovers maps a quote's name to the demand
// at which it crosses the self-hosted cost, drawn as a vertical line on
// that quote's series. currency labels the cost axis, e.g. "USD".
func CostChart(title string, demand []float64, series map[string][]float64, crossovers map[string]float64, currency string, stepped []string) templ.Component {
	c := CostLines{Title: title, Currency: currency, Demand: demand, Series: map[string][]*float64{}, Stepped: stepped, Marks: map[string][]Mark{}}
	for name, ys := range series {
		c.Series[name] = ptrs(ys)
	}
	for name, n := range crossovers {
		c.Marks[name] = []Mark{{Label: fmt.Sprintf("crossover %.0f", n), Demand: n}}
	}
	c.XMax = axisMax(ptrs(demand), slices.Collect(maps.Values(crossovers))...)
	return CostLinesChart(c)
}

// CostLines is what a cost chart shows: every line read off at the shared
// demand points, with labelled vertical marks.
type CostLines struct {
	Title    string
	Currency string
	// XName names the demand axis ("demand" when empty).
	XName string
	// XMax ends the demand axis: a float64, or nil to let ECharts choose.
	XMax   any
	Demand []float64
	// Series maps a line's name to its cost at each demand point; a nil
	// cost leaves a gap (the line is not drawn there).
	Series map[string][]*float64
	// Stepped names the lines drawn as steps (self-hosting, a whole box
	// at a time).
	Stepped []string
	// Marks maps a line's name to the vertical lines drawn with it.
	Marks map[string][]Mark
}

// Mark is a labelled vertical line at a demand. A Minor mark (such as a
// scenario) is drawn dotted and grey, its short label above the plot; the
// others dashed in the line's colour, their label along the line.
type Mark struct {
	Label  string
	Demand float64
	Minor  bool
}

// costMark is one ECharts markLine data item with its own style.
type costMark struct {
	Name      string          `json:"name"`
	XAxis     float64         `json:"xAxis"`
	Label     *opts.Label     `json:"label,omitempty"`
	LineStyle *opts.LineStyle `json:"lineStyle,omitempty"`
}

// CostLinesChart draws c. Lines carry no per-point symbols: the points are
// only where the line bends.
func CostLinesChart(c CostLines) templ.Component {
	xName := c.XName
	if xName == "" {
		xName = "demand"
	}
	line := charts.NewLine()
	line.SetGlobalOptions(append(base(c.Title),
		charts.WithXAxisOpts(opts.XAxis{Type: "value", Name: xName, NameLocation: "middle", NameGap: 30, Min: 0, Max: c.XMax}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: fmt.Sprintf("monthly cost (%s)", c.Currency)}),
	)...)
	line.SetXAxis(nil)

	for _, name := range slices.Sorted(maps.Keys(c.Series)) {
		lc := opts.LineChart{ShowSymbol: opts.Bool(false)}
		if slices.Contains(c.Stepped, name) {
			lc.Step = "end"
		}
		so := []charts.SeriesOpts{charts.WithLineChartOpts(lc)}
		if marks := c.Marks[name]; len(marks) > 0 {
			so = append(so, withCostMarks(marks))
		}
		line.AddSeries(name, xy(c.Demand, c.Series[name]), so...)
	}
	return Component(line)
}

// withCostMarks attaches vertical, labelled lines to a series.
func withCostMarks(marks []Mark) charts.SeriesOpts {
	return func(s *charts.SingleSeries) {
		data := make([]any, len(marks))
		for i, m := range marks {
			item := costMark{Name: m.Label, XAxis: m.Demand,
				Label: &opts.Label{Show: opts.Bool(true), Position: "insideEndTop", Formatter: "{b}"}}
			if m.Minor {
				item.Label = &opts.Label{Show: opts.Bool(true), Position: "end", Formatter: "{b}", Color: "#6b7280"}
				item.LineStyle = &opts.LineStyle{Type: "dotted", Color: "#9ca3af", Width: 1}
			}
			data[i] = item
		}
		s.MarkLines = &opts.MarkLines{
			Data: data,
			MarkLineStyle: opts.MarkLineStyle{
				Symbol:    []string{"none", "none"},
				LineStyle: &opts.LineStyle{Type: "dashed", Width: 1.5},
				Label:     &opts.Label{Show: opts.Bool(true), Formatter: "{b}"},
			},
		}
	}
}
