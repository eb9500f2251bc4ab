// Package charts turns report data into ECharts charts for templ pages.
//
// go-echarts builds the chart option; Component writes it into the page as
// <div class="chart" data-echarts-option="{...}"></div> and nothing else.
// static/app.js draws every such div on page load and after each htmx swap,
// disposing of the instances it replaces. There is no inline script, so
// the page's CSP can stay script-src 'self', and a chart swapped in twice
// cannot collide with itself the way go-echarts' own snippet would (it
// declares a top-level `let goecharts_<id>` that a second swap redeclares).
//
// Constructors take plain slices and maps and compute nothing about the
// plan; map keys are sorted so series come out in a stable order.
package charts

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"math"

	"github.com/a-h/templ"
	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// AssetsHost is where go-echarts would load echarts.min.js from, were its
// own renderer used: our vendored copy, never a CDN. Component emits no
// script tag: static/app.js fetches /static/vendor/echarts/echarts.min.js
// once a page with a chart has loaded.
const AssetsHost = "/static/vendor/echarts/"

// Chart is any go-echarts chart: Validate fills in what JSON needs, and
// JSON returns the ECharts option.
type Chart interface {
	Validate()
	JSON() map[string]any
}

// Component renders c as a chart placeholder that static/app.js draws.
func Component(c Chart) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		option, err := Option(c)
		if err != nil {
			return err
		}
		var head struct {
			Title struct {
				Text string `json:"text"`
			} `json:"title"`
		}
		_ = json.Unmarshal(option, &head) // only for the aria-label
		label := head.Title.Text
		_, err = fmt.Fprintf(w, `<div class="chart" role="img" aria-label="%s" data-echarts-option="%s"></div>`,
			html.EscapeString(label), html.EscapeString(string(option)))
		return err
	})
}

// Option returns the ECharts option of c as JSON.
func Option(c Chart) ([]byte, error) {
	c.Validate()
	b, err := json.Marshal(c.JSON())
	if err != nil {
		return nil, fmt.Errorf("charts: encoding option: %w", err)
	}
	return b, nil
}

// base holds the options every chart here shares.
func base(title string) []charts.GlobalOpts {
	return []charts.GlobalOpts{
		charts.WithInitializationOpts(opts.Initialization{AssetsHost: AssetsHost}),
		charts.WithTitleOpts(opts.Title{Title: title}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis"}),
		// A legend longer than the chart is wide pages, never cut.
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Bottom: "0", Type: "scroll"}),
		charts.WithGridOpts(opts.Grid{Left: "60", Right: "70", Top: "60", Bottom: "80"}),
		// Charts are swapped in often; animation only delays them.
		charts.WithAnimation(false),
	}
}

// markLine is one ECharts markLine data item: a horizontal line at yAxis
// or a vertical one at xAxis. It is written by hand rather than with
// opts.MarkLineNameYAxisItem, whose omitempty would drop a line at 0.
type markLine struct {
	Name  string   `json:"name"`
	XAxis *float64 `json:"xAxis,omitempty"`
	YAxis *float64 `json:"yAxis,omitempty"`
	// Label overrides the shared label, e.g. to keep a horizontal line's
	// label inside the plot.
	Label *opts.Label `json:"label,omitempty"`
}

// insideEnd keeps a horizontal line's label above its right end, inside
// the plot, where the second y-axis would otherwise clip it.
var insideEnd = &opts.Label{Show: opts.Bool(true), Position: "insideEndTop", Formatter: "{b}"}

// insideStart keeps a horizontal line's label above its left end.
var insideStart = &opts.Label{Show: opts.Bool(true), Position: "insideStartTop", Formatter: "{b}"}

// withMarkLines attaches dashed, labelled lines to a series.
func withMarkLines(lines ...markLine) charts.SeriesOpts {
	return func(s *charts.SingleSeries) {
		data := make([]any, len(lines))
		for i, l := range lines {
			data[i] = l
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

// xy builds [x, y] points for a value x-axis; a nil y is a gap ("-").
func xy(xs []float64, ys []*float64) []opts.LineData {
	points := make([]opts.LineData, len(xs))
	for i, x := range xs {
		var y any = "-"
		if i < len(ys) && ys[i] != nil {
			y = *ys[i]
		}
		points[i] = opts.LineData{Value: []any{x, y}}
	}
	return points
}

// axisMax returns nil (let ECharts choose) unless a marked value lies above
// all the data: ECharts sizes an axis to the data alone, so a bound or
// ceiling beyond it would be drawn off the chart. Then it returns a round
// number just above the highest mark.
func axisMax(data []*float64, marks ...float64) any {
	top := math.Inf(-1)
	for _, v := range data {
		if v != nil {
			top = max(top, *v)
		}
	}
	mark := math.Inf(-1)
	for _, m := range marks {
		mark = max(mark, m)
	}
	if mark <= top || mark <= 0 || math.IsInf(mark, 0) {
		return nil
	}
	return roundUp(mark * 1.05)
}

// roundUp returns the smallest of 1, 2, 2.5, 5 times a power of ten that is
// at least x (x > 0).
func roundUp(x float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*p >= x {
			return m * p
		}
	}
	return 10 * p
}

func ptrs(vs []float64) []*float64 {
	out := make([]*float64, len(vs))
	for i := range vs {
		out[i] = &vs[i]
	}
	return out
}
