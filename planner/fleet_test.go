package planner

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// fleetInputs is the demo with a 2-replica row beside the ceiling row:
// one replica serves 3.2 req/s at 8 streams (the closed-loop ceiling), two
// serve 5.76, 1.8 times that. With random arrivals one replica holds the
// objective up to 1.53 req/s (docs/method.md, "Queues in the busy hour").
// The peak's busiest hour is 1.6 boxes' worth: 2.448 req/s is 176,256 a
// month with 5 % of them in the busiest hour.
func fleetInputs() Inputs {
	in := demoInputs()
	two := concRow(8, 12)
	two.Index = 5
	two.Source = Source{File: "two-replicas.yaml", Format: "llm-d"}
	two.RequestRate = F(5.76)
	two.Replicas = I(2)
	two.Observed.OOMChecked = true
	in.Rows = append(in.Rows, two)
	in.MaxBoxes = 3
	in.Scenarios[2].MonthlyRequests = 176_256
	in.Fleet = &FleetInputs{Topology: TopologyBoxes, Reserve: I(1)}
	return in
}

// The worked check (docs/method.md, "Fleets and the reserve"): a
// 2-replica row pair with 1.8x scaling and an N+1 reserve buys 3 boxes at
// a peak that needs 1.6 boxes. The peak's 2.448 req/s is 2.448 / 1.53 =
// 1.6 boxes of one replica with arrivals; two replicas serve 1.8 / 2 = 0.9
// of one each, so the serving boxes are ceil(2.448 / (1 x 1.53 x 0.9)) =
// ceil(1.78) = 2, and
// the reserve makes 2 + 1 = 3. The cost per 1,000 pays for all three: a
// box costs 2,000 of hosting + 800 of labour + 153.30 of power (700 W x
// 730 h / 1000 x 0.30) = 2,953.30 a month, and 3 x 2,953.30 / 176,256 x
// 1,000 = 8,859.90 / 176.256 = 50.27.
func TestFleetWorkedCheck(t *testing.T) {
	r := Compute(fleetInputs())
	f := r.Fleet
	if f == nil || f.ScalingFrom != ScalingMeasured || f.Scaling == nil || math.Abs(*f.Scaling-1.8) > 1e-12 || f.ScalingReplicas != 2 {
		t.Fatalf("fleet = %+v", f)
	}
	if math.Abs(*f.Efficiency-0.9) > 1e-12 {
		t.Errorf("efficiency = %v, want 0.9", *f.Efficiency)
	}
	if !strings.HasPrefix(f.ScalingText, "measured: 5.76 req/s of 2 replicas at row 8 concurrent streams (two-replicas.yaml row 5) over 3.2 req/s of one at row 8 concurrent streams (c.json row 3) = 1.8") {
		t.Errorf("scaling text = %q", f.ScalingText)
	}
	if *r.Capacity.PerBoxRate != 1.53 || *r.Capacity.ClosedLoopPerBox != 3.2 {
		t.Fatalf("the 2-replica row moved the capacity per box: %v", *r.Capacity.PerBoxRate)
	}
	peak := r.Scenarios[2]
	if math.Abs(peak.BusyHourRate/1.53-1.6) > 1e-12 {
		t.Fatalf("peak needs %v boxes' worth, want 1.6", peak.BusyHourRate/1.53)
	}
	if peak.BoxesNeeded == nil || *peak.BoxesNeeded != 3 || peak.Sizing == nil || peak.Sizing.Serving != 2 || peak.Sizing.Reserve != 1 {
		t.Fatalf("peak sizing = %v %+v", peak.BoxesNeeded, peak.Sizing)
	}
	if peak.Sizing.Basis != "ceil(2.448 / (1 x 1.53 x 0.9)) = 2 serving + 1 reserve = 3" {
		t.Errorf("basis = %q", peak.Sizing.Basis)
	}
	self := peak.Options[0]
	want := r.SelfHosted.FixedPerBox.Exact.Mul(decimal.NewFromInt(3))
	if self.Boxes != 3 || !self.MonthlyCost.Exact.Equal(want) || !want.Equal(decimal.RequireFromString("8859.9")) {
		t.Errorf("self-hosted at the peak: %d boxes, %s (want 3 x 2,953.30 = %s)", self.Boxes, self.MonthlyCost.Exact, want)
	}
	if got := self.CostPer1000.Display(); got != "50.27" {
		t.Errorf("cost per 1,000 = %s, want 50.27", got)
	}
	// The expected scenario's 1.11 req/s fits one box; the reserve makes 2.
	if e := r.Scenarios[1]; *e.BoxesNeeded != 2 || e.Sizing.Serving != 1 {
		t.Errorf("expected sizing %+v", e.Sizing)
	}
	// Without the reserve the peak buys the 2 serving boxes; linearly
	// (no scaling loss) it would still be ceil(1.6) = 2.
	in := fleetInputs()
	in.Fleet.Reserve = I(0)
	if b := *Compute(in).Scenarios[2].BoxesNeeded; b != 2 {
		t.Errorf("no reserve: %d boxes", b)
	}
	// The headline and the exit check read the same figure: a plan of 2
	// boxes is beyond it.
	in = fleetInputs()
	in.MaxBoxes = 2
	r2 := Compute(in)
	if !strings.Contains(r2.Headline.Serve.Answer, "the peak scenario needs 3 boxes; the plan allows 2") {
		t.Errorf("headline = %q", r2.Headline.Serve.Answer)
	}
	if it := exitItemByID(r2.ExitCheck, "scenarios"); it.Pass || !strings.Contains(it.Detail, "needs 3 boxes (2 serving + 1 in reserve") {
		t.Errorf("exit scenarios = %+v", it)
	}
	wantDetails(t, "headline", r.Headline.Serve.Details, "", "", "Low: busiest hour", "Expected: busiest hour 1.111 req/s, 2 boxes (1 serving + 1 in reserve) of the plan's 3", "Peak: busiest hour 2.448 req/s, 3 boxes (2 serving + 1 in reserve) of the plan's 3")
}

