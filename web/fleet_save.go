package web

import (
	"net/url"

	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/view"
)

// fleetSave saves the fleet section (docs/method.md, "Fleets and the
// reserve"): the report's editors and finance may. A blank topology
// removes the fleet, and the report sizes one box at a time again.
func (s *Server) fleetSave(c echo.Context) error {
	return saveCostSection(s, c, reports.SecFleet, "fleet", "fleet changed", readFleetForm, view.FleetSection)
}

// readFleetForm reads the fleet form; planner checks what the numbers
// mean (a scaling factor above 0, a reserve of 0 or more).
func readFleetForm(f url.Values) (*planner.FleetInputs, view.FormErrors) {
	r := newFormReader(f)
	get := func(name string) string { return r.str("fleet." + name) }
	if get("topology") == "" {
		return nil, r.errs
	}
	whole := func(name string) int { return deref(r.integer("fleet." + name)) }
	num := func(name string) *float64 { return r.float("fleet." + name) }
	fl := &planner.FleetInputs{Topology: get("topology"), ReplicasPerBox: whole("replicas_per_box"), TPDegree: whole("tp_degree"),
		Scaling: num("scaling"), ScalingReplicas: whole("scaling_replicas"), ScalingSource: get("scaling_source"), ScalingDate: get("scaling_date"),
		BoxAvailability: num("box_availability"), AvailabilityTarget: num("availability_target")}
	if get("reserve") != "" {
		if n := r.integer("fleet.reserve"); n != nil {
			fl.Reserve = n
		}
	}
	if es := fl.Validate(); len(es) > 0 {
		r.domainIn(es, "fleet")
	}
	return fl, r.errs
}
