package planner

import (
	"math"
	"math/rand/v2"
	"sort"
)

// The busy-hour simulation (docs/method.md, "Queues in the busy hour"):
// requests arrive at random at the busy hour's rate per box, are served by
// the admission limit's slots (max in flight) first come first served,
// wait in a queue of the admission's size for at most its age, and are
// refused with 429 when the queue is full. Each served request takes a
// time drawn from the ceiling row's measured per-request latencies, and
// its user sees the wait plus its drawn TTFT.

// ServiceDraw is one request's measured service: its time to first token
// and its end-to-end time, seconds.
type ServiceDraw struct {
	TTFT float64 `json:"ttft_s"`
	E2E  float64 `json:"e2e_s"`
}

// ServiceModel is where the simulation draws service times from: the
// ceiling row's per-request records (Draws, each equally likely), or, for
// checking the simulation against the closed form, an exponential service
// of mean ExpMeanS (TTFT 0).
type ServiceModel struct {
	Draws    []ServiceDraw `json:"-"`
	ExpMeanS float64       `json:"-"`
	// FromPercentiles is true when the draws were made from the row's
	// percentiles because the file holds no per-request records.
	FromPercentiles bool `json:"from_percentiles"`
	// MeanE2E is the mean end-to-end time of the draws, seconds.
	MeanE2E float64 `json:"mean_e2e_s"`
	Basis   string  `json:"basis"`
}

// QueueSetup is one box's admission and arrivals.
type QueueSetup struct {
	// Slots is the admission limit's max in flight.
	Slots int
	// QueueSize is the most requests waiting; MaxQueueAgeS the longest a
	// request waits before it is answered 429 (0: no queue at all).
	QueueSize    int
	MaxQueueAgeS float64
	// Rate is the mean arrival rate, req/s; DurationS the simulated time.
	Rate      float64
	DurationS float64
	// Burst is the busiest minute's rate over the hour's mean (1 or 0:
	// plain Poisson arrivals). BurstMinutes of every 60 run at Burst x
	// Rate and the rest slower, keeping the mean.
	Burst float64
	Seed  uint64
	// Unbounded lifts the queue's size and age (for the closed form).
	Unbounded bool
}

// QueueOutcome is what the simulated hour gives.
type QueueOutcome struct {
	Arrivals int `json:"arrivals"`
	Served   int `json:"served"`
	// Refused were answered 429 on arrival (slots and queue full);
	// TimedOut waited the queue's max age and were answered 429 then.
	Refused       int     `json:"refused"`
	TimedOut      int     `json:"timed_out"`
	RefusedShare  float64 `json:"refused_share"`
	TimedOutShare float64 `json:"timed_out_share"`
	// Waited is the share of served requests that waited at all;
	// MeanWait, WaitP95 and WaitP99 the queue wait of served requests, s.
	Waited   float64 `json:"waited"`
	MeanWait float64 `json:"mean_wait_s"`
	WaitP95  float64 `json:"wait_p95_s"`
	WaitP99  float64 `json:"wait_p99_s"`
	// ClientTTFT is the TTFT users see (wait + the drawn TTFT) of served
	// requests at p50, p95 and p99, s.
	ClientTTFTP50 float64 `json:"client_ttft_p50_s"`
	ClientTTFTP95 float64 `json:"client_ttft_p95_s"`
	ClientTTFTP99 float64 `json:"client_ttft_p99_s"`
	// Utilisation is the busy slot time over the slots' time.
	Utilisation float64 `json:"utilisation"`
}

// ClientTTFT is the client TTFT at percentile p (50, 95 or 99; else 95).
func (o QueueOutcome) ClientTTFT(p float64) float64 {
	switch p {
	case 50:
		return o.ClientTTFTP50
	case 99:
		return o.ClientTTFTP99
	}
	return o.ClientTTFTP95
}

// Unserved is the share of arrivals refused or timed out.
func (o QueueOutcome) Unserved() float64 { return o.RefusedShare + o.TimedOutShare }

// burstMinutes is how many minutes of each hour run at the burst rate.
const burstMinutes = 6

