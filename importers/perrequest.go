package importers

import (
	"fmt"
	"math"

	"capplan/planner"
)

// failedCount is the number of requests with a non-empty error.
func (q *perReq) failedCount() int {
	n := 0
	for _, f := range q.failed {
		if f {
			n++
		}
	}
	return n
}

// size returns the number of requests the arrays describe and whether the
// arrays that are present all have that length.
func (q *perReq) size() (n int, aligned bool) {
	aligned = true
	for _, a := range []struct {
		key string
		n   int
	}{{"ttfts", len(q.ttft)}, {"latencies", len(q.lat)}, {"e2els", len(q.lat)}, {"output_lens", len(q.out)}, {"itls", len(q.itlSum)}, {"errors", len(q.failed)}} {
		if !q.has[a.key] {
			continue
		}
		if n == 0 {
			n = a.n
		} else if a.n != n {
			aligned = false
			n = max(n, a.n)
		}
	}
	return n, aligned
}

// tokenCheck is what honestCounts found.
type tokenCheck struct {
	// recount: the tool counted requests without output tokens as
	// completed, so its latency summaries include them and are not used;
	// every latency figure comes from the per-request arrays.
	recount bool
	// ok marks, per request, a success that received tokens; nil when the
	// arrays cannot tell.
	ok []bool
}

// honestCounts applies the rule that a request which received no output
// token did not succeed ("no tokens received"), whatever the tool counted.
// It reads the per-request arrays (output_lens, or ttfts when the lengths
// are not written: a request with a first token has a TTFT above 0) or,
// without them, total_output_tokens = 0. The counts move from successful
// to errored, the request rate is recomputed from the successes, and the
// row is warned.
func honestCounts(bd *builder, o jsonObj, d doc, completedKey string) tokenCheck {
	r, p := bd.row, d.prefix
	var tc tokenCheck
	if r.Successful == nil || bd.err != nil {
		return tc
	}
	completed := *r.Successful
	zero, src := 0, ""
	if q := d.req; q != nil {
		n, aligned := q.size()
		tok, key := q.out, "output_lens"
		if !q.has["output_lens"] {
			tok, key = q.ttft, "ttfts"
		}
		if aligned && n > 0 && len(tok) == n && n >= completed {
			tc.ok = make([]bool, n)
			noTok := 0
			for i := range n {
				failed := q.has["errors"] && q.failed[i]
				got := tok[i] > 0 // false for NaN
				if !failed && !got {
					noTok++
				}
				tc.ok[i] = !failed && got
			}
			if !q.has["errors"] {
				noTok -= n - completed // the failed requests have no tokens either
			}
			zero, src = noTok, p+key
		}
	}
	if tc.ok == nil && completed > 0 {
		if t, _ := o.n(p, "total_output_tokens"); t.set && t.v == 0 {
			zero, src = completed, p+"total_output_tokens = 0"
		}
	}
	if zero <= 0 {
		return tc
	}
	zero = min(zero, completed)
	tc.recount = true
	ok := completed - zero
	bd.countInt(&r.Successful, "successful", fmt.Sprintf("computed: %s%s - requests without output tokens (%s)", p, completedKey, src), ok)
	if r.Errored != nil {
		bd.countInt(&r.Errored, "errored", fmt.Sprintf("computed: %s + requests without output tokens (%s)", r.Paths["errored"], src), *r.Errored+zero)
	} else {
		bd.countInt(&r.Errored, "errored", fmt.Sprintf("computed: requests without output tokens (%s); other failures are not recorded", src), zero)
	}
	if r.RequestRate != nil && r.DurationS != nil && *r.DurationS > 0 {
		bd.setF(&r.RequestRate, "request_rate", "computed: successful / "+p+"duration", float64(ok) / *r.DurationS)
	}
	bd.warn("no-tokens", "%d of the %d requests the tool counted as completed received no output tokens (no tokens received): they count as failed, and every latency figure comes from the %d requests that received tokens", zero, completed, ok)
	return tc
}

