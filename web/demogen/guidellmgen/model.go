package guidellmgen

import (
	"math"
	"math/rand"
	"sort"
)

// request is one simulated request (times in epoch seconds).
type request struct {
	start, first, end float64
	promptTok, outTok int
	status            int // 0 successful, 1 errored, 2 incomplete
}

const (
	statusOK = iota
	statusErr
	statusIncomplete
)

// epoch is the start of the first benchmark (2026-01-05T09:00:00Z).
const epoch = 1767603600.0

// simulate returns the requests of one load level, starting at t0.
func simulate(rng *rand.Rand, c Config, load float64, n int, t0 float64) []request {
	over := math.Max(0, load-c.Saturation)
	ttftBase := 0.08 + 0.03*load + 6*over // seconds
	tokBase := 0.02 * (1 + 0.08*load)     // seconds per output token
	errP := 0.0
	if over > 0 {
		errP = 0.02
	}
	streams := int(math.Max(1, math.Round(load)))
	next := make([]float64, streams)
	for i := range next {
		next[i] = t0
	}
	reqs := make([]request, n)
	for i := range reqs {
		var start float64
		if c.Kind == Rate {
			start = t0 + float64(i)/load
		} else {
			s := i % streams
			start = next[s]
		}
		ttft := ttftBase * math.Exp(rng.NormFloat64()*0.25)
		out := c.OutputTokens - rng.Intn(c.OutputTokens/8+1)
		perTok := tokBase * math.Exp(rng.NormFloat64()*0.08)
		end := start + ttft + float64(out-1)*perTok
		r := request{start: start, first: start + ttft, end: end, promptTok: c.PromptTokens - rng.Intn(c.PromptTokens/16+1), outTok: out}
		if rng.Float64() < errP {
			r.status, r.outTok, r.end, r.first = statusErr, 0, start+ttft, 0
		}
		if c.Kind != Rate {
			next[i%streams] = r.end + 0.001
		}
		reqs[i] = r
	}
	// overloaded: the last request is cut by the end of the run
	if over > 0 && n > 4 {
		reqs[n-1].status = statusIncomplete
	}
	return reqs
}

// dist is a GuideLLM distribution summary of values (nearest rank).
type dist struct {
	mean, median, mode, variance, std, min, max, sum float64
	count                                            int
	pct                                              [11]float64 // p001 p01 p05 p10 p25 p50 p75 p90 p95 p99 p999
}

var pctQ = [11]float64{0.1, 1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9}
var pctK = [11]string{"p001", "p01", "p05", "p10", "p25", "p50", "p75", "p90", "p95", "p99", "p999"}

func summarize(v []float64) dist {
	var d dist
	if len(v) == 0 {
		return d
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	d.count = len(s)
	for _, x := range s {
		d.sum += x
	}
	d.mean = d.sum / float64(d.count)
	for _, x := range s {
		d.variance += (x - d.mean) * (x - d.mean)
	}
	d.variance /= float64(d.count)
	d.std = math.Sqrt(d.variance)
	d.min, d.max, d.mode = s[0], s[len(s)-1], s[0]
	for i, q := range pctQ {
		r := int(math.Ceil(q / 100 * float64(len(s))))
		if r < 1 {
			r = 1
		}
		d.pct[i] = s[r-1]
	}
	d.median = d.pct[5]
	return d
}
