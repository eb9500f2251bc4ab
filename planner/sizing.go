package planner

import (
	"fmt"
	"hash/fnv"
	"math"
	"sync"
)

// DefaultRefusedTarget is the share of arrivals a box may refuse (429 on
// arrival or after waiting the queue's age) and still count as serving
// the busy hour: 0.1 %.
const DefaultRefusedTarget = 0.001

// Simulation sizes: at least simMinArrivals per simulated rate (whole
// hours of the busy hour, at most simMaxHours), and the steps of the
// search for the highest rate that holds the objective.
const (
	simMinArrivals = 10000
	simMaxHours    = 24
	simSearchSteps = 14
	simDrawsFromPc = 1000
	simSeed        = 20261203
)

// QueueSizing is what one box serves with requests arriving at random
// rather than from a fixed number of waiting streams (docs/method.md,
// "Queues in the busy hour"): the highest arrival rate per box at which
// the client's TTFT (the queue's wait included) still meets the
// objective's TTFT bound at its percentile and no more than RefusedTarget
// of arrivals are refused or time out in the queue.
type QueueSizing struct {
	// ClosedLoopRate is the ceiling row's successful req/s, measured with
	// streams that each waited for their answer.
	ClosedLoopRate float64 `json:"closed_loop_rate"`
	// SustainableRate is the highest arrival rate, req/s per box, at
	// which the objective holds with random arrivals; At is the
	// simulated hour there.
	SustainableRate float64      `json:"sustainable_rate"`
	At              QueueOutcome `json:"at"`
	// Utilisation is SustainableRate over the closed-loop rate.
	Utilisation float64 `json:"utilisation"`
	// The admission simulated: slots (max in flight), queue and its age.
	Slots        int     `json:"slots"`
	QueueSize    int     `json:"queue_size"`
	MaxQueueAgeS float64 `json:"max_queue_age_s"`
	// Percentile and TTFTBound are the objective's; TTFTBound nil when it
	// has none (then only the refused share sizes the box).
	Percentile    float64  `json:"percentile"`
	TTFTBound     *float64 `json:"ttft_bound_s"`
	RefusedTarget float64  `json:"refused_target"`
	// Burst is the busiest minute's rate over the busy hour's mean, and
	// BurstSource where it came from ("typed", "production traffic" or
	// "none: Poisson arrivals").
	Burst       float64      `json:"burst"`
	BurstSource string       `json:"burst_source"`
	Service     ServiceModel `json:"service"`
	Hours       int          `json:"hours"`
	Basis       string       `json:"basis"`
	Notes       []string     `json:"notes"`

	setup QueueSetup
}

// meets is true when a simulated hour holds the objective.
func (q *QueueSizing) meets(o QueueOutcome) bool {
	if o.Unserved() > q.RefusedTarget+1e-12 {
		return false
	}
	return q.TTFTBound == nil || o.ClientTTFT(q.Percentile) <= *q.TTFTBound+1e-12
}

// Simulate runs the box at an arrival rate, req/s per box.
func (q *QueueSizing) Simulate(rate float64) QueueOutcome {
	s := q.setup
	s.Rate = rate
	return SimulateQueue(s, q.Service)
}

// Meets simulates a rate per box and says whether the objective holds.
func (q *QueueSizing) Meets(rate float64) (QueueOutcome, bool) {
	o := q.Simulate(rate)
	return o, q.meets(o)
}

// serviceModel is the ceiling row's per-request service: its successful
// records' TTFT and end-to-end times, or draws from its percentiles when
// the file holds no records (said so); ok false without end-to-end
// figures.
func serviceModel(r Row) (ServiceModel, bool) {
	var m ServiceModel
	for _, s := range r.Samples {
		if s.OK && Has(s.E2E) && Has(s.TTFT) {
			m.Draws = append(m.Draws, ServiceDraw{TTFT: float64(s.TTFT), E2E: float64(s.E2E)})
		}
	}
	if len(m.Draws) > 0 {
		m.Basis = fmt.Sprintf("service times drawn from the ceiling row's %d successful per-request records (TTFT and end-to-end)", len(m.Draws))
	} else {
		m.Draws = percentileDraws(r.TTFT, r.E2E, simDrawsFromPc)
		if m.Draws == nil {
			return m, false
		}
		m.FromPercentiles = true
		m.Basis = "service times drawn from the ceiling row's percentiles (TTFT and end-to-end p50, p95, p99, joined by straight lines): the file holds no per-request records"
	}
	for _, d := range m.Draws {
		m.MeanE2E += d.E2E
	}
	m.MeanE2E /= float64(len(m.Draws))
	return m, true
}

