package planner

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// Topologies of a fleet (FleetInputs.Topology).
const (
	// TopologyReplicas is one box running k single-GPU (TP1) replicas.
	TopologyReplicas = "replicas"
	// TopologyTP is one replica spread over the box's k GPUs (TP-k): the
	// matrix measured the whole box.
	TopologyTP = "tensor-parallel"
	// TopologyBoxes is several boxes of one replica each behind a router.
	TopologyBoxes = "boxes"
)

// Topologies are the topology choices, in the order the form offers them.
var Topologies = []string{TopologyBoxes, TopologyReplicas, TopologyTP}

// maxReserve bounds the reserve an availability target may derive.
const maxReserve = 64

// FleetInputs describe capacity beyond one box (docs/method.md, "Fleets
// and the reserve"): how replicas sit on boxes, what k replicas serve
// against one, and the boxes kept in reserve. A report without them sizes
// one box at a time, as "Capacity per box" says.
type FleetInputs struct {
	// Topology is TopologyBoxes, TopologyReplicas or TopologyTP.
	Topology string `json:"topology"`
	// ReplicasPerBox is k of TopologyReplicas (TP1 x k); 1 otherwise
	// (0 means 1). TPDegree is the GPUs of a TP-k replica, for reading.
	ReplicasPerBox int `json:"replicas_per_box,omitempty"`
	TPDegree       int `json:"tp_degree,omitempty"`
	// Scaling is a typed scaling factor: the throughput of ScalingReplicas
	// replicas over one replica's (1.8 for 2 replicas serving 90 % each),
	// from ScalingSource on ScalingDate. A measured factor wins over it.
	Scaling         *float64 `json:"scaling,omitempty"`
	ScalingReplicas int      `json:"scaling_replicas,omitempty"`
	ScalingSource   string   `json:"scaling_source,omitempty"`
	ScalingDate     string   `json:"scaling_date,omitempty"`
	// Reserve is a typed reserve: boxes bought beyond those the busiest
	// hour needs (1 for N+1). Or the reserve is derived from
	// BoxAvailability (each box's share of time up) and AvailabilityTarget
	// (the share of time enough boxes must be up); one or the other.
	Reserve            *int     `json:"reserve,omitempty"`
	BoxAvailability    *float64 `json:"box_availability,omitempty"`
	AvailabilityTarget *float64 `json:"availability_target,omitempty"`
}

