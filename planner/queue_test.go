package planner

import (
	"math"
	"testing"
)

// The simulation against the closed form: c = 8 exponential servers,
// Poisson arrivals, no limit on the queue (docs/method.md, "Queues in the
// busy hour").
func TestSimulateQueueErlangC(t *testing.T) {
	for _, rho := range []float64{0.5, 0.8, 0.95} {
		lambda := 8 * rho
		// Enough arrivals that the estimate's own noise is well inside 2 %.
		dur := 3e6 / lambda
		if rho > 0.9 {
			dur = 2e7 / lambda
		}
		o := SimulateQueue(QueueSetup{Slots: 8, Rate: lambda, DurationS: dur, Seed: 7, Unbounded: true}, ServiceModel{ExpMeanS: 1})
		pw, mw := ErlangC(8, lambda, 1)
		if d := math.Abs(o.Waited-pw) / pw; d > 0.02 {
			t.Errorf("rho %v: P(wait) simulated %.4f, Erlang C %.4f (%.1f %% off)", rho, o.Waited, pw, d*100)
		}
		if d := math.Abs(o.MeanWait-mw) / mw; d > 0.02 {
			t.Errorf("rho %v: mean wait simulated %.4f s, Erlang C %.4f s (%.1f %% off)", rho, o.MeanWait, mw, d*100)
		}
		if math.Abs(o.Utilisation-rho) > 0.01 {
			t.Errorf("rho %v: utilisation %.4f", rho, o.Utilisation)
		}
		t.Logf("rho %v: P(wait) %.4f vs %.4f, mean wait %.4f vs %.4f", rho, o.Waited, pw, o.MeanWait, mw)
	}
}

// A recorded arrival list replays to the same outcome, worked by hand:
// 2 slots, a queue of 1 with a 1 s age, every request 2 s (TTFT 0.5 s).
func TestReplayQueue(t *testing.T) {
	arrivals := []float64{0, 0.1, 0.2, 0.3, 1.5, 2.05, 2.2, 2.25}
	draws := []ServiceDraw{{TTFT: 0.5, E2E: 2}}
	s := QueueSetup{Slots: 2, QueueSize: 1, MaxQueueAgeS: 1, DurationS: 4}
	o := ReplayQueue(arrivals, draws, s)
	// 0 and 0.1 take the slots until 2 and 2.1. 0.2 queues (start 2:
	// wait 1.8 > 1, leaves at 1.2); 0.3 finds the queue full (0.2 is in
	// it until 1.2): refused. 1.5 queues, starts at 2 (wait 0.5). 2.05
	// queues, starts at 2.1 (wait 0.05). 2.2 finds both slots busy until
	// 4 and 4.1 and would wait 1.8: it waits in the queue to 3.2; 2.25
	// finds the queue full: refused.
	want := QueueOutcome{Arrivals: 8, Served: 4, Refused: 2, TimedOut: 2}
	if o.Arrivals != want.Arrivals || o.Served != want.Served || o.Refused != want.Refused || o.TimedOut != want.TimedOut {
		t.Fatalf("replay = %+v, want %+v", o, want)
	}
	if math.Abs(o.MeanWait-(0.5+0.05)/4) > 1e-9 || math.Abs(o.ClientTTFTP99-1.0) > 1e-9 {
		t.Errorf("mean wait %v, client TTFT p99 %v", o.MeanWait, o.ClientTTFTP99)
	}
	if o2 := ReplayQueue(arrivals, draws, s); o2 != o {
		t.Errorf("a second replay differs: %+v", o2)
	}
}

// The same seed gives the same hour; a burst makes waiting worse.
func TestSimulateQueueDeterministicAndBursts(t *testing.T) {
	m := ServiceModel{Draws: []ServiceDraw{{TTFT: 0.2, E2E: 3}, {TTFT: 0.4, E2E: 5}}}
	s := QueueSetup{Slots: 8, QueueSize: 4, MaxQueueAgeS: 1, Rate: 1.8, DurationS: 3600, Seed: 3}
	a, b := SimulateQueue(s, m), SimulateQueue(s, m)
	if a != b {
		t.Fatalf("same seed, different outcome: %+v vs %+v", a, b)
	}
	s.Burst = 3
	c := SimulateQueue(s, m)
	if c.Unserved() <= a.Unserved() {
		t.Errorf("a burst of 3x refused %.4f, no more than plain Poisson's %.4f", c.Unserved(), a.Unserved())
	}
}

// BenchmarkBusyHour100: one busy hour at 100 req/s (about 360,000
// arrivals) on 128 slots of requests drawn from 1,000 service times.
//
//	go test -run '^$' -bench BusyHour100 -benchmem ./planner
func BenchmarkBusyHour100(b *testing.B) {
	m := ServiceModel{Draws: percentileDraws(Stat{P50: F(0.2), P95: F(0.5), P99: F(0.7)}, Stat{P50: F(0.9), P95: F(1.6), P99: F(2)}, 1000)}
	s := QueueSetup{Slots: 128, QueueSize: 100, MaxQueueAgeS: 1, Rate: 100, DurationS: 3600, Seed: 1}
	var o QueueOutcome
	for b.Loop() {
		o = SimulateQueue(s, m)
	}
	b.ReportMetric(float64(o.Arrivals), "arrivals/op")
}

// BenchmarkReportSimulations: everything a report simulates, with the
// kept searches cleared each time: the search for the rate one box holds
// and each scenario on its boxes and one fewer (the worked example's
// three scenarios, 1.93 req/s a box, 2 simulated hours each).
func BenchmarkReportSimulations(b *testing.B) {
	in := queueExampleInputs()
	for b.Loop() {
		searchCache = &boundedCache{m: map[uint64]searchResult{}}
		Compute(in)
	}
}
