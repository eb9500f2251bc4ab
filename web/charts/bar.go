package charts

import (
	"maps"
	"slices"

	"github.com/a-h/templ"
	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// BarChart draws grouped bars: one group per category (such as a
// scenario), one bar per series (such as an option), values in unit (such
// as "USD per 1,000 requests"). Each series has one value per category.
func BarChart(title string, categories []string, series map[string][]float64, unit string) templ.Component {
	bar := charts.NewBar()
	bar.SetGlobalOptions(append(base(title),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: unit}),
	)...)
	bar.SetXAxis(categories)
	for _, name := range slices.Sorted(maps.Keys(series)) {
		values := series[name]
		data := make([]opts.BarData, len(values))
		for i, v := range values {
			data[i] = opts.BarData{Value: v}
		}
		bar.AddSeries(name, data)
	}
	return Component(bar)
}