func exitItemByID(items []ExitItem, id string) ExitItem {
	for _, it := range items {
		if it.ID == id {
			return it
		}
	}
	return ExitItem{}
}

// The 2-replica row counts toward no envelope: it is a stack, not the box.
func TestFleetReplicaRowNotCounted(t *testing.T) {
	r := Compute(fleetInputs())
	rr := r.Matrix[5]
	if rr.Counted || len(rr.NotCounted) != 1 || rr.NotCounted[0].Code != ReplicasNotOneBox {
		t.Errorf("2-replica row: counted %v, %v", rr.Counted, rr.NotCounted)
	}
	if *r.Envelope.Ceiling != 8 {
		t.Errorf("ceiling %v", *r.Envelope.Ceiling)
	}
}

// Measured beats typed; a measured factor above its replicas, or not
// above 0, is flagged and not used: the typed one stands, or, with none,
// the exit check fails.
func TestFleetScalingChoice(t *testing.T) {
	typed := func(in *Inputs) {
		in.Fleet.Scaling, in.Fleet.ScalingReplicas, in.Fleet.ScalingSource, in.Fleet.ScalingDate = F(1.7), 2, "vendor note", "2026-10-01"
	}
	in := fleetInputs()
	typed(&in)
	f := Compute(in).Fleet
	if f.ScalingFrom != ScalingMeasured || !strings.Contains(f.ScalingText, "the measured factor is used, not the typed 1.7 for 2 replicas (vendor note, 2026-10-01)") {
		t.Errorf("measured over typed: %s %q", f.ScalingFrom, f.ScalingText)
	}

	for _, tt := range []struct {
		name string
		rate float64
		flag string
	}{
		{"superlinear", 7.04, "the measured factor 2.2 is above 2 (superlinear)"},
		{"zero", 0, "the measured factor 0 is not above 0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := fleetInputs()
			in.Rows[5].RequestRate = F(tt.rate)
			r := Compute(in)
			if r.Fleet.Measured == nil || !strings.HasPrefix(r.Fleet.Measured.Flag, tt.flag) || r.Fleet.Scaling != nil {
				t.Fatalf("fleet %+v", r.Fleet)
			}
			if it := exitItemByID(r.ExitCheck, "fleet"); it.Pass || !strings.Contains(it.Detail, "no usable scaling factor") {
				t.Errorf("exit fleet %+v", it)
			}
			typed(&in)
			r = Compute(in)
			if r.Fleet.ScalingFrom != ScalingTyped || *r.Fleet.Scaling != 1.7 || !strings.Contains(r.Fleet.ScalingText, "; not measured: "+tt.flag) {
				t.Errorf("typed fallback %+v", r.Fleet)
			}
			if it := exitItemByID(r.ExitCheck, "fleet"); !it.Pass {
				t.Errorf("exit fleet %+v", it)
			}
			// 2.448 / (1.53 x 0.85) = 1.88: 2 serving + 1.
			if b := *r.Scenarios[2].BoxesNeeded; b != 3 {
				t.Errorf("typed 1.7: %d boxes", b)
			}
		})
	}
}

