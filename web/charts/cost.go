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
	line := charts.NewLine()
	line.SetGlobalOptions(append(base(title),
		charts.WithXAxisOpts(opts.XAxis{Type: "value", Name: "demand", NameLocation: "middle", NameGap: 30,
			Max: axisMax(ptrs(demand), slices.Collect(maps.Values(crossovers))...)}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: fmt.Sprintf("monthly cost (%s)", currency)}),
	)...)
	line.SetXAxis(nil)

	for _, name := range slices.Sorted(maps.Keys(series)) {
		var so []charts.SeriesOpts
		if slices.Contains(stepped, name) {
			so = append(so, charts.WithLineChartOpts(opts.LineChart{Step: "end"}))
		}
		if n, ok := crossovers[name]; ok {
			so = append(so, withMarkLines(markLine{Name: fmt.Sprintf("%s crossover %g", name, n), XAxis: &n}))
		}
		line.AddSeries(name, xy(demand, ptrs(series[name])), so...)
	}
	return Component(line)
}
