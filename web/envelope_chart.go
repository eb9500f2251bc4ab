package web

import (
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
	p := pNum(o.Percentile)
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
		if !rr.LoadKnown || rr.Row.OutputTokenRate == nil {
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
	return charts.LoadChart("Throughput and latency against load", loads, tput, lat, bounds, res.Envelope.Ceiling)
}

// chartRows counts the rows the chart can draw.
func chartRows(res planner.Result) int {
	n := 0
	for _, rr := range res.Matrix {
		if rr.LoadKnown && rr.Row.OutputTokenRate != nil {
			n++
		}
	}
	return n
}