// perRequestStats computes from the per-request arrays (seconds) the
// latency figures the file does not report, or all of them after a
// recount, from the requests that succeeded: TTFT from ttfts, end-to-end
// from latencies or else TTFT + the sum of the request's inter-token gaps,
// TPOT per request as (end-to-end - TTFT)/(output tokens - 1), ITL from
// every gap, pooled.
func perRequestStats(bd *builder, d doc, tc tokenCheck) {
	r, p, q := bd.row, d.prefix, d.req
	ok := intv(r.Successful)
	defer func() {
		if r.TTFT.N == 0 && (r.TTFT.Mean != nil || r.TTFT.P50 != nil) {
			r.TTFT.N = ok
		}
		if r.E2E.N == 0 && (r.E2E.Mean != nil || r.E2E.P50 != nil) {
			r.E2E.N = ok
		}
		if r.TPOT.N == 0 && r.TPOT.Mean != nil {
			r.TPOT.N = ok
		}
	}()
	if q == nil {
		return
	}
	n, aligned := q.size()
	keep := func(i int) bool {
		if tc.ok != nil {
			return tc.ok[i]
		}
		return !(q.has["errors"] && i < len(q.failed) && q.failed[i])
	}
	val := func(key string, a []float64, i int) (float64, bool) {
		if i >= len(a) || math.IsNaN(a[i]) {
			return 0, false
		}
		return a[i], bd.check(key, fmt.Sprintf("%s%s[%d]", p, key, i), a[i])
	}
	var ttft, e2e, tpot []float64
	e2ePath := p + "latencies"
	if q.has["e2els"] {
		e2ePath = p + "e2els"
	}
	fromITL := !q.has["latencies"] && !q.has["e2els"] && q.has["itls"] && q.has["ttfts"] && aligned
	if fromITL {
		e2ePath = p + "ttfts + sum of " + p + "itls per request"
	}
	for i := 0; i < n && bd.err == nil; i++ {
		if !keep(i) {
			continue
		}
		t, hasT := val("ttfts", q.ttft, i)
		if hasT {
			ttft = append(ttft, t)
		}
		var e float64
		var hasE bool
		if fromITL {
			e, hasE = t+q.itlSum[i], hasT
		} else {
			e, hasE = val("latencies", q.lat, i)
		}
		if hasE {
			e2e = append(e2e, e)
		}
		if out, has := val("output_lens", q.out, i); has && aligned && hasT && hasE && out > 1 {
			tpot = append(tpot, (e-t)/(out-1))
		}
	}
	var gaps []float64
	if q.has["itls"] && !q.gapsOver {
		// the gaps of the kept requests, compacted in place
		at, n := 0, 0
		for i, c := range q.itlN {
			if keep(i) {
				for _, g := range q.gaps[at : at+int(c)] {
					if bd.check("itls", p+"itls", g) {
						q.gaps[n] = g
						n++
					}
				}
			}
			at += int(c)
		}
		gaps = q.gaps[:n]
	}
	if bd.err != nil {
		return
	}
	if len(ttft) > 0 {
		bd.computeStat(&r.TTFT, "ttft_s", p+"ttfts", ttft)
		r.TTFT.N = len(ttft)
	}
	if len(e2e) > 0 {
		bd.computeStat(&r.E2E, "e2e_s", e2ePath, e2e)
		r.E2E.N = len(e2e)
	}
	if len(tpot) > 0 && (tc.recount || r.TPOT.Mean == nil && r.TPOT.P50 == nil) {
		bd.computeStat(&r.TPOT, "tpot_s", "(end-to-end - "+p+"ttfts)/("+p+"output_lens - 1) per request", tpot)
		r.TPOT.N = len(tpot)
	}
	if len(gaps) > 0 {
		bd.computeStat(&r.ITL, "itl_s", p+"itls", gaps)
		r.ITL.N = len(gaps)
	}
}

// perRequestSamples puts one planner.Sample per request of the arrays on
// the row (all requests, failed ones with OK false), when the arrays line
// up. A failed request's placeholder 0 s is not a figure.
func perRequestSamples(bd *builder, d doc, tc tokenCheck) {
	q := d.req
	if q == nil || bd.err != nil {
		return
	}
	n, aligned := q.size()
	if !aligned || n == 0 {
		return
	}
	fig := func(a []float64, i int, ok bool) float32 {
		if i >= len(a) || math.IsNaN(a[i]) || a[i] < 0 || a[i] > maxFigure || !ok && a[i] == 0 {
			return planner.NoFigure
		}
		return float32(a[i])
	}
	fromITL := !q.has["latencies"] && !q.has["e2els"] && q.has["itls"] && q.has["ttfts"]
	out := make([]planner.Sample, n)
	for i := range n {
		ok := !(q.has["errors"] && q.failed[i])
		if tc.ok != nil {
			ok = tc.ok[i]
		}
		s := planner.Sample{TTFT: fig(q.ttft, i, ok), E2E: fig(q.lat, i, ok), ITL: planner.NoFigure, OutputTokens: -1, OK: ok}
		if fromITL && planner.Has(s.TTFT) {
			s.E2E = s.TTFT + float32(q.itlSum[i])
		}
		if i < len(q.out) && q.out[i] >= 0 && q.out[i] <= math.MaxInt32 {
			s.OutputTokens = int32(q.out[i])
		}
		out[i] = s
	}
	bd.row.Samples = out
}
