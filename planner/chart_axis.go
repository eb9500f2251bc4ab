package planner

import "slices"

// ChartAxis is the cost chart on one shared demand axis, as a chart draws
// it: every demand a line or a marker names, and each line's monthly cost
// at each of them (nil beyond the line's ends, e.g. self-hosting past the
// plan's capacity).
type ChartAxis struct {
	Demand []float64
	Lines  []AxisLine
}

// AxisLine is one line of the cost chart read at the shared demands.
type AxisLine struct {
	Name  string
	Kind  string // "self-hosted" or "api"
	Costs []*float64
}

// OnAxis reads every line of the chart at every demand the chart names.
// Lines are given as consecutive two-point segments; between a segment's
// ends the cost is straight (a step between segments stays a step).
func (ch CostChart) OnAxis() ChartAxis {
	var demand []float64
	for _, s := range ch.Series {
		for _, p := range s.Points {
			demand = append(demand, p.Demand)
		}
	}
	for _, m := range ch.Markers {
		demand = append(demand, m.Demand)
	}
	slices.Sort(demand)
	demand = slices.Compact(demand)
	ax := ChartAxis{Demand: demand}
	for _, s := range ch.Series {
		l := AxisLine{Name: s.Name, Kind: s.Kind, Costs: make([]*float64, len(demand))}
		for i, d := range demand {
			if len(s.Points) > 0 && d >= s.Points[0].Demand && d <= s.Points[len(s.Points)-1].Demand {
				l.Costs[i] = F(onSegments(s.Points, d))
			}
		}
		ax.Lines = append(ax.Lines, l)
	}
	return ax
}

// onSegments reads a line given as consecutive two-point segments at x: the
// segment whose start is at or below x and whose end is above it (the last
// one beyond its end), straight between its two points.
func onSegments(ps []ChartPoint, x float64) float64 {
	if len(ps) == 0 {
		return 0
	}
	if len(ps) == 1 {
		return ps[0].Cost
	}
	seg := 0
	for j := 0; j+1 < len(ps); j += 2 {
		if ps[j].Demand <= x {
			seg = j
		}
		if ps[j].Demand <= x && x < ps[j+1].Demand {
			break
		}
	}
	a, b := ps[seg], ps[min(seg+1, len(ps)-1)]
	if b.Demand == a.Demand {
		return a.Cost
	}
	return a.Cost + (b.Cost-a.Cost)*(x-a.Demand)/(b.Demand-a.Demand)
}