// SimulateQueue simulates one box under random arrivals. The same Seed
// gives the same arrivals at any rate (unit-rate gaps scaled by the rate)
// and the same service draws, so a higher rate never looks better by
// chance.
func SimulateQueue(s QueueSetup, m ServiceModel) QueueOutcome {
	if s.Rate <= 0 || s.DurationS <= 0 {
		return QueueOutcome{}
	}
	arr := rand.New(rand.NewPCG(s.Seed, 0x9e3779b97f4a7c15))
	arrivals := make([]float64, 0, int(s.Rate*s.DurationS*1.05)+16)
	// Piecewise-constant rate over each minute; a unit-rate Poisson
	// process mapped through the cumulative rate.
	hi, lo := s.Rate, s.Rate
	if b := s.Burst; b > 1 {
		b = min(b, 60.0/burstMinutes)
		hi = b * s.Rate
		lo = s.Rate * (60 - b*burstMinutes) / (60 - burstMinutes)
	}
	rateAt := func(minute int) float64 {
		// The burst minutes are spread over the hour: 0, 10, 20, ...
		if minute%(60/burstMinutes) == 0 {
			return hi
		}
		return lo
	}
	t, minute, left := 0.0, 0, arr.ExpFloat64()
	for t < s.DurationS {
		r := rateAt(minute)
		end := float64(minute+1) * 60
		if r > 0 && t+left/r < end {
			t += left / r
			left = arr.ExpFloat64()
			if t < s.DurationS {
				arrivals = append(arrivals, t)
			}
			continue
		}
		left -= (end - t) * r
		t = end
		minute++
	}
	return replay(arrivals, s, m, rand.New(rand.NewPCG(s.Seed, 0x2545f4914f6cdd1d)))
}

// ReplayQueue runs recorded arrival times (seconds, in order) through the
// box with the service draws given in order (cycled when fewer), without
// any randomness: the same list gives the same outcome.
func ReplayQueue(arrivals []float64, draws []ServiceDraw, s QueueSetup) QueueOutcome {
	if s.DurationS <= 0 && len(arrivals) > 0 {
		s.DurationS = arrivals[len(arrivals)-1]
	}
	return replay(arrivals, s, ServiceModel{Draws: draws}, nil)
}

// replay is the queue itself: first come first served over Slots slots.
// A request starts at the earliest time a slot is free after every
// earlier request that was served has started; one that would wait past
// the max age leaves the queue at that age (429), and one arriving to a
// full queue is refused at once. rng nil takes the draws in order.
func replay(arrivals []float64, s QueueSetup, m ServiceModel, rng *rand.Rand) QueueOutcome {
	var o QueueOutcome
	o.Arrivals = len(arrivals)
	if o.Arrivals == 0 || s.Slots <= 0 {
		o.Refused = o.Arrivals
		if o.Arrivals > 0 {
			o.RefusedShare = 1
		}
		return o
	}
	free := make(slotHeap, s.Slots) // when each slot is next free
	// Requests in the queue leave it, in order of arrival, at their start
	// or at their age limit; both sequences are nondecreasing, so two
	// FIFOs of leaving times hold the queue.
	var startQ, ageQ fifo
	waits := make([]float64, 0, len(arrivals))
	ttfts := make([]float64, 0, len(arrivals))
	busy, sumWait := 0.0, 0.0
	waited := 0
	next := 0
	draw := func() ServiceDraw {
		switch {
		case len(m.Draws) > 0 && rng == nil:
			d := m.Draws[next%len(m.Draws)]
			next++
			return d
		case len(m.Draws) > 0:
			return m.Draws[rng.IntN(len(m.Draws))]
		default:
			return ServiceDraw{E2E: rng.ExpFloat64() * m.ExpMeanS}
		}
	}
	age := s.MaxQueueAgeS
	size := s.QueueSize
	if s.Unbounded {
		age, size = math.Inf(1), math.MaxInt
	}
	for _, t := range arrivals {
		startQ.drop(t)
		ageQ.drop(t)
		d := draw()
		start := max(t, free[0])
		if start > t {
			if startQ.len()+ageQ.len() >= size {
				o.Refused++
				continue
			}
			if start-t > age {
				o.TimedOut++
				ageQ.push(t + age)
				continue
			}
			startQ.push(start)
			waited++
		}
		w := start - t
		free[0] = start + d.E2E
		free.down()
		busy += min(d.E2E, max(0, s.DurationS-start))
		sumWait += w
		waits = append(waits, w)
		ttfts = append(ttfts, w+d.TTFT)
	}
	o.Served = len(waits)
	n := float64(o.Arrivals)
	o.RefusedShare, o.TimedOutShare = float64(o.Refused)/n, float64(o.TimedOut)/n
	if o.Served > 0 {
		o.Waited = float64(waited) / float64(o.Served)
		o.MeanWait = sumWait / float64(o.Served)
		w := ranks(waits, 95, 99)
		c := ranks(ttfts, 50, 95, 99)
		o.WaitP95, o.WaitP99 = w[0], w[1]
		o.ClientTTFTP50, o.ClientTTFTP95, o.ClientTTFTP99 = c[0], c[1], c[2]
	}
	if s.DurationS > 0 {
		o.Utilisation = busy / (float64(s.Slots) * s.DurationS)
	}
	return o
}

// rankIndex is the index of the nearest-rank percentile p of n values.
func rankIndex(n int, p float64) int {
	i := int(math.Ceil(p/100*float64(n)-1e-9)) - 1
	return min(max(i, 0), n-1)
}

// ranks is the nearest-rank percentiles ps (ascending) of v, reordering
// v in place: a selection, not a sort, since the hour may hold 360,000
// requests.
func ranks(v []float64, ps ...float64) []float64 {
	out := make([]float64, len(ps))
	from := 0
	for n, p := range ps {
		i := rankIndex(len(v), p)
		out[n] = selectK(v[from:], i-from)
		from = i
	}
	return out
}

