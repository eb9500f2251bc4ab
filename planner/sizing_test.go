package planner

import (
	"math"
	"strings"
	"testing"
	"time"
)

// queueExampleInputs is the worked example of docs/method.md, "Queues in
// the busy hour": a box whose closed-loop ceiling is 32 streams serving
// 1.93 req/s (16.58 s a request by Little's law), TTFT p95 0.9 s against
// a p95 TTFT bound of 2 s, and a busy hour of 1.925 req/s.
func queueExampleInputs() Inputs {
	in := demoInputs()
	var rows []Row
	for i, streams := range []float64{8, 16, 32, 40} {
		r := concRow(streams, 19)
		r.Index = i
		r.Observed.OOMChecked = true
		r.RequestRate = F(streams * 1.93 / 32)
		r.DurationS, r.Attempted, r.Successful = F(120), I(240), I(240)
		r.TTFT = Stat{Mean: F(0.55), P50: F(0.5), P95: F(0.9), P99: F(1.2), N: 240}
		r.E2E = Stat{Mean: F(32 / 1.93), P50: F(16), P95: F(19), P99: F(20), N: 240}
		rows = append(rows, r)
	}
	rows[3].TTFT.P95 = F(2.4) // 40 streams misses the TTFT bound
	in.Rows = rows
	in.Contract.Loads = []float64{8, 16, 32, 40}
	in.Contract.Objective = Objective{Percentile: 95, MinSuccess: 0.99, TTFTMax: F(2), E2EMax: F(25), MinHeadroom: F(0.10), NoOOM: true}
	in.MaxBoxes = 2
	in.Scenarios = []Scenario{
		{Name: "low", MonthlyRequests: 500_000, BusyHourKind: BusyPeakRate, PeakRate: 0.9},
		{Name: "expected", MonthlyRequests: 1_000_000, BusyHourKind: BusyPeakRate, PeakRate: 1.925},
		{Name: "peak", MonthlyRequests: 1_000_000, BusyHourKind: BusyPeakRate, PeakRate: 1.925},
	}
	return in
}

// The worked example: at 1.925 req/s the closed-loop ceiling (1.93) calls
// one box enough (99.7 %); with random arrivals one box refuses far more
// than 0.1 %, two boxes at 0.9625 req/s each hold the objective.
func TestQueueWorkedExample(t *testing.T) {
	r := Compute(queueExampleInputs())
	a := r.Admission
	// Wait budget 2 - 0.9 = 1.1 s; 32 slots drain 1.93 req/s, 2.12 in the
	// budget: a queue of 2 for 1.1 s; Retry-After ceil(3 / 1.93) = 2 s.
	if *a.MaxInFlight != 32 || a.QueueSize != 2 || math.Abs(a.MaxQueueAgeS-1.1) > 1e-9 || a.RetryAfterS != 2 {
		t.Fatalf("admission: %d in flight, queue %d for %v s, Retry-After %d (%q)", *a.MaxInFlight, a.QueueSize, a.MaxQueueAgeS, a.RetryAfterS, a.Reasons)
	}
	c := r.Capacity
	if c.Queue == nil || *c.ClosedLoopPerBox != 1.93 {
		t.Fatalf("capacity %+v", c)
	}
	if s := c.Queue.SustainableRate; s < 0.9625 || s >= 1.925 || *c.PerBoxRate != s {
		t.Errorf("sustainable rate %v, want between 0.9625 and 1.925", s)
	}
	t.Logf("sustainable %v: %s", c.Queue.SustainableRate, c.Queue.Basis)
	e := r.Scenarios[1]
	if e.BoxesNeeded == nil || *e.BoxesNeeded != 2 || e.Queue == nil || !e.Queue.Meets || e.Queue.Fewer == nil || e.Queue.FewerMeets {
		t.Fatalf("expected: boxes %v, queue %+v", e.BoxesNeeded, e.Queue)
	}
	one, two := *e.Queue.Fewer, e.Queue.At
	if one.Unserved() < 0.01 || two.Unserved() > DefaultRefusedTarget || two.ClientTTFTP95 > 2 {
		t.Errorf("one box: %.4f unserved, p95 client TTFT %.3f; two: %.5f, %.3f", one.Unserved(), one.ClientTTFTP95, two.Unserved(), two.ClientTTFTP95)
	}
	t.Logf("one box: %+v", one)
	t.Logf("two boxes: %+v", two)
	// 2 boxes x 2,800 (2,000 hosting + 800 labour; no power measured) over
	// 1,000,000 requests = 5.60 per 1,000 (one box would say 2.80).
	self := e.Options[0]
	if self.Boxes != 2 || self.CostPer1000.Display() != "5.60" {
		t.Errorf("self-hosted %d boxes at %s per 1,000", self.Boxes, self.CostPer1000.Display())
	}
	if !strings.Contains(e.Queue.Text, "on 1 box:") {
		t.Errorf("scenario queue text %q", e.Queue.Text)
	}
}

