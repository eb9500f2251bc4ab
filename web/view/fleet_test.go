package view

import (
	"html"
	"strconv"
	"strings"
	"testing"

	"capplan/planner"
)

// The demo without a fleet shows none; with one (a typed scaling factor
// of 1.8 for 2 replicas, N+1) the page gives every scenario the boxes
// needed, reserve included, and the cost per 1,000 of the planner's
// result (the figures the API and the workbook serve), says where the
// factor comes from, and the admission section says the limit is per
// replica.
func TestFleetOnThePage(t *testing.T) {
	v := demoReport(t)
	page := stepPageOf(t, v, PrintStep)
	if testid(page, "fleet-none") == "" || strings.Contains(page, `data-testid="admission-per-replica"`) {
		t.Error("the demo's page shows a fleet")
	}

	scaling, reserve := 1.8, 1
	v.In.Fleet = &planner.FleetInputs{Topology: planner.TopologyBoxes, Scaling: &scaling, ScalingReplicas: 2,
		ScalingSource: "vendor sizing note", ScalingDate: "2026-12-01", Reserve: &reserve}
	v = withInputs(v, v.In)
	fl := v.Result.Fleet
	if fl == nil || fl.ScalingFrom != planner.ScalingTyped {
		t.Fatalf("fleet %+v", fl)
	}
	page = stepPageOf(t, v, PrintStep)
	if len(v.Result.Scenarios) == 0 {
		t.Fatal("the demo has no scenarios")
	}
	for _, s := range v.Result.Scenarios {
		name := s.Scenario.Name
		if s.Sizing == nil || s.BoxesNeeded == nil || *s.BoxesNeeded != s.Sizing.Serving+1 {
			t.Fatalf("%s: sizing %+v", name, s.Sizing)
		}
		if got := testid(page, "fleet-boxes-"+name); got != strconv.Itoa(*s.BoxesNeeded) {
			t.Errorf("%s: page boxes %q, result %d", name, got, *s.BoxesNeeded)
		}
		if got := testid(page, "fleet-per1000-"+name); strings.TrimSpace(got) != s.Options[0].CostPer1000.Display() {
			t.Errorf("%s: page per 1,000 %q, result %s", name, got, s.Options[0].CostPer1000.Display())
		}
	}
	if got := html.UnescapeString(testid(page, "admission-per-replica")); got != fl.AdmissionText || !strings.Contains(got, "The limit is per replica") || !strings.Contains(got, "Retry-After") {
		t.Errorf("admission per replica %q, result %q", got, fl.AdmissionText)
	}
	if got := testid(page, "fleet-scaling-from"); got != "typed" {
		t.Errorf("scaling from %q", got)
	}
	if testid(page, "fleet-none") != "" {
		t.Error("a report with a fleet says it has none")
	}
}

// A second run at the ceiling's 8 streams against two replicas (typed as
// such for its row, 1.8 times the one-replica rate) measures the fleet's
// scaling factor: the page says it is measured, and from what.
func TestFleetScalingMeasuredOnThePage(t *testing.T) {
	v := demoReport(t)
	var two planner.Row
	for _, r := range v.In.Rows {
		if r.Load != nil && *r.Load == 8 {
			two = r
		}
	}
	if two.RequestRate == nil {
		t.Fatal("the demo has no row at 8 streams with a rate")
	}
	replicas := 2
	two.Index, two.Source.File, two.Source.SHA256 = 0, "two-replicas.json", strings.Repeat("2", 64)
	two.RequestRate = planner.F(*two.RequestRate * 1.8)
	two.Observed.Replicas = &replicas
	reserve := 1
	v.In.Rows = append(v.In.Rows, two)
	v.In.Fleet = &planner.FleetInputs{Topology: planner.TopologyBoxes, Reserve: &reserve}
	v = withInputs(v, v.In)
	if f := v.Result.Fleet; f == nil || f.ScalingFrom != planner.ScalingMeasured || f.Scaling == nil || *f.Scaling < 1.8-1e-9 || *f.Scaling > 1.8+1e-9 {
		t.Fatalf("fleet %+v", v.Result.Fleet)
	}
	page := stepPageOf(t, v, PrintStep)
	if got := testid(page, "fleet-scaling-from"); got != "measured" {
		t.Errorf("page scaling from %q", got)
	}
	if !strings.Contains(html.UnescapeString(testid(page, "fleet-scaling-text")), "Measured: ") {
		t.Errorf("scaling text %q", testid(page, "fleet-scaling-text"))
	}
}