// The availability rule: each box up 99 % of the time, a target of
// 99.9 %: two serving boxes alone are both up 0.99^2 = 98.01 % of the
// time; with one more, at least two of three are up 0.99^3 + 3 x 0.99^2 x
// 0.01 = 99.9702 %, so the reserve is 1. One serving box needs one too
// (1 - 0.01^2 = 99.99 %).
func TestFleetReserveFromAvailability(t *testing.T) {
	if got := UpProbability(2, 3, 0.99); math.Abs(got-0.999702) > 1e-9 {
		t.Errorf("P(2 of 3 up) = %v", got)
	}
	for _, tt := range []struct {
		n, want   int
		a, target float64
	}{{2, 1, 0.99, 0.999}, {1, 1, 0.99, 0.999}, {1, 0, 0.999, 0.99}, {10, 2, 0.99, 0.999}} {
		if r, ok := reserveFor(tt.n, tt.a, tt.target); !ok || r != tt.want {
			t.Errorf("reserve for %d at %v / %v = %d %v, want %d", tt.n, tt.a, tt.target, r, ok, tt.want)
		}
	}
	in := fleetInputs()
	in.Fleet.Reserve, in.Fleet.BoxAvailability, in.Fleet.AvailabilityTarget = nil, F(0.99), F(0.999)
	r := Compute(in)
	if b := r.Scenarios[2]; *b.BoxesNeeded != 3 || b.Sizing.Reserve != 1 {
		t.Errorf("peak %+v", b.Sizing)
	}
	if r.Fleet.ReserveRule != ReserveAvailability || !strings.Contains(r.Fleet.ReserveText, "each box up 99 % of the time") {
		t.Errorf("reserve %q", r.Fleet.ReserveText)
	}
}

