package view

import (
	"net/url"
	"strconv"

	"capplan/planner"
)

// fleetStored is the fleet form filled from stored inputs.
func fleetStored(fl *planner.FleetInputs) url.Values {
	v := url.Values{}
	if fl == nil {
		return v
	}
	set := func(name, val string) {
		if val != "" && val != "0" {
			v.Set("fleet."+name, val)
		}
	}
	optF := func(p *float64) string {
		if p == nil {
			return ""
		}
		return planner.DisplayInput(*p)
	}
	set("topology", fl.Topology)
	set("replicas_per_box", strconv.Itoa(fl.ReplicasPerBox))
	set("tp_degree", strconv.Itoa(fl.TPDegree))
	set("scaling", optF(fl.Scaling))
	set("scaling_replicas", strconv.Itoa(fl.ScalingReplicas))
	set("scaling_source", fl.ScalingSource)
	set("scaling_date", fl.ScalingDate)
	if fl.Reserve != nil {
		v.Set("fleet.reserve", strconv.Itoa(*fl.Reserve))
	}
	set("box_availability", optF(fl.BoxAvailability))
	set("availability_target", optF(fl.AvailabilityTarget))
	return v
}
