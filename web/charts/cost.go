package charts

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"

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
// scenario) is drawn dotted and grey, the others dashed in the line's
// colour. Every mark's label sits above the plot, at the line's top end,
// clear of the cost lines; labels of neighbouring marks are staggered in
// height so they do not print over each other.
type Mark struct {
	Label  string
	Demand float64
	Minor  bool
}

// costMark is one ECharts markLine data item with its own style.
type costMark struct {
	Name      string          `json:"name"`
	XAxis     float64         `json:"xAxis"`
	Label     *markLabel      `json:"label,omitempty"`
	LineStyle *opts.LineStyle `json:"lineStyle,omitempty"`
}

// markLabel is a markLine label with the distance from the line's end,
// which opts.Label does not carry.
type markLabel struct {
	Show            bool   `json:"show"`
	Position        string `json:"position"`
	Formatter       string `json:"formatter"`
	Distance        int    `json:"distance"`
	Color           string `json:"color,omitempty"`
	BackgroundColor string `json:"backgroundColor,omitempty"`
	Padding         []int  `json:"padding,omitempty"`
}

// Label tiers above the plot: a mark's label rises one tier above its
// left neighbour's, up to markTiers, so close marks' labels stay apart.
const (
	markTiers      = 3
	markTierHeight = 16
)

// markTier numbers every mark of c by its place among all marks in demand
// order: its label's tier above the plot.
func markTier(c CostLines) map[Mark]int {
	var all []Mark
	for _, name := range slices.Sorted(maps.Keys(c.Marks)) {
		all = append(all, c.Marks[name]...)
	}
	slices.SortStableFunc(all, func(a, b Mark) int { return cmp.Compare(a.Demand, b.Demand) })
	tier := map[Mark]int{}
	for i, m := range all {
		if _, seen := tier[m]; !seen {
			tier[m] = i % markTiers
		}
	}
	return tier
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
	if len(c.Marks) > 0 && len(line.GridList) > 0 {
		// Room above the plot for the marks' labels.
		top, _ := strconv.Atoi(line.GridList[0].Top)
		line.GridList[0].Top = strconv.Itoa(top + markTiers*markTierHeight)
	}

	tiers := markTier(c)
	for _, name := range slices.Sorted(maps.Keys(c.Series)) {
		lc := opts.LineChart{ShowSymbol: opts.Bool(false)}
		if slices.Contains(c.Stepped, name) {
			lc.Step = "end"
		}
		so := []charts.SeriesOpts{charts.WithLineChartOpts(lc)}
		if marks := c.Marks[name]; len(marks) > 0 {
			so = append(so, withCostMarks(marks, tiers))
		}
		line.AddSeries(name, xy(c.Demand, c.Series[name]), so...)
	}
	return Component(line)
}

// withCostMarks attaches vertical, labelled lines to a series, each label
// above the plot at its tier.
func withCostMarks(marks []Mark, tiers map[Mark]int) charts.SeriesOpts {
	return func(s *charts.SingleSeries) {
		data := make([]any, len(marks))
		for i, m := range marks {
			item := costMark{Name: m.Label, XAxis: m.Demand,
				Label: &markLabel{Show: true, Position: "end", Formatter: "{b}", Distance: 4 + tiers[m]*markTierHeight,
					BackgroundColor: "rgba(255,255,255,0.85)", Padding: []int{1, 3}}}
			if m.Minor {
				item.Label.Color = "#6b7280"
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
