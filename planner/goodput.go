package planner

import (
	"fmt"
	"strings"
)

// Goodput is what a row's own requests say about its capacity: of its
// measured requests with per-request records, how many succeeded within
// every latency bound of the objective, each on its own (docs/method.md,
// "Capacity per box"). At a p95 bound up to 5 % of a passing row's successful
// requests may miss the bound; goodput leaves them out of the denominator
// of cost per 1,000 successful in-objective requests.
type Goodput struct {
	// Requests is the measured requests on record; Good those that
	// succeeded within every latency bound; Share is Good / Requests.
	Requests int     `json:"requests"`
	Good     int     `json:"good"`
	Share    float64 `json:"share"`
	// Failed counts the requests that did not succeed; Missed the
	// successful ones that missed a bound, by bound label ("TTFT", ...).
	Failed int            `json:"failed"`
	Missed map[string]int `json:"missed"`
	// Bounds names the bounds checked, e.g. "TTFT within 2 s, end-to-end within 15 s".
	Bounds string `json:"bounds"`
}

// CountGoodput counts the samples that succeeded within every latency
// bound of o. Errored and incomplete requests are in the denominator, as
// errors are in the success rate. ok is false, with why, when there are
// no samples or the samples lack a figure a bound needs (then nothing is
// counted rather than a guess).
func CountGoodput(samples []Sample, o Objective) (g Goodput, ok bool, why string) {
	if len(samples) == 0 {
		return g, false, "the file holds no per-request records"
	}
	type bound struct {
		label string
		max   float64
		value func(Sample) (float64, bool)
	}
	var bs []bound
	if o.TTFTMax != nil {
		bs = append(bs, bound{"TTFT", *o.TTFTMax, func(s Sample) (float64, bool) { return float64(s.TTFT), Has(s.TTFT) }})
	}
	if o.E2EMax != nil {
		bs = append(bs, bound{"end-to-end", *o.E2EMax, func(s Sample) (float64, bool) { return float64(s.E2E), Has(s.E2E) }})
	}
	if o.TPOTMax != nil {
		bs = append(bs, bound{"TPOT", *o.TPOTMax, Sample.InterToken})
	}
	if o.ITLMax != nil {
		bs = append(bs, bound{"ITL", *o.ITLMax, Sample.InterToken})
	}
	var names []string
	for _, b := range bs {
		names = append(names, fmt.Sprintf("%s within %s s", b.label, fmtNum(b.max)))
	}
	g = Goodput{Requests: len(samples), Missed: map[string]int{}, Bounds: strings.Join(names, ", ")}
	for _, s := range samples {
		if !s.OK {
			g.Failed++
			continue
		}
		good := true
		for _, b := range bs {
			v, known := b.value(s)
			if !known {
				return Goodput{}, false, fmt.Sprintf("the per-request records lack the %s a bound needs", b.label)
			}
			if v > b.max {
				g.Missed[b.label]++
				good = false
			}
		}
		if good {
			g.Good++
		}
	}
	g.Share = float64(g.Good) / float64(g.Requests)
	return g, true, ""
}

// InObjective is what a row serves within the objective (docs/method.md,
// "Capacity per box"): its successful request rate (SuccessfulRate) times
// the share of its successful requests that met every latency bound, from
// its per-request records. Without records every success counts: Rate is
// then the successful rate and UpperBound says so, with Why.
type InObjective struct {
	// SuccessfulRate is the row's successful req/s; Rate its successful
	// in-objective req/s; Share the in-objective share of its successes.
	// All nil when the row lacks its rate.
	SuccessfulRate *float64
	Rate           *float64
	Share          *float64
	// Goodput is the count behind Share, nil without per-request records.
	Goodput    *Goodput
	UpperBound bool
	Why        string
}

// RowInObjective computes a row's InObjective: the one formula that both a
// matrix row's in-objective rate and the capacity per box (PerBoxCapacity)
// read, so failures are never subtracted twice.
func RowInObjective(r Row, o Objective) InObjective {
	var in InObjective
	rate := SuccessfulRate(r)
	if rate == nil {
		in.Why = "the row lacks its request rate or success rate"
		return in
	}
	in.SuccessfulRate = F(*rate)
	g, ok, why := CountGoodput(r.Samples, o)
	if ok && g.Requests-g.Failed <= 0 {
		ok, why = false, "no request on record succeeded"
	}
	if !ok {
		in.Rate, in.Share, in.UpperBound, in.Why = F(*rate), F(1), true, why
		return in
	}
	share := float64(g.Good) / float64(g.Requests-g.Failed)
	in.Goodput, in.Share, in.Rate = &g, F(share), F(*rate*share)
	return in
}
