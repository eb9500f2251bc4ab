package view

import (
	"fmt"

	"github.com/a-h/templ"

	"capplan/planner"
	"capplan/web/charts"
)

// envelopeChart draws the judged matrix: output throughput and the
// objective's latency percentiles against load, each bound as a line and
// the ceiling marked. Every value is read from the Result; rows without a
// known load or output throughput are left out (the chart has no gap for
// throughput).
func envelopeChart(res planner.Result) templ.Component {
	o := res.Objective
	p := PNum(o.Percentile)
	type series struct {
		name  string
		stat  func(planner.Row) planner.Stat
		bound *float64
		show  bool
	}
	ss := []series{
		{"TTFT " + p, func(r planner.Row) planner.Stat { return r.TTFT }, o.TTFTMax, true},
		{"end-to-end " + p, func(r planner.Row) planner.Stat { return r.E2E }, o.E2EMax, true},
		{"TPOT " + p, func(r planner.Row) planner.Stat { return r.TPOT }, o.TPOTMax, o.TPOTMax != nil},
		{"ITL " + p, func(r planner.Row) planner.Stat { return r.ITL }, o.ITLMax, o.ITLMax != nil},
	}
	var loads, tput []float64
	lat := map[string][]*float64{}
	bounds := map[string]float64{}
	for _, rr := range res.Matrix {
		if !drawn(rr) {
			continue
		}
		loads = append(loads, rr.Load)
		tput = append(tput, *rr.Row.OutputTokenRate)
		for _, s := range ss {
			if s.show {
				lat[s.name] = append(lat[s.name], s.stat(rr.Row).Percentile(o.Percentile))
			}
		}
	}
	for _, s := range ss {
		if s.show && s.bound != nil {
			bounds[s.name] = *s.bound
		}
	}
	return charts.LoadChartWithReference("Throughput and latency against load", loads, tput, lat, bounds, res.Envelope.Ceiling, referencePoints(res))
}

// referencePoints are the matched reference rows with a known concurrency,
// as the chart draws them (docs/method.md, "Reference rows"): at their
// concurrency, their output tok/s per GPU times the box's GPUs, a series
// of their own that is never joined with the counted rows.
func referencePoints(res planner.Result) []charts.Point {
	rf := res.Reference
	if rf == nil {
		return nil
	}
	var out []charts.Point
	for _, m := range rf.Rows {
		if m.Matched && m.Row.Concurrency != nil {
			out = append(out, charts.Point{X: *m.Row.Concurrency, Y: m.Row.OutputPerGPU * rf.BoxGPUs})
		}
	}
	return out
}

// referenceChartNote says how the reference points are drawn, "" when
// there are none.
func referenceChartNote(res planner.Result) string {
	n := len(referencePoints(res))
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("The %s of the %s is the public frontier at each reference row's concurrency: its output tok/s per GPU × %s GPUs, drawn apart and never counted or joined with your rows.",
		plural(n, "diamond", "diamonds"), charts.ReferenceSeries, planner.DisplayNumber(res.Reference.BoxGPUs, 0))
}

// drawn: the chart draws a row when it counts and has a known load and
// output throughput. A row that does not count is left out, not joined to
// the counted ones as if it were one more load level (envelopeChartNote
// says so).
func drawn(rr planner.RowResult) bool {
	return rr.Counted && rr.LoadKnown && rr.Row.OutputTokenRate != nil
}

// chartRows counts the rows the chart draws.
func chartRows(res planner.Result) int {
	n := 0
	for _, rr := range res.Matrix {
		if drawn(rr) {
			n++
		}
	}
	return n
}

// envelopeChartNote says which rows the chart leaves out, "" when none.
func envelopeChartNote(res planner.Result) string {
	left := 0
	for _, rr := range res.Matrix {
		if !rr.Counted {
			left++
		}
	}
	if left == 0 {
		return ""
	}
	return fmt.Sprintf("The chart draws the %s that count; %s not counted %s left out (see the matrix).",
		plural(chartRows(res), "row", "rows"), plural(left, "row", "rows"), map[bool]string{true: "is", false: "are"}[left == 1])
}