// The crossover steps with the reserve: each step of demand buys its
// serving boxes and the reserve, and the chart draws what is paid.
func TestFleetCrossoverSteps(t *testing.T) {
	capa := Capacity{PerBoxRate: F(2), MaxBoxes: 3} // 72,000 a month a box at 10 % in the busy hour
	capa.Fleet = BuildFleet(&FleetInputs{Topology: TopologyBoxes, Scaling: F(1.8), ScalingReplicas: 2, ScalingSource: "s", ScalingDate: "2026-10-01", Reserve: I(1)}, nil, Admission{}, 3)
	self := SelfHostedMonthly(flatSelf("1690", "0"), nil)
	q := QuoteMonthly(flatQuote("api", "0.03"), 256, 128, "contract")
	x := FindCrossover(self, q, capa, 0.1)
	// One serving box and its reserve: F_local = 2 x 1,690 = 3,380 and
	// N = 3,380 / 0.03 = 112,666.67, beyond the 72,000 one serving box
	// serves; two serving boxes serve 2 x 2 x 0.9 x 36,000 = 129,600 a
	// month for 3 x 1,690 = 5,070, cheaper from 169,000, which is beyond
	// them: never cheaper within the plan.
	if !x.FLocal.Exact.Equal(decimal.NewFromInt(3380)) || *x.NRounded != 112_667 {
		t.Errorf("F_local %s, N %v", x.FLocal.Exact, *x.NRounded)
	}
	if x.Stepped != nil {
		t.Errorf("stepped %+v", x.Stepped)
	}
	// A dearer API: 0.06 a request. One serving box (2 paid) wins from
	// 3,380 / 0.06 = 56,333.3 up to 72,000; two serving (3 paid) above
	// 5,070 / 0.06 = 84,500 (equal there), so from 84,501 up to 129,600.
	x = FindCrossover(self, QuoteMonthly(flatQuote("api", "0.06"), 256, 128, "contract"), capa, 0.1)
	want := []SteppedRange{{56_334, 72_000, 2, 2}, {84_501, 129_600, 3, 3}}
	if x.Stepped == nil || !reflect.DeepEqual(x.Stepped.Ranges, want) {
		t.Fatalf("stepped %+v", x.Stepped)
	}
	if !strings.Contains(x.Stepped.Text, "(2 boxes); above that a third box makes the API cheaper again, up to 84,500 requests a month; self-hosting is cheaper again from 84,501 to 129,600 requests a month (3 boxes); above 129,600 requests a month demand exceeds the plan's 3 boxes") {
		t.Errorf("text %q", x.Stepped.Text)
	}
	ch := BuildChart("EUR", self, []QuoteCost{QuoteMonthly(flatQuote("api", "0.06"), 256, 128, "contract")}, nil, nil, capa, 0.1)
	sh := ch.Series[0].Points
	if len(sh) != 4 || sh[0].Cost != 3380 || sh[1].Demand != 72_000 || sh[2].Cost != 5070+72_000*0 || math.Abs(sh[3].Demand-129_600) > 1e-6 {
		t.Errorf("self-hosted steps %+v", sh)
	}
}

// Without a fleet the report computes as before, and a fleet that scales
// linearly with no reserve gives the same boxes, costs and crossovers.
func TestFleetAbsentUnchanged(t *testing.T) {
	in := demoInputs()
	r := Compute(in)
	b, _ := json.Marshal(r)
	for _, key := range []string{`"fleet"`, `"sizing"`} {
		if strings.Contains(string(b), key) {
			t.Errorf("a report without a fleet carries %s", key)
		}
	}
	for _, it := range r.ExitCheck {
		if it.ID == "fleet" {
			t.Error("a fleet item without a fleet")
		}
	}
	in.MaxBoxes = 3
	in.Scenarios[2].MonthlyRequests = 250_000
	plain := Compute(in)
	in.Fleet = &FleetInputs{Topology: TopologyBoxes, Scaling: F(2), ScalingReplicas: 2, ScalingSource: "s", ScalingDate: "2026-10-01"}
	linear := Compute(in)
	for i := range plain.Scenarios {
		p, l := plain.Scenarios[i], linear.Scenarios[i]
		if *p.BoxesNeeded != *l.BoxesNeeded || !p.Options[0].MonthlyCost.Exact.Equal(l.Options[0].MonthlyCost.Exact) {
			t.Errorf("%s: %d vs %d boxes", p.Scenario.Name, *p.BoxesNeeded, *l.BoxesNeeded)
		}
	}
	if *plain.Scenarios[2].BoxesNeeded != 3 {
		t.Errorf("peak boxes %d", *plain.Scenarios[2].BoxesNeeded)
	}
	pj, _ := json.Marshal(plain.Crossovers)
	lj, _ := json.Marshal(linear.Crossovers)
	if string(pj) != string(lj) {
		t.Errorf("crossovers differ:\n%s\n%s", pj, lj)
	}
}

