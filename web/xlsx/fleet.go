package xlsx

import (
	"fmt"

	"capplan/planner"
)

// fleetSheet sizes the scenarios beyond one box (docs/method.md, "Fleets
// and the reserve") with live formulas: the scaling factor (from the two
// measured rows' rates, or typed), each replica's share of one alone, what
// a box serves, and per scenario the serving boxes, the reserve and their
// sum, which the Scenarios sheet's "Boxes needed" reads. An availability
// target's reserve is the planner's (the fewest boxes meeting it), with
// the availability it gives as a formula beside it.
func (b *book) fleetSheet() {
	s := b.sheets[shFleet]
	s.cols(48, 18, 14, 12, 14, 18, 60)
	f := b.r.Result.Fleet
	b.title(s, "Fleet")
	if f == nil {
		s.add("No fleet: the report sizes one box at a time, with no reserve.")
		return
	}
	res := b.r.Result
	s.add("Topology", v(b.st.wrap, f.TopologyText))
	named := func(name, label string, cell any, note string) {
		r := s.next()
		s.add(label, cell, nil, nil, nil, nil, v(b.st.wrap, note))
		b.name(name, s, 2, r)
	}
	named("Fleet_Replicas_Per_Box", "Replicas on one box", v(b.st.intIn, f.ReplicasPerBox), "k of one box running TP1 replicas; 1 otherwise")
	var scaling any = ""
	if f.Scaling != nil {
		scaling = *f.Scaling
	}
	switch ms := f.Measured; {
	case ms != nil:
		named("Fleet_Measured_Many", fmt.Sprintf("Successful req/s of %d replicas (measured)", ms.Replicas), v(b.st.rate, ms.ManyRate), ms.Many)
		named("Fleet_Measured_One", "Successful req/s of one replica (measured)", v(b.st.rate, ms.OneRate), ms.One)
		named("Fleet_Measured_Factor", "Measured scaling factor", fx(b.st.num, "Fleet_Measured_Many/Fleet_Measured_One", ms.Factor), ms.Flag)
	}
	switch f.ScalingFrom {
	case planner.ScalingMeasured:
		named("Fleet_Scaling", "Scaling factor in use (measured)", fx(b.st.num, "Fleet_Measured_Factor", scaling), f.ScalingText)
	case planner.ScalingTyped:
		named("Fleet_Scaling", "Scaling factor in use (typed)", v(b.st.numIn, scaling), f.ScalingText)
	default:
		named("Fleet_Scaling", "Scaling factor in use", v(b.st.numIn, ""), f.ScalingText)
	}
	named("Fleet_Scaling_Replicas", "Replicas the factor is for", v(b.st.intIn, f.ScalingReplicas), "")
	named("Fleet_Efficiency", "Each replica of a fleet serves, of one alone", fx(b.st.pct, `IF(OR(Fleet_Scaling="",Fleet_Scaling_Replicas<=0),1,Fleet_Scaling/Fleet_Scaling_Replicas)`, effOf(f)), "1 without a factor: sized as if linear, which the exit check fails")
	var oneBox, box any = "", ""
	if cp := res.Capacity.PerBoxRate; cp != nil {
		oneBox = res.Capacity.Serves(1)
		box = float64(f.ReplicasPerBox) * *cp * effOf(f)
	}
	named("Fleet_Box_Rate", "A box of a fleet serves (successful in-objective req/s)", fx(b.st.rate, `IF(Capacity_Per_Box_Rate="","",Fleet_Replicas_Per_Box*Capacity_Per_Box_Rate*Fleet_Efficiency)`, box), "replicas on a box x one replica's capacity x the share each serves")
	named("Fleet_One_Box_Rate", "One box alone serves (successful in-objective req/s)", fx(b.st.rate, `IF(Capacity_Per_Box_Rate="","",IF(Fleet_Replicas_Per_Box=1,Capacity_Per_Box_Rate,Fleet_Box_Rate))`, oneBox), "one replica alone serves the capacity per box")
	typed := f.ReserveRule != planner.ReserveAvailability
	if typed {
		named("Fleet_Reserve", "Reserve boxes", v(b.st.intIn, *f.Reserve), f.ReserveText)
		named("Fleet_First_Paid", "Boxes bought with one serving box", fx(b.st.int, "1+Fleet_Reserve", 1+f.ReserveFor(1)), "")
	} else {
		named("Fleet_Box_Availability", "Each box's availability", v(b.st.pctIn, *f.BoxAvailability), "")
		named("Fleet_Availability_Target", "Availability target", v(b.st.pctIn, *f.AvailabilityTarget), f.ReserveText)
		named("Fleet_First_Paid", "Boxes bought with one serving box (as computed on export)", v(b.st.int, 1+f.ReserveFor(1)), "")
	}
	var perReplica, fleetInFlight any = "", ""
	if f.PerReplicaInFlight != nil {
		perReplica, fleetInFlight = *f.PerReplicaInFlight, *f.FleetInFlight
	}
	named("Fleet_In_Flight_Per_Replica", "Max in flight per replica", fx(b.st.int, `Max_In_Flight`, perReplica), "the admission limit holds per replica; the router answers 429 with Retry-After beyond it")
	named("Fleet_In_Flight", "Max in flight for the plan's boxes, every box up", fx(b.st.int, `IF(Max_In_Flight="","",Max_In_Flight*MAX(1,Max_Boxes)*Fleet_Replicas_Per_Box)`, fleetInFlight), "")

	s.add()
	b.headers(s, "Scenario", "Busy-hour rate (req/s)", "Serving boxes", "Reserve", "Boxes needed", "Availability with the reserve", "Arithmetic (as computed on export)")
	sc := b.sheets[shScenarios]
	for i, sr := range res.Scenarios {
		r := s.next()
		busy, serving, reserve := rel(2, r), rel(3, r), rel(4, r)
		var zs, zr, zb, avail any = "", "", "", ""
		basis := sr.ExceedsReason
		if z := sr.Sizing; z != nil {
			zs, zr, zb, basis = z.Serving, z.Reserve, z.Boxes, z.Basis
		}
		reserveCell := fx(b.st.int, fmt.Sprintf(`IF(%s="","",Fleet_Reserve)`, serving), zr)
		availCell := any("")
		if !typed {
			reserveCell = v(b.st.int, zr)
			if sr.Sizing != nil {
				n, m := sr.Sizing.Serving, sr.Sizing.Boxes
				avail = planner.UpProbability(n, m, *f.BoxAvailability)
			}
			availCell = fx(b.st.pct, fmt.Sprintf(`IF(%[1]s="","",1-BINOMDIST(%[1]s-1,%[1]s+%[2]s,Fleet_Box_Availability,TRUE()))`, serving, reserve), avail)
		}
		s.add(sr.Scenario.Name,
			fx(b.st.rate, sc.ref(scBusyRate, b.scenarioRows[i]), sr.BusyHourRate),
			fx(b.st.int, fmt.Sprintf(`IF(Capacity_Per_Box_Rate="","",IF(%[1]s<=Fleet_One_Box_Rate*(1+1E-9),1,MAX(1,ROUNDUP(%[1]s/Fleet_Box_Rate-1E-9,0))))`, busy), zs),
			reserveCell,
			fx(b.st.int, fmt.Sprintf(`IF(%[1]s="","",%[1]s+%[2]s)`, serving, reserve), zb),
			availCell,
			v(b.st.wrap, basis))
		b.name(b.scenarioNames[i]+"_Fleet_Boxes", s, 5, r)
	}
	for _, p := range f.Problems {
		s.add("Problem", v(b.st.wrap, p))
	}
}

// effOf is the share of one replica's rate each replica of the fleet
// serves, 1 without a factor (as Capacity.Serves sizes it).
func effOf(f *planner.Fleet) float64 {
	if f.Efficiency == nil {
		return 1
	}
	return *f.Efficiency
}