// Validate refuses fleet inputs that cannot size a fleet, in the words of
// the form (keys "fleet.<field>").
func (f FleetInputs) Validate() FieldErrors {
	var es FieldErrors
	if !containsString(Topologies, f.Topology) {
		es.add("fleet.topology", "choose the topology: several boxes, one box with TP1 replicas, or one box with tensor parallelism")
	}
	if f.ReplicasPerBox < 0 || (f.Topology == TopologyReplicas && f.ReplicasPerBox < 2) {
		es.add("fleet.replicas_per_box", fmt.Sprintf("replicas on one box must be 2 or more for one box running TP1 replicas, got %d", f.ReplicasPerBox))
	}
	if f.TPDegree < 0 {
		es.add("fleet.tp_degree", fmt.Sprintf("the GPUs of a tensor-parallel replica must be 1 or more, got %d", f.TPDegree))
	}
	if f.Scaling != nil {
		s := *f.Scaling
		switch {
		case math.IsNaN(s) || s <= 0:
			es.add("fleet.scaling", fmt.Sprintf("the scaling factor must be above 0 (1.8 when 2 replicas serve 1.8 times what one does), got %s", fmtNum(s)))
		case f.ScalingReplicas >= 2 && s > float64(f.ScalingReplicas):
			es.add("fleet.scaling", fmt.Sprintf("the scaling factor %s is more than %d replicas can serve at one replica's rate each: type at most %d, or measure it", fmtNum(s), f.ScalingReplicas, f.ScalingReplicas))
		}
		if f.ScalingReplicas < 2 {
			es.add("fleet.scaling_replicas", "name how many replicas the scaling factor is for (2 or more)")
		}
		if strings.TrimSpace(f.ScalingSource) == "" {
			es.add("fleet.scaling_source", "required with a typed scaling factor: where it comes from")
		}
		if !validDate(f.ScalingDate) {
			es.add("fleet.scaling_date", "required with a typed scaling factor (YYYY-MM-DD)")
		}
	} else if f.ScalingReplicas < 0 {
		es.add("fleet.scaling_replicas", fmt.Sprintf("the replicas the scaling factor is for must be 2 or more, got %d", f.ScalingReplicas))
	}
	if f.Reserve != nil && *f.Reserve < 0 {
		es.add("fleet.reserve", fmt.Sprintf("the reserve must be 0 or more boxes (1 for N+1), got %d", *f.Reserve))
	}
	if f.Reserve != nil && (f.BoxAvailability != nil || f.AvailabilityTarget != nil) {
		es.add("fleet.reserve", "type the reserve or an availability target, not both")
	}
	if (f.BoxAvailability == nil) != (f.AvailabilityTarget == nil) {
		es.add("fleet.availability_target", "an availability target needs both each box's availability and the target")
	}
	for _, a := range []struct {
		key, what string
		v         *float64
	}{{"fleet.box_availability", "each box's availability", f.BoxAvailability}, {"fleet.availability_target", "the availability target", f.AvailabilityTarget}} {
		if a.v != nil && !(*a.v > 0 && *a.v < 1) {
			es.add(a.key, fmt.Sprintf("%s must be a share above 0 and below 1 (0.995 = 99.5 %%), got %s", a.what, fmtNum(*a.v)))
		}
	}
	return es
}