// Bad fleet inputs are refused in the form's words.
func TestFleetValidate(t *testing.T) {
	for _, tt := range []struct {
		f         FleetInputs
		key, want string
	}{
		{FleetInputs{Topology: TopologyBoxes, Scaling: F(0), ScalingReplicas: 2, ScalingSource: "s", ScalingDate: "2026-10-01"}, "fleet.scaling", "the scaling factor must be above 0"},
		{FleetInputs{Topology: TopologyBoxes, Scaling: F(2.5), ScalingReplicas: 2, ScalingSource: "s", ScalingDate: "2026-10-01"}, "fleet.scaling", "more than 2 replicas can serve"},
		{FleetInputs{Topology: TopologyBoxes, Reserve: I(-1)}, "fleet.reserve", "the reserve must be 0 or more boxes (1 for N+1), got -1"},
		{FleetInputs{Topology: TopologyBoxes, Scaling: F(1.8)}, "fleet.scaling_source", "required with a typed scaling factor"},
		{FleetInputs{Topology: "ring"}, "fleet.topology", "choose the topology"},
		{FleetInputs{Topology: TopologyReplicas, ReplicasPerBox: 1}, "fleet.replicas_per_box", "2 or more"},
		{FleetInputs{Topology: TopologyBoxes, BoxAvailability: F(1.5), AvailabilityTarget: F(0.99)}, "fleet.box_availability", "above 0 and below 1"},
		{FleetInputs{Topology: TopologyBoxes, Reserve: I(1), BoxAvailability: F(0.99), AvailabilityTarget: F(0.999)}, "fleet.reserve", "not both"},
	} {
		es := tt.f.Validate()
		found := false
		for _, e := range es {
			found = found || (e.Field == tt.key && strings.Contains(e.Message, tt.want))
		}
		if !found {
			t.Errorf("%+v: %v, want %s: %s", tt.f, es, tt.key, tt.want)
		}
	}
	if es := (FleetInputs{Topology: TopologyReplicas, ReplicasPerBox: 4, Reserve: I(1)}).Validate(); len(es) != 0 {
		t.Errorf("valid fleet refused: %v", es)
	}
}

// One box of TP1 x 4 replicas: a box serves 4 x 1.53 x 0.9 = 5.508 req/s,
// and the limit is per replica: 8 in flight on each, 8 x 4 x 3 = 96 for
// the plan's three boxes.
func TestFleetReplicasPerBox(t *testing.T) {
	in := fleetInputs()
	in.Fleet = &FleetInputs{Topology: TopologyReplicas, ReplicasPerBox: 4, Reserve: I(1)}
	r := Compute(in)
	if got := r.Capacity.Serves(1); math.Abs(got-5.508) > 1e-9 {
		t.Errorf("one box serves %v", got)
	}
	if *r.Scenarios[2].BoxesNeeded != 2 {
		t.Errorf("peak %d boxes", *r.Scenarios[2].BoxesNeeded)
	}
	f := r.Fleet
	if *f.PerReplicaInFlight != 8 || *f.FleetInFlight != 96 || !strings.Contains(f.AdmissionText, "8 in flight on each, 96 for the plan's 3 boxes (12 replicas)") || !strings.Contains(f.AdmissionText, "HTTP 429 with Retry-After") {
		t.Errorf("admission %q", f.AdmissionText)
	}
	if !strings.Contains(strings.Join(r.Headline.Admit.Details, " "), "The limit is per replica") {
		t.Errorf("headline admit %v", r.Headline.Admit.Details)
	}
}

// A row whose file does not say how many replicas served it takes the
// count typed for it: the same pair measures the same factor; a count
// below 1 is refused.
func TestFleetTypedReplicas(t *testing.T) {
	in := fleetInputs()
	in.Rows[5].Replicas, in.Rows[5].Observed.Replicas = nil, I(2)
	r := Compute(in)
	if f := r.Fleet; f.ScalingFrom != ScalingMeasured || math.Abs(*f.Scaling-1.8) > 1e-12 || *r.Scenarios[2].BoxesNeeded != 3 {
		t.Errorf("typed replicas: %+v", f)
	}
	err := Observed{Replicas: I(0)}.Validate()
	if err == nil || !strings.Contains(err.Error(), "the replicas that served the row must be 1 or more, got 0") {
		t.Errorf("replicas 0: %v", err)
	}
}
