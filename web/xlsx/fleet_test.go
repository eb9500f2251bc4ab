package xlsx

import (
	"bytes"
	"math"
	"testing"

	"capplan/planner"
)

// fleetInputs is the worked example with a 2-replica row beside the
// ceiling row (3 req/s at 8 streams, two replicas 5.4: 1.8 times), an N+1
// reserve and a peak of 1.6 boxes' worth of the 1.336 req/s one replica
// holds with random arrivals: 2.138 req/s is 76,954 a month with 10 % in
// the busiest hour. It buys ceil(2.138 / (1.336 x 0.9)) = 2 serving boxes
// and 1 in reserve (docs/method.md, "Fleets and the reserve").
func fleetInputs() planner.Inputs {
	in := workedInputs()
	two := in.Rows[3]
	two.Index, two.Source.File = 5, "two-replicas.yaml"
	two.RequestRate, two.Replicas = planner.F(5.4), planner.I(2)
	in.Rows = append(in.Rows, two)
	in.MaxBoxes = 3
	in.Scenarios[2].MonthlyRequests = 76_954 // 1.6 boxes' worth of 1.336 req/s with arrivals
	in.Fleet = &planner.FleetInputs{Topology: planner.TopologyBoxes, Reserve: planner.I(1)}
	return in
}

// fleetAvailabilityInputs derives the reserve from boxes up 99 % of the
// time and a 99.9 % target, with a typed factor and no measured pair.
func fleetAvailabilityInputs() planner.Inputs {
	in := fleetInputs()
	in.Rows = in.Rows[:5]
	in.Fleet = &planner.FleetInputs{Topology: planner.TopologyReplicas, ReplicasPerBox: 2, Scaling: planner.F(1.7), ScalingReplicas: 2,
		ScalingSource: "vendor sizing note", ScalingDate: "2026-10-01", BoxAvailability: planner.F(0.99), AvailabilityTarget: planner.F(0.999)}
	return in
}

// The Fleet sheet and the scenarios it sizes recalculate in LibreOffice to
// the planner's figures (boxes needed with the reserve, the cost per 1,000
// paying for it, the crossover's smallest fleet), and a reserve changed in
// the workbook moves the boxes and costs as the planner moves them.
func TestLibreOfficeFleet(t *testing.T) {
	cases := map[string]planner.Inputs{"fleet": fleetInputs(), "availability": fleetAvailabilityInputs()}
	books, results := map[string][]byte{}, map[string]planner.Result{}
	for name, in := range cases {
		r := testReport(in)
		books[name], results[name] = writeBook(t, r), r.Result
	}
	peak := results["fleet"].Scenarios[2]
	if peak.Sizing == nil || peak.Sizing.Serving != 2 || peak.Sizing.Reserve != 1 || *peak.BoxesNeeded != 3 || math.Abs(peak.BusyHourRate / *results["fleet"].Capacity.PerBoxRate - 1.6) > 1e-3 {
		t.Fatalf("fleet peak %+v at %v req/s", peak.Sizing, peak.BusyHourRate)
	}
	if f := results["availability"].Fleet; f.ScalingFrom != planner.ScalingTyped || f.ReserveRule != planner.ReserveAvailability {
		t.Fatalf("availability fleet %+v", f)
	}

	// The reserve changed in the workbook: N+2.
	in := fleetInputs()
	f := openBook(t, books["fleet"])
	c := namedCell(t, f, "Fleet_Reserve")
	if err := f.SetCellValue(c.sheet, c.name(), 2); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	in.Fleet.Reserve = planner.I(2)
	books["changed"], results["changed"] = buf.Bytes(), planner.Compute(in)
	if b := *results["changed"].Scenarios[2].BoxesNeeded; b != 4 {
		t.Fatalf("N+2 peak: %d boxes", b)
	}

	sheets := recalcBooks(t, books)
	for name := range books {
		t.Run(name, func(t *testing.T) {
			checkSheets(t, books[name], sheets[name], results[name])
			if name != "changed" {
				checkCachedAgree(t, books[name], sheets[name])
			}
			res := results[name]
			for i, sr := range res.Scenarios {
				got := at(sheets[name], namedCell(t, openBook(t, books[name]), scenarioBase(sr)+"_Fleet_Boxes"))
				if !near(got, float64(*sr.BoxesNeeded), 0) {
					t.Errorf("%s: Fleet sheet boxes %q, planner %d (scenario %d)", sr.Scenario.Name, got, *sr.BoxesNeeded, i)
				}
			}
			if x := res.Crossovers[0]; !near(at(sheets[name], cell{shCrossover, 2, 2}), money(x.FLocal), 0.005) {
				t.Errorf("crossover F_local %q, planner %s", at(sheets[name], cell{shCrossover, 2, 2}), x.FLocal.Exact)
			}
		})
	}
}

// scenarioBase is a scenario's defined-name base, as scenariosSheet names it.
func scenarioBase(sr planner.ScenarioResult) string {
	return "Scenario_" + defName(titleCase(sr.Scenario.Name))
}