func containsString(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// Fleet is how the report sizes boxes beyond one (docs/method.md, "Fleets
// and the reserve"): the topology, the scaling factor in use and where it
// comes from, the reserve rule, and the admission limit per replica and
// for the fleet. Capacity.Boxes reads it; the page, the API (result.fleet)
// and the workbook show it.
type Fleet struct {
	Topology     string `json:"topology"`
	TopologyText string `json:"topology_text"`
	// ReplicasPerBox is how many replicas one box runs (k of TP1 x k).
	ReplicasPerBox int `json:"replicas_per_box"`
	// Scaling is the factor in use for ScalingReplicas replicas, nil when
	// there is none; Efficiency is Scaling / ScalingReplicas, the share of
	// one replica's rate each replica of a fleet serves.
	Scaling         *float64 `json:"scaling"`
	ScalingReplicas int      `json:"scaling_replicas"`
	Efficiency      *float64 `json:"efficiency"`
	// ScalingFrom is ScalingMeasured, ScalingTyped or "" (none), and
	// ScalingText says it in words: the rows it was measured from, or the
	// typed factor's source and date, and which was not used.
	ScalingFrom string `json:"scaling_from"`
	ScalingText string `json:"scaling_text"`
	// Measured is the factor the matrix measured, kept even when flagged
	// and not used (above its replicas, or not above 0).
	Measured *MeasuredScaling `json:"measured,omitempty"`
	// ReserveRule is ReserveTyped, ReserveAvailability or ReserveNone;
	// ReserveText states it. Reserve is the typed reserve, or nil when it
	// depends on the boxes serving (an availability target).
	ReserveRule        string   `json:"reserve_rule"`
	ReserveText        string   `json:"reserve_text"`
	Reserve            *int     `json:"reserve"`
	BoxAvailability    *float64 `json:"box_availability,omitempty"`
	AvailabilityTarget *float64 `json:"availability_target,omitempty"`
	// PerReplicaInFlight is the admission limit of one replica;
	// PlanReplicas the replicas of the plan's boxes; FleetInFlight what
	// they admit together, with every box up; AdmissionText says it, the
	// router answering 429 with Retry-After beyond it.
	PerReplicaInFlight *int   `json:"per_replica_in_flight"`
	PlanReplicas       int    `json:"plan_replicas"`
	FleetInFlight      *int   `json:"fleet_in_flight"`
	AdmissionText      string `json:"admission_text"`
	// Problems are what the exit check fails on: no usable scaling factor,
	// a measured factor flagged and nothing typed, a target no reserve
	// meets.
	Problems []string `json:"problems"`
	Text     string   `json:"text"`
}

// Where a fleet's scaling factor comes from, and its reserve.
const (
	ScalingMeasured     = "measured"
	ScalingTyped        = "typed"
	ReserveTyped        = "typed"
	ReserveAvailability = "availability"
	ReserveNone         = "none"
)

// MeasuredScaling is a scaling factor measured from two rows at the same
// load that match the contract, one of one replica (counted) and one of k
// (an llm-d benchmark report's stack of k replicas, which counts toward no
// envelope): the k-replica row's successful rate over the one-replica
// row's.
type MeasuredScaling struct {
	Factor   float64 `json:"factor"`
	Replicas int     `json:"replicas"`
	// One and Many name the rows (as the exit check names rows); OneRate
	// and ManyRate are their successful req/s.
	One      string  `json:"one"`
	Many     string  `json:"many"`
	OneRate  float64 `json:"one_rate"`
	ManyRate float64 `json:"many_rate"`
	// Flag says why the factor is not used ("" when it is).
	Flag string `json:"flag,omitempty"`
}

// measureScaling finds the pair of counted rows, at the same load kind and
// level, of one replica and of k > 1, at the highest such load (the
// largest k there), and divides their successful rates; nil without one.
func measureScaling(m []RowResult) *MeasuredScaling {
	var best *MeasuredScaling
	bestLoad := math.Inf(-1)
	for i, many := range m {
		k := many.Row.ReplicaCount()
		if k < 2 || !many.LoadKnown || !onlyReplicas(many.NotCounted) {
			continue
		}
		mr := SuccessfulRate(many.Row)
		if mr == nil {
			continue
		}
		for j, one := range m {
			if i == j || !one.Counted || one.Row.ReplicaCount() != 1 || !one.LoadKnown ||
				normKind(one.Row.LoadKind) != normKind(many.Row.LoadKind) || one.Load != many.Load {
				continue
			}
			or := SuccessfulRate(one.Row)
			if or == nil || *or <= 0 {
				continue
			}
			if one.Load < bestLoad || (one.Load == bestLoad && best != nil && k <= best.Replicas) {
				continue
			}
			bestLoad = one.Load
			best = &MeasuredScaling{Factor: *mr / *or, Replicas: k, One: rowName(one), Many: rowName(many), OneRate: *or, ManyRate: *mr}
		}
	}
	if best != nil {
		switch {
		case best.Factor <= 0:
			best.Flag = fmt.Sprintf("the measured factor %s is not above 0: the %d-replica row served nothing", DisplayInput(best.Factor), best.Replicas)
		case best.Factor > float64(best.Replicas)*(1+1e-9):
			best.Flag = fmt.Sprintf("the measured factor %s is above %d (superlinear): %d replicas served more than %d times one, which points at a difference between the runs (a warm cache, another load), not at scaling", DisplayInput(best.Factor), best.Replicas, best.Replicas, best.Replicas)
		}
	}
	return best
}

// ReplicasNotOneBox is the reason a row of several replicas does not
// count toward one box's envelope.
const ReplicasNotOneBox = "replicas"

// onlyReplicas is true when a row's one reason not to count is that it
// was served by several replicas: it matches the contract otherwise.
func onlyReplicas(ws []Warning) bool {
	return len(ws) == 1 && ws[0].Code == ReplicasNotOneBox
}

// validDate is true for a YYYY-MM-DD date.
func validDate(s string) bool {
	_, err := time.Parse(DateLayout, strings.TrimSpace(s))
	return err == nil
}

// BuildFleet resolves the fleet: the measured factor over the typed one,
// the reserve rule, and the admission limit per replica and for the plan's
// boxes. nil without fleet inputs.
func BuildFleet(in *FleetInputs, m []RowResult, ad Admission, maxBoxes int) *Fleet {
	if in == nil {
		return nil
	}
	f := &Fleet{Topology: in.Topology, ReplicasPerBox: max(1, in.ReplicasPerBox), Problems: []string{}}
	if in.Topology != TopologyReplicas {
		f.ReplicasPerBox = 1
	}
	switch in.Topology {
	case TopologyReplicas:
		f.TopologyText = fmt.Sprintf("one box runs %d single-GPU (TP1) replicas; the matrix measured one replica", f.ReplicasPerBox)
	case TopologyTP:
		tp := "its GPUs"
		if in.TPDegree > 0 {
			tp = fmt.Sprintf("TP-%d", in.TPDegree)
		}
		f.TopologyText = fmt.Sprintf("each box is one replica spread over %s (tensor parallelism); the matrix measured one box", tp)
	default:
		f.TopologyText = "several boxes of one replica each behind a router; the matrix measured one box"
	}

	typed := ""
	if in.Scaling != nil {
		typed = fmt.Sprintf("typed %s for %d replicas (%s, %s)", DisplayInput(*in.Scaling), in.ScalingReplicas, in.ScalingSource, in.ScalingDate)
	}
	f.Measured = measureScaling(m)
	switch ms := f.Measured; {
	case ms != nil && ms.Flag == "":
		f.Scaling, f.ScalingReplicas, f.ScalingFrom = F(ms.Factor), ms.Replicas, ScalingMeasured
		f.ScalingText = fmt.Sprintf("measured: %s req/s of %d replicas at %s over %s req/s of one at %s = %s", DisplayInput(ms.ManyRate), ms.Replicas, ms.Many, DisplayInput(ms.OneRate), ms.One, DisplayInput(ms.Factor))
		if typed != "" {
			f.ScalingText += "; the measured factor is used, not the " + typed
		}
	case in.Scaling != nil:
		f.Scaling, f.ScalingReplicas, f.ScalingFrom = F(*in.Scaling), in.ScalingReplicas, ScalingTyped
		f.ScalingText = typed
		if ms != nil {
			f.ScalingText += "; not measured: " + ms.Flag
		}
	default:
		f.ScalingText = "no scaling factor: measure one (rows at 1 and k replicas at the same load) or type one with its source and date"
		if ms != nil {
			f.ScalingText = "the measured factor is not used: " + ms.Flag + "; type one with its source and date"
		}
		f.Problems = append(f.Problems, "no usable scaling factor: boxes beyond one are sized as if replicas scaled linearly, which overstates what they serve ("+f.ScalingText+")")
	}
	if f.Scaling != nil {
		f.Efficiency = F(*f.Scaling / float64(f.ScalingReplicas))
	}

	switch {
	case in.Reserve != nil:
		f.ReserveRule, f.Reserve = ReserveTyped, I(*in.Reserve)
		f.ReserveText = fmt.Sprintf("N+%d: %s in reserve, typed", *in.Reserve, boxes(*in.Reserve))
	case in.BoxAvailability != nil && in.AvailabilityTarget != nil:
		f.ReserveRule, f.BoxAvailability, f.AvailabilityTarget = ReserveAvailability, in.BoxAvailability, in.AvailabilityTarget
		f.ReserveText = fmt.Sprintf("the fewest reserve boxes such that, each box up %s of the time on its own, the boxes the busiest hour needs are up at least %s of the time",
			DisplayShare(*in.BoxAvailability), DisplayShare(*in.AvailabilityTarget))
		if _, ok := reserveFor(1, *in.BoxAvailability, *in.AvailabilityTarget); !ok {
			f.Problems = append(f.Problems, fmt.Sprintf("no reserve of up to %d boxes meets the availability target %s with boxes up %s of the time", maxReserve, DisplayShare(*in.AvailabilityTarget), DisplayShare(*in.BoxAvailability)))
		}
	default:
		f.ReserveRule, f.Reserve = ReserveNone, I(0)
		f.ReserveText = "no reserve: a box down leaves the busiest hour short"
	}

	plan := max(1, maxBoxes)
	f.PlanReplicas = plan * f.ReplicasPerBox
	if ad.MaxInFlight != nil {
		f.PerReplicaInFlight = I(*ad.MaxInFlight)
		f.FleetInFlight = I(*ad.MaxInFlight * f.PlanReplicas)
		f.AdmissionText = fmt.Sprintf("The limit is per replica: %d in flight on each, %d for the plan's %s (%d %s) with every box up; the router answers HTTP %d with Retry-After %d s when every replica is at its limit.",
			*ad.MaxInFlight, *f.FleetInFlight, boxes(plan), f.PlanReplicas, plural(f.PlanReplicas, "replica", "replicas"), ad.OverloadStatus, ad.RetryAfterS)
	} else {
		f.AdmissionText = "The limit is per replica, with HTTP 429 and Retry-After at the router; no limit is in force yet."
	}
	f.Text = upperFirst(f.TopologyText) + ". Scaling: " + f.ScalingText + ". Reserve: " + f.ReserveText + "."
	return f
}

// efficiency is the share of one replica's rate each replica of a fleet
// serves: the factor in use over its replicas, 1 without one (flagged
// among the fleet's problems).
func (f *Fleet) efficiency() float64 {
	if f == nil || f.Efficiency == nil {
		return 1
	}
	return *f.Efficiency
}

// reserveFor is the reserve n serving boxes need: typed, or the fewest r
// such that at least n of n+r boxes, each up a of the time on its own, are
// up with probability target or more (a binomial tail); false when no r
// up to maxReserve meets it.
func reserveFor(n int, a, target float64) (int, bool) {
	for r := 0; r <= maxReserve; r++ {
		if UpProbability(n, n+r, a) >= target-1e-12 {
			return r, true
		}
	}
	return maxReserve, false
}

// UpProbability is P(at least n of m boxes up), each up a of the time
// on its own (the binomial tail the reserve rule reads).
func UpProbability(n, m int, a float64) float64 {
	p := 0.0
	for up := n; up <= m; up++ {
		p += binomial(m, up) * math.Pow(a, float64(up)) * math.Pow(1-a, float64(m-up))
	}
	return p
}

func binomial(n, k int) float64 {
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return r
}

// ReserveFor is the reserve bought with n serving boxes (0 without a
// fleet).
func (f *Fleet) ReserveFor(n int) int {
	switch {
	case f == nil:
		return 0
	case f.Reserve != nil:
		return *f.Reserve
	case f.BoxAvailability != nil && f.AvailabilityTarget != nil:
		r, _ := reserveFor(n, *f.BoxAvailability, *f.AvailabilityTarget)
		return r
	}
	return 0
}

// Serves is what n serving boxes serve within the objective, req/s: one
// replica serves the capacity per box (docs/method.md, "Capacity per
// box"), and m > 1 replicas m x that x the fleet's efficiency (the
// scaling factor over its replicas, assumed to hold beyond them). Without
// a fleet, n boxes serve n times one box. 0 when capacity is unknown.
func (c Capacity) Serves(n int) float64 {
	if c.PerBoxRate == nil || n <= 0 {
		return 0
	}
	if c.Fleet == nil {
		return float64(n) * *c.PerBoxRate
	}
	reps := n * c.Fleet.ReplicasPerBox
	if reps == 1 {
		return *c.PerBoxRate
	}
	return float64(reps) * *c.PerBoxRate * c.Fleet.efficiency()
}

// Sizing is the boxes a busy-hour rate needs: the serving boxes, the
// reserve bought with them, and their sum, the boxes needed against the
// plan.
type Sizing struct {
	Serving int `json:"serving"`
	Reserve int `json:"reserve"`
	Boxes   int `json:"boxes"`
	// Basis shows the arithmetic.
	Basis string `json:"basis"`
}

// BoxesNeeded sizes a busy-hour rate (the one rule the scenarios, the
// headline, the exit check and the crossover read): without a fleet,
// ceil(rate / capacity per box), at least one (BoxesFor); with one, the
// fewest boxes whose replicas serve the rate (Serves), plus the reserve.
// Worked: 1.6 boxes' worth at 2 replicas scaling 1.8 is ceil(1.6 / 0.9) =
// 2 serving boxes, N+1 makes 3. ok is false when capacity is unknown.
func (c Capacity) BoxesNeeded(rate float64) (Sizing, bool) {
	if c.PerBoxRate == nil {
		return Sizing{}, false
	}
	per := *c.PerBoxRate
	if c.Fleet == nil {
		n := BoxesFor(rate, per)
		return Sizing{Serving: n, Boxes: n, Basis: fmt.Sprintf("ceil(%s / %s) = %d", fmtNum(rate), fmtNum(per), n)}, true
	}
	f := c.Fleet
	n := 1
	basis := ""
	if rate > c.Serves(1)*(1+1e-9) && per > 0 {
		perBox := float64(f.ReplicasPerBox) * per * f.efficiency()
		n = max(1, int(math.Ceil(rate/perBox-1e-9)))
		for c.Serves(n) < rate*(1-1e-9) { // one replica a box: the first box is not scaled
			n++
		}
		basis = fmt.Sprintf("ceil(%s / (%d x %s x %s)) = %d serving", fmtNum(rate), f.ReplicasPerBox, fmtNum(per), fmtNum(f.efficiency()), n)
	} else {
		basis = fmt.Sprintf("%s is at most %s: 1 serving", fmtNum(rate), fmtNum(c.Serves(1)))
	}
	r := f.ReserveFor(n)
	return Sizing{Serving: n, Reserve: r, Boxes: n + r, Basis: fmt.Sprintf("%s + %d reserve = %d", basis, r, n+r)}, true
}

// maxServing is the most serving boxes the plan's boxes hold with their
// reserve: the largest n with n + reserve(n) <= maxBoxes; 0 when the
// reserve leaves none.
func (c Capacity) maxServing(maxBoxes int) int {
	n := 0
	for k := 1; k <= maxBoxes; k++ {
		if k+c.Fleet.ReserveFor(k) <= maxBoxes {
			n = k
		}
	}
	return n
}

// paid is the boxes bought with n serving boxes.
func (c Capacity) paid(n int) int { return n + c.Fleet.ReserveFor(n) }

// FleetLabels name the fleet form's fields, as the form, its refusals and
// the history label them (keys "fleet.<name>").
var FleetLabels = map[string]string{
	"topology":            "topology",
	"replicas_per_box":    "replicas on one box",
	"tp_degree":           "GPUs of a tensor-parallel replica",
	"scaling":             "scaling factor",
	"scaling_replicas":    "replicas the scaling factor is for",
	"scaling_source":      "source of the scaling factor",
	"scaling_date":        "date of the scaling factor",
	"reserve":             "reserve boxes",
	"box_availability":    "each box's availability",
	"availability_target": "availability target",
}

// TopologyLabels say each topology as the form offers it.
var TopologyLabels = map[string]string{
	TopologyBoxes:    "several boxes, one replica each, behind a router",
	TopologyReplicas: "one box running TP1 replicas (TP1 x k)",
	TopologyTP:       "one replica over the box's GPUs (TP-k)",
}

func init() { prefixGroups["fleet"] = FleetLabels }