// SizeWithArrivals finds what one box serves with random arrivals: the
// admission in force (its max in flight, queue and age), service from the
// ceiling row, the objective's TTFT bound and the refused target. nil,
// with why, when there is no ceiling, no limit or no service time.
func SizeWithArrivals(ceil *RowResult, ad Admission, o Objective, refusedTarget, burst float64, burstSource string) (*QueueSizing, string) {
	if ceil == nil {
		return nil, "no demonstrated ceiling to simulate"
	}
	if ad.MaxInFlight == nil || *ad.MaxInFlight < 1 {
		return nil, "no max in flight: the slots of the simulation are unknown"
	}
	m, ok := serviceModel(ceil.Row)
	if !ok {
		return nil, "the ceiling row has no end-to-end times to draw service times from"
	}
	closed := SuccessfulRate(ceil.Row)
	if closed == nil || *closed <= 0 {
		return nil, "the ceiling row lacks its request rate"
	}
	if refusedTarget <= 0 {
		refusedTarget = DefaultRefusedTarget
	}
	if burst < 1 {
		burst = 1
	}
	q := &QueueSizing{ClosedLoopRate: *closed, Slots: *ad.MaxInFlight, QueueSize: ad.QueueSize, MaxQueueAgeS: ad.MaxQueueAgeS,
		Percentile: o.Percentile, TTFTBound: o.TTFTMax, RefusedTarget: refusedTarget, Burst: burst, BurstSource: burstSource}
	// Service times are held to the ceiling's own rate: its in-flight
	// count over its successful rate is the time a slot is held per
	// completed request (Little's law); the per-request times are scaled
	// to it, so the slots complete what the ceiling measured.
	if ad.CeilingInFlight != nil && *ad.CeilingInFlight > 0 {
		hold := float64(*ad.CeilingInFlight) / *closed
		if k := hold / m.MeanE2E; math.Abs(k-1) > 1e-9 {
			if math.Abs(k-1) > 0.1 {
				m.Basis += fmt.Sprintf("; the ceiling's %d in flight at %s req/s hold a slot %s s a request, not the %s s mean of the times drawn: end-to-end times are scaled by %s to the measured rate",
					*ad.CeilingInFlight, fmtNum(*closed), fmtNum(hold), fmtNum(m.MeanE2E), fmtNum(k))
			}
			for i := range m.Draws {
				m.Draws[i].E2E *= k
			}
			m.MeanE2E = hold
		}
	}
	q.Service = m
	drain := float64(q.Slots) / m.MeanE2E
	q.Hours = min(simMaxHours, max(1, int(math.Ceil(simMinArrivals/(drain*3600)))))
	q.setup = QueueSetup{Slots: q.Slots, QueueSize: q.QueueSize, MaxQueueAgeS: q.MaxQueueAgeS, DurationS: float64(q.Hours) * 3600, Burst: burst, Seed: simSeed}
	q.SustainableRate, q.At = q.search(drain)
	q.Utilisation = q.SustainableRate / q.ClosedLoopRate
	bound := "no TTFT bound"
	if q.TTFTBound != nil {
		bound = fmt.Sprintf("p%s client TTFT (queue wait included) is within %s s", fmtNum(q.Percentile), fmtNum(*q.TTFTBound))
	}
	q.Basis = fmt.Sprintf("%s req/s per box with random arrivals (%s of the closed-loop ceiling's %s req/s): the highest rate at which %s and at most %s of arrivals are refused or time out, over %d simulated %s of %d slots, a queue of %d for %s s",
		fmtNum(q.SustainableRate), DisplayShare(q.Utilisation), fmtNum(q.ClosedLoopRate), bound, DisplayShare(q.RefusedTarget), q.Hours, plural(q.Hours, "hour", "hours"), q.Slots, q.QueueSize, fmtNum(q.MaxQueueAgeS))
	q.Notes = append(q.Notes, m.Basis)
	if burst > 1 {
		q.Notes = append(q.Notes, fmt.Sprintf("minute peaks: %d minutes an hour at %s times the hour's mean rate (%s)", burstMinutes, fmtNum(burst), burstSource))
	} else {
		q.Notes = append(q.Notes, "arrivals are Poisson at the busy hour's mean rate: no burst factor typed or imported")
	}
	if ad.Margin > 0 || ad.Overridden {
		q.Notes = append(q.Notes, "the slots are the limit in force, below the ceiling's streams; service times are the ceiling's, which a lighter batch would beat, so this errs on the safe side")
	}
	return q, ""
}

// search finds the highest rate, up to the slots' drain rate, whose
// simulated hour meets the objective (a bisection: the same arrivals
// scaled, so a higher rate never does better by chance). Results are
// kept, keyed by everything that decides them, so a report recomputed
// with the same inputs does not simulate again.
func (q *QueueSizing) search(drain float64) (float64, QueueOutcome) {
	key := q.cacheKey(drain)
	if v, ok := searchCache.get(key); ok {
		return v.rate, v.at
	}
	lo, hi := 0.0, drain
	var at QueueOutcome
	if o, ok := q.Meets(hi); ok {
		lo, at = hi, o
	} else {
		for range simSearchSteps {
			mid := (lo + hi) / 2
			if o, ok := q.Meets(mid); ok {
				lo, at = mid, o
			} else {
				hi = mid
			}
		}
	}
	// Report a rate of 4 significant digits, never above what was found.
	if lo > 0 {
		p := math.Pow(10, math.Floor(math.Log10(lo))-3)
		lo = math.Floor(lo/p) * p
		at = q.Simulate(lo)
	}
	searchCache.put(key, searchResult{lo, at})
	return lo, at
}

