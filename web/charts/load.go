package charts

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/a-h/templ"
	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// LoadChart plots a load sweep: output throughput (tokens/s, left axis)
// and latencies (seconds, right axis) against load. latencies maps a
// series name such as "TTFT p95" to one value per load, nil where there is
// no measurement (drawn as a gap). bounds maps a latency series name to
// its limit, drawn as a dashed horizontal line in that series' colour; a
// bound whose series is missing gets a series of its own. ceiling, if not
// nil, is drawn as a vertical line at that load.
func LoadChart(title string, loads, throughput []float64, latencies map[string][]*float64, bounds map[string]float64, ceiling *float64) templ.Component {
	return LoadChartWithReference(title, loads, throughput, latencies, bounds, ceiling, nil)
}

// ReferenceSeries names the reference rows' series on the load chart.
const ReferenceSeries = "public frontier (reference, not evidence)"

// Point is one [x, y] point.
type Point struct{ X, Y float64 }

// LoadChartWithReference is LoadChart with reference points (the public
// frontier at its concurrency, docs/method.md "Reference rows") drawn as
// a series of their own: markers only, never joined with the measured
// rows or with each other.
func LoadChartWithReference(title string, loads, throughput []float64, latencies map[string][]*float64, bounds map[string]float64, ceiling *float64, reference []Point) templ.Component {
	var measured []*float64
	for _, ys := range latencies {
		measured = append(measured, ys...)
	}
	var loadMax any
	if ceiling != nil {
		xs := slices.Clone(loads)
		for _, p := range reference {
			xs = append(xs, p.X)
		}
		loadMax = axisMax(ptrs(xs), *ceiling)
	}

	line := charts.NewLine()
	line.SetGlobalOptions(append(base(title),
		charts.WithXAxisOpts(opts.XAxis{Type: "value", Name: "load", NameLocation: "middle", NameGap: 30, Scale: opts.Bool(true), Max: loadMax}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: "output tok/s", Position: "left"}),
	)...)
	line.ExtendYAxis(latencyAxis(measured, slices.Collect(maps.Values(bounds))))
	line.SetXAxis(nil)

	tput := []charts.SeriesOpts{charts.WithLineChartOpts(opts.LineChart{YAxisIndex: 0})}
	if ceiling != nil {
		tput = append(tput, withMarkLines(markLine{Name: fmt.Sprintf("ceiling %g", *ceiling), XAxis: ceiling}))
	}
	line.AddSeries("output tok/s", xy(loads, ptrs(throughput)), tput...)

	for i, name := range slices.Sorted(maps.Keys(latencies)) {
		so := []charts.SeriesOpts{charts.WithLineChartOpts(opts.LineChart{YAxisIndex: 1})}
		if b, ok := bounds[name]; ok {
			// Labels alternate ends, so two bounds close together do
			// not print over each other.
			label := insideEnd
			if i%2 == 1 {
				label = insideStart
			}
			so = append(so, withMarkLines(markLine{Name: fmt.Sprintf("%s bound %g s", name, b), YAxis: &b, Label: label}))
		}
		line.AddSeries(name, xy(loads, latencies[name]), so...)
	}
	for _, name := range slices.Sorted(maps.Keys(bounds)) {
		if _, ok := latencies[name]; ok {
			continue
		}
		b := bounds[name]
		flat := make([]*float64, len(loads))
		for i := range flat {
			flat[i] = &b
		}
		line.AddSeries(name+" bound", xy(loads, flat),
			charts.WithLineChartOpts(opts.LineChart{YAxisIndex: 1, ShowSymbol: opts.Bool(false)}),
			charts.WithLineStyleOpts(opts.LineStyle{Type: "dashed"}),
		)
	}
	if len(reference) > 0 {
		sc := charts.NewScatter()
		data := make([]opts.ScatterData, len(reference))
		for i, p := range reference {
			data[i] = opts.ScatterData{Value: []any{p.X, p.Y}, Symbol: "diamond", SymbolSize: 11}
		}
		sc.AddSeries(ReferenceSeries, data, charts.WithItemStyleOpts(opts.ItemStyle{Opacity: opts.Float(0.7)}))
		line.Overlap(sc)
	}
	return Component(line)
}

// logAbove: when the highest latency is more than this many times the
// highest bound, the latency axis is logarithmic, so the bounds are not
// flattened to its floor.
const logAbove = 4

// latencyAxis is the right-hand axis: linear, reaching the highest bound,
// unless a latency lies far above every bound; then logarithmic, so both
// the bounds and that latency are readable.
func latencyAxis(measured []*float64, bounds []float64) opts.YAxis {
	ax := opts.YAxis{Type: "value", Name: "latency (s)", Position: "right", SplitLine: &opts.SplitLine{Show: opts.Bool(false)}}
	top, bound, low := 0.0, 0.0, math.Inf(1)
	for _, v := range measured {
		if v != nil {
			top = max(top, *v)
			if *v > 0 {
				low = min(low, *v)
			}
		}
	}
	for _, b := range bounds {
		bound = max(bound, b)
		if b > 0 {
			low = min(low, b)
		}
	}
	if bound > 0 && top > logAbove*bound && !math.IsInf(low, 0) {
		ax.Type, ax.Name = "log", "latency (s, log scale)"
		ax.Min = math.Pow(10, math.Floor(math.Log10(low)))
		return ax
	}
	ax.Max = axisMax(measured, bounds...)
	return ax
}