// selectK puts the k-th smallest value at v[k], smaller ones before it
// and larger after, and returns it (Hoare's selection, median of three).
func selectK(v []float64, k int) float64 {
	lo, hi := 0, len(v)-1
	for lo < hi {
		m := lo + (hi-lo)/2
		if v[m] < v[lo] {
			v[m], v[lo] = v[lo], v[m]
		}
		if v[hi] < v[lo] {
			v[hi], v[lo] = v[lo], v[hi]
		}
		if v[hi] < v[m] {
			v[hi], v[m] = v[m], v[hi]
		}
		pivot := v[m]
		i, j := lo, hi
		for i <= j {
			for v[i] < pivot {
				i++
			}
			for v[j] > pivot {
				j--
			}
			if i <= j {
				v[i], v[j] = v[j], v[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return v[k]
		}
	}
	return v[k]
}

// slotHeap is a min-heap of the times slots are next free.
type slotHeap []float64

func (h slotHeap) down() {
	i, n := 0, len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		if r := l + 1; r < n && h[r] < h[l] {
			l = r
		}
		if h[i] <= h[l] {
			return
		}
		h[i], h[l] = h[l], h[i]
		i = l
	}
}

// fifo is a queue of nondecreasing leaving times.
type fifo struct {
	v    []float64
	head int
}

func (f *fifo) push(t float64) { f.v = append(f.v, t) }
func (f *fifo) len() int       { return len(f.v) - f.head }

// drop removes the times at or before t.
func (f *fifo) drop(t float64) {
	for f.head < len(f.v) && f.v[f.head] <= t {
		f.head++
	}
	if f.head > 1024 && f.head*2 > len(f.v) {
		f.v = append(f.v[:0], f.v[f.head:]...)
		f.head = 0
	}
}

// ErlangC is the closed form for c servers, exponential service of rate mu
// per server and Poisson arrivals at lambda (lambda < c mu): the chance an
// arrival waits, and the mean wait, s.
func ErlangC(c int, lambda, mu float64) (pWait, meanWait float64) {
	a := lambda / mu
	rho := a / float64(c)
	if rho >= 1 {
		return 1, math.Inf(1)
	}
	// Erlang B by its recursion, then C from B.
	b := 1.0
	for k := 1; k <= c; k++ {
		b = a * b / (float64(k) + a*b)
	}
	pWait = b / (1 - rho*(1-b))
	meanWait = pWait / (float64(c)*mu - lambda)
	return pWait, meanWait
}

// percentileDraws makes n service draws from a row's percentiles when the
// file holds no per-request records: the inverse of a distribution
// through the known points (0 at the minimum, p50, p95, p99), TTFT and
// end-to-end at the same quantile, evenly spaced quantiles so the draws
// are the distribution itself, not a sample of it.
func percentileDraws(ttft, e2e Stat, n int) []ServiceDraw {
	tq := quantilePoints(ttft)
	eq := quantilePoints(e2e)
	if eq == nil {
		return nil
	}
	out := make([]ServiceDraw, n)
	for i := range out {
		q := (float64(i) + 0.5) / float64(n)
		out[i] = ServiceDraw{TTFT: interpQ(tq, q), E2E: interpQ(eq, q)}
	}
	return out
}

type qpoint struct{ q, v float64 }

// quantilePoints lists a Stat's known quantiles; the minimum is taken as
// half the median and the top as the p99 plus its rise from the p95.
func quantilePoints(s Stat) []qpoint {
	var pts []qpoint
	add := func(q float64, v *float64) {
		if v != nil {
			pts = append(pts, qpoint{q, *v})
		}
	}
	add(0.5, s.P50)
	add(0.95, s.P95)
	add(0.99, s.P99)
	if len(pts) == 0 {
		if s.Mean == nil {
			return nil
		}
		return []qpoint{{0, *s.Mean}, {1, *s.Mean}}
	}
	sort.Slice(pts, func(i, j int) bool { return pts[i].q < pts[j].q })
	first, last := pts[0], pts[len(pts)-1]
	lo := qpoint{0, first.v / 2}
	hi := qpoint{1, last.v}
	if len(pts) >= 2 {
		prev := pts[len(pts)-2]
		hi.v = last.v + (last.v-prev.v)*(1-last.q)/(last.q-prev.q)
	}
	return append(append([]qpoint{lo}, pts...), hi)
}

func interpQ(pts []qpoint, q float64) float64 {
	if pts == nil {
		return 0
	}
	for i := 1; i < len(pts); i++ {
		if q <= pts[i].q {
			a, b := pts[i-1], pts[i]
			if b.q == a.q {
				return b.v
			}
			return a.v + (b.v-a.v)*(q-a.q)/(b.q-a.q)
		}
	}
	return pts[len(pts)-1].v
}