// Service times come from the percentiles when the file holds no
// per-request records, and the simulation says so.
func TestServiceFromPercentiles(t *testing.T) {
	m, ok := serviceModel(Row{TTFT: Stat{P50: F(0.5), P95: F(0.9), P99: F(1.2)}, E2E: Stat{P50: F(16), P95: F(19), P99: F(20)}})
	if !ok || !m.FromPercentiles || len(m.Draws) != simDrawsFromPc || !strings.Contains(m.Basis, "no per-request records") {
		t.Fatalf("model %+v", m)
	}
	// The draws are the distribution: their median is the p50.
	mid := m.Draws[len(m.Draws)/2]
	if math.Abs(mid.E2E-16) > 0.01 || math.Abs(mid.TTFT-0.5) > 0.01 {
		t.Errorf("median draw %+v", mid)
	}
	m, ok = serviceModel(Row{Samples: []Sample{{TTFT: 0.2, E2E: 3, OK: true}, {TTFT: NoFigure, E2E: NoFigure}}})
	if !ok || m.FromPercentiles || len(m.Draws) != 1 || m.MeanE2E != 3 {
		t.Errorf("records model %+v", m)
	}
}

// Per-minute production traffic gives the burst factor: the busiest
// minute's rate over the busiest hour's mean; a full day gives the hourly
// shape the hybrid plan reads.
func TestDemandBurstAndHourShares(t *testing.T) {
	m := NewDemandMeter()
	start := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)
	for i := range 24 * 60 {
		n := int64(10)
		if i/60 == 9 { // 09:00 is busier: 20 a minute, one minute of 60
			n = 20
			if i%60 == 30 {
				n = 60
			}
		}
		if err := m.Add(TrafficBucket{Start: start.Add(time.Duration(i) * time.Minute), LengthS: 60, Requests: n}); err != nil {
			t.Fatal(err)
		}
	}
	d := m.Result(nil, "t.csv")
	// The busiest hour: 59 x 20 + 60 = 1,240 requests, 0.3444 req/s; its
	// peak minute 1 req/s: a burst of 2.903.
	if d.Burst == nil || math.Abs(*d.Burst-60.0/60/(1240.0/3600)) > 1e-9 || !strings.Contains(d.BurstBasis, "busiest 60 s bucket") {
		t.Fatalf("burst %v (%s)", d.Burst, d.BurstBasis)
	}
	if len(d.HourShares) != 24 || math.Abs(d.HourShares[9]-1240.0/(23*600+1240)) > 1e-12 {
		t.Errorf("hour shares %v", d.HourShares)
	}
	in := Inputs{Demand: &d, Scenarios: []Scenario{{Name: "expected"}}}
	if b, src := sizingBurst(in); b != *d.Burst || !strings.HasPrefix(src, "from production traffic") {
		t.Errorf("sizing burst %v %q", b, src)
	}
	in.Scenarios[0].Burst = 1.5
	if b, src := sizingBurst(in); b != 1.5 || src != "typed" {
		t.Errorf("typed burst %v %q", b, src)
	}
}