func (q *QueueSizing) cacheKey(drain float64) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d|%d|%g|%g|%g|%v|%g|%g|%d|", q.Slots, q.QueueSize, q.MaxQueueAgeS, q.Percentile, q.RefusedTarget, q.TTFTBound != nil && true, orZero(q.TTFTBound), q.Burst, q.Hours)
	fmt.Fprintf(h, "%g|%d|", drain, len(q.Service.Draws))
	for _, d := range q.Service.Draws {
		fmt.Fprintf(h, "%g,%g;", d.TTFT, d.E2E)
	}
	return h.Sum64()
}

func orZero(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

type searchResult struct {
	rate float64
	at   QueueOutcome
}

// searchCache keeps recent searches; the simulation is deterministic, so
// a kept result is the result.
var searchCache = &boundedCache{m: map[uint64]searchResult{}}

type boundedCache struct {
	mu    sync.Mutex
	m     map[uint64]searchResult
	order []uint64
}

func (c *boundedCache) get(k uint64) (searchResult, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *boundedCache) put(k uint64, v searchResult) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[k]; ok {
		return
	}
	if len(c.order) >= 256 {
		delete(c.m, c.order[0])
		c.order = c.order[1:]
	}
	c.m[k] = v
	c.order = append(c.order, k)
}

// ScenarioQueue is one scenario's busy hour simulated on the boxes it
// needs: the rate each serving box sees, and the hour there; Fewer is the
// hour on one box fewer (nil at one box), which shows why it is not
// enough.
type ScenarioQueue struct {
	Boxes       int           `json:"boxes"`
	RatePerBox  float64       `json:"rate_per_box"`
	Utilisation float64       `json:"utilisation"`
	At          QueueOutcome  `json:"at"`
	Meets       bool          `json:"meets"`
	Fewer       *QueueOutcome `json:"fewer,omitempty"`
	FewerMeets  bool          `json:"fewer_meets"`
	Burst       float64       `json:"burst"`
	Text        string        `json:"text"`
}

// simulateScenario simulates the busy hour spread evenly over n serving
// boxes, and over n - 1.
func simulateScenario(q *QueueSizing, rate float64, n int, burst float64) *ScenarioQueue {
	if q == nil || n < 1 || rate <= 0 {
		return nil
	}
	qq := *q
	if burst >= 1 {
		qq.setup.Burst = burst
	}
	sq := &ScenarioQueue{Boxes: n, RatePerBox: rate / float64(n), Burst: qq.setup.Burst}
	sq.At, sq.Meets = qq.Meets(sq.RatePerBox)
	sq.Utilisation = sq.RatePerBox / q.ClosedLoopRate
	sq.Text = fmt.Sprintf("%s req/s on each of %s (%s of the closed-loop ceiling): p%s client TTFT %s s, queue wait p99 %s s, %s refused, %s timed out in the queue",
		fmtNum(sq.RatePerBox), boxes(n), DisplayShare(sq.Utilisation), fmtNum(q.Percentile), fmtNum(sq.At.ClientTTFT(q.Percentile)), fmtNum(sq.At.WaitP99), DisplayShare(sq.At.RefusedShare), DisplayShare(sq.At.TimedOutShare))
	if n > 1 {
		o, ok := qq.Meets(rate / float64(n-1))
		sq.Fewer, sq.FewerMeets = &o, ok
		if !ok {
			sq.Text += fmt.Sprintf("; on %s: p%s client TTFT %s s, %s refused or timed out, which misses the objective",
				boxes(n-1), fmtNum(q.Percentile), fmtNum(o.ClientTTFT(q.Percentile)), DisplayShare(o.Unserved()))
		}
	}
	return sq
}

// ArrivalRatesByRow is, for each matrix row in the envelope, the
// highest arrival rate per box that would hold the objective were that row
// the ceiling (the admission proposed from it, its service times): what
// the workbook picks from when a changed input moves the ceiling. nil for
// rows out of the envelope or without a simulation.
func ArrivalRatesByRow(in Inputs, r Result) []*float64 {
	out := make([]*float64, len(r.Matrix))
	burst, src := sizingBurst(in)
	c := in.Contract
	c.Objective = r.Objective
	for i := range r.Matrix {
		if !r.Matrix[i].InEnvelope {
			continue
		}
		e := r.Envelope
		e.CeilingRow = I(i)
		ad := ProposeAdmission(r.Matrix, e, r.Objective, c, in.Admission)
		if q, _ := SizeWithArrivals(&r.Matrix[i], ad, r.Objective, refusedTarget(c), burst, src); q != nil && q.SustainableRate > 0 {
			out[i] = F(q.SustainableRate)
		}
	}
	return out
}
