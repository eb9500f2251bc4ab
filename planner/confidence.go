package planner

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Confidence in a verdict (docs/method.md, "Confidence"): with a row's
// per-request records, each percentile the objective bounds gets
// distribution-free confidence bounds from the order statistics of its
// successful requests. Of n samples sorted x(1) <= ... <= x(n), x(k) is an
// upper bound of the p-quantile with confidence P(Binomial(n, p) <= k-1)
// and a lower bound with confidence P(Binomial(n, p) >= k). Nothing is
// assumed about the shape of the distribution. The success rate gets its
// exact (Clopper-Pearson) interval.

// DefaultConfidence is the confidence level of the bounds when the
// contract does not set one: 95 %.
const DefaultConfidence = 0.95

// ConfidenceOrDefault is the contract's confidence level, else 95 %.
func (c Contract) ConfidenceOrDefault() float64 {
	if c.Confidence > 0 && c.Confidence < 1 {
		return c.Confidence
	}
	return DefaultConfidence
}

// maxSettle is the most requests a next run is ever proposed with; beyond
// it the observed percentile sits at the bound and no run settles it.
const maxSettle = 10_000_000

// binomTail is P(Binomial(n, p) >= k), by the regularised incomplete beta
// function I_p(k, n-k+1).
func binomTail(n, k int, p float64) float64 {
	switch {
	case k <= 0:
		return 1
	case k > n:
		return 0
	}
	return incBeta(float64(k), float64(n-k+1), p)
}

// UpperOrder is the smallest k (1-based) such that the k-th smallest of n
// samples is an upper bound of the p-quantile (p a fraction) with at least
// the confidence conf: P(Binomial(n, p) <= k-1) >= conf. ok is false when
// no order statistic is one (n too small: the slowest of 40 is not a 95 %
// upper bound of the p95). n = 59 gives 59 for p = 0.95, conf = 0.95
// (0.95^59 = 0.0485); n = 100 gives 99, n = 200 gives 196.
func UpperOrder(n int, p, conf float64) (k int, ok bool) {
	if n <= 0 || !(p > 0 && p < 1) {
		return 0, false
	}
	if binomTail(n, n, p) > 1-conf { // even the slowest is not
		return 0, false
	}
	lo, hi := 1, n // binomTail(n, k, p) falls as k rises
	for lo < hi {
		mid := (lo + hi) / 2
		if binomTail(n, mid, p) <= 1-conf {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo, true
}

// LowerOrder is the largest k such that the k-th smallest of n samples is
// a lower bound of the p-quantile with at least the confidence conf:
// P(Binomial(n, p) >= k) >= conf. ok is false when none is.
func LowerOrder(n int, p, conf float64) (k int, ok bool) {
	if n <= 0 || !(p > 0 && p < 1) {
		return 0, false
	}
	if binomTail(n, 1, p) < conf {
		return 0, false
	}
	lo, hi := 1, n
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if binomTail(n, mid, p) >= conf {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo, true
}

// MinSamplesForBound is the fewest samples with which any order statistic
// is an upper bound of the p-quantile at confidence conf: the n where
// p^n <= 1 - conf. 59 for a p95 at 95 %, 299 for a p99.
func MinSamplesForBound(p, conf float64) int {
	if !(p > 0 && p < 1) || !(conf > 0 && conf < 1) {
		return 0
	}
	return int(math.Ceil(math.Log(1-conf)/math.Log(p) - 1e-9))
}

// PercentileBound is one objective percentile of a row with its
// confidence bounds, from the row's per-request records.
type PercentileBound struct {
	// Criterion and Label as in Check ("e2e", "p95 end-to-end").
	Criterion string `json:"criterion"`
	Label     string `json:"label"`
	// Limit is the objective's bound, in seconds.
	Limit float64 `json:"limit_s"`
	// N is the successful requests the bounds are computed from.
	N int `json:"n"`
	// Lower and Upper are the bounds, in seconds, nil where no order
	// statistic is one at the confidence (too few samples); LowerK and
	// UpperK are their ranks among the N sorted samples (1-based).
	Lower  *float64 `json:"lower_s"`
	LowerK int      `json:"lower_k,omitempty"`
	Upper  *float64 `json:"upper_s"`
	UpperK int      `json:"upper_k,omitempty"`
	// Confidence is the level of each one-sided bound (0.95).
	Confidence float64 `json:"confidence"`
	// Verdict is "pass" when Upper is within Limit, "fail" when Lower is
	// beyond it, else "inconclusive".
	Verdict string `json:"verdict"`
	// Settle is how many successful requests would settle an
	// inconclusive verdict at the observed spread (nil when it is settled,
	// or when no number would: the observed percentile sits at the bound).
	Settle *int `json:"settle,omitempty"`
	// Text says it in a sentence: "p95 end-to-end: 95 % upper bound 12.1 s
	// (the 99th of 100) <= 15 s: a conclusive pass".
	Text string `json:"text"`
}

// Conclusive verdicts of a bound.
const (
	BoundPass         = "pass"
	BoundFail         = "fail"
	BoundInconclusive = "inconclusive"
)

// BoundPercentile computes the confidence bounds of the p-quantile (p in
// percent, 95) of values (any order; copied) against limit, at confidence
// conf. With no values it returns ok false.
func BoundPercentile(values []float64, p, limit, conf float64) (b PercentileBound, ok bool) {
	n := len(values)
	if n == 0 {
		return b, false
	}
	v := append([]float64(nil), values...)
	sort.Float64s(v)
	q := p / 100
	b = PercentileBound{Limit: limit, N: n, Confidence: conf, Verdict: BoundInconclusive}
	if k, ok := UpperOrder(n, q, conf); ok {
		b.Upper, b.UpperK = F(v[k-1]), k
	}
	if k, ok := LowerOrder(n, q, conf); ok {
		b.Lower, b.LowerK = F(v[k-1]), k
	}
	switch {
	case b.Upper != nil && *b.Upper <= limit:
		b.Verdict = BoundPass
	case b.Lower != nil && *b.Lower > limit:
		b.Verdict = BoundFail
	default:
		within := sort.Search(n, func(i int) bool { return v[i] > limit }) // samples <= limit
		if s, ok := settleN(n, within, q, conf); ok {
			b.Settle = I(s)
		}
	}
	return b, true
}

// settleN is the fewest successful requests that would settle a verdict
// whose n samples have within of them at or below the limit, if more
// requests kept that spread: an upper bound within the limit when the
// observed quantile is (within/n >= p), else a lower bound beyond it. ok
// is false when the observed quantile sits at the limit or no number up to
// maxSettle would do.
func settleN(n, within int, q, conf float64) (int, bool) {
	f := float64(within) / float64(n)
	var good func(m int) bool
	switch {
	case f > q:
		good = func(m int) bool {
			k, ok := UpperOrder(m, q, conf)
			return ok && k <= int(math.Floor(f*float64(m)+1e-9))
		}
	case f < q:
		good = func(m int) bool {
			k, ok := LowerOrder(m, q, conf)
			return ok && k > int(math.Floor(f*float64(m)+1e-9))
		}
	default:
		return 0, false
	}
	lo, hi := 1, 1
	for !good(hi) {
		if hi >= maxSettle {
			return 0, false
		}
		lo, hi = hi, min(hi*2, maxSettle)
	}
	for lo < hi { // the smallest good m in (lo, hi]
		mid := (lo + hi) / 2
		if good(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return hi, true
}

// boundText says a bound in a sentence.
func (b *PercentileBound) describe(p float64) {
	conf := fmtPct(b.Confidence)
	upper := "no " + conf + " upper bound from " + countText(b.N) + fmt.Sprintf(" (a p%s needs %d)", fmtNum(p), MinSamplesForBound(p/100, b.Confidence))
	if b.Upper != nil {
		upper = fmt.Sprintf("%s upper bound %s s (the %s of %d)", conf, fmtNum(roundSig(*b.Upper, 4)), rankText(b.UpperK), b.N)
	}
	lower := ""
	if b.Lower != nil {
		lower = fmt.Sprintf(", lower bound %s s", fmtNum(roundSig(*b.Lower, 4)))
	}
	b.Text = fmt.Sprintf("%s: %s%s, bound %s s: ", b.Label, upper, lower, fmtNum(b.Limit))
	switch b.Verdict {
	case BoundPass:
		b.Text += "a conclusive pass"
	case BoundFail:
		b.Text += "a conclusive failure"
	default:
		b.Text += "inconclusive"
		if b.Settle != nil {
			b.Text += fmt.Sprintf("; about %d successful requests at this spread would settle it", *b.Settle)
		} else {
			b.Text += "; the observed percentile sits at the bound, no number of requests at this spread settles it"
		}
	}
}

func countText(n int) string { return fmt.Sprintf("%d %s", n, plural(n, "request", "requests")) }

// rankText writes a rank in figures: 1st, 2nd, 3rd, 99th, 196th.
func rankText(k int) string {
	suffix := "th"
	if k%100 < 11 || k%100 > 13 {
		switch k % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return fmt.Sprintf("%d%s", k, suffix)
}

// Interval is a two-sided confidence interval of a fraction.
type Interval struct {
	Lower      float64 `json:"lower"`
	Upper      float64 `json:"upper"`
	Confidence float64 `json:"confidence"`
	// Text reads "95 % CI 91.2 % to 100 %".
	Text string `json:"text"`
}

// ClopperPearson is the exact two-sided interval of a success rate of
// successes out of n at confidence conf: the rates p at which seeing as
// few (or as many) successes has probability at least (1-conf)/2.
// 40 of 40 at 95 % is 91.19 % to 100 %.
func ClopperPearson(successes, n int, conf float64) (Interval, bool) {
	if n <= 0 || successes < 0 || successes > n || !(conf > 0 && conf < 1) {
		return Interval{}, false
	}
	a := (1 - conf) / 2
	iv := Interval{Lower: 0, Upper: 1, Confidence: conf}
	if successes > 0 { // P(Bin(n, p) >= s) = a
		iv.Lower = bisect(func(p float64) bool { return binomTail(n, successes, p) < a })
	}
	if successes < n { // P(Bin(n, p) <= s) = a
		iv.Upper = bisect(func(p float64) bool { return 1-binomTail(n, successes+1, p) > a })
	}
	iv.Text = fmt.Sprintf("%s CI %s to %s", fmtPct(conf), fmtPct(roundSig(iv.Lower, 4)), fmtPct(roundSig(iv.Upper, 4)))
	return iv, true
}

// bisect finds the p in [0, 1] where below(p) turns from true to false.
func bisect(below func(float64) bool) float64 {
	lo, hi := 0.0, 1.0
	for range 100 {
		mid := (lo + hi) / 2
		if below(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// incBeta is the regularised incomplete beta function I_x(a, b), by its
// continued fraction (modified Lentz), on the side where it converges.
func incBeta(a, b, x float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	la, _ := math.Lgamma(a)
	lb, _ := math.Lgamma(b)
	lab, _ := math.Lgamma(a + b)
	front := math.Exp(lab - la - lb + a*math.Log(x) + b*math.Log1p(-x))
	if x < (a+1)/(a+b+2) {
		return front * betaFraction(a, b, x) / a
	}
	return 1 - front*betaFraction(b, a, 1-x)/b
}

func betaFraction(a, b, x float64) float64 {
	const tiny, eps = 1e-300, 1e-15
	qab, qap, qam := a+b, a+1, a-1
	c, d := 1.0, 1-qab*x/qap
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1; m <= 100000; m++ {
		fm := float64(m)
		m2 := 2 * fm
		aa := fm * (b - fm) * x / ((qam + m2) * (a + m2))
		d = 1 + aa*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		h *= d * c
		aa = -(a + fm) * (qab + fm) * x / ((a + m2) * (qap + m2))
		d = 1 + aa*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < eps {
			break
		}
	}
	return h
}

// RowBounds computes the confidence bounds of every percentile the
// objective bounds, from the row's successful per-request records, at the
// confidence conf. summary lists the bounded figures the records do not
// hold (TTFOT), or all of them when the row has no records: their
// evidence is judged by the request count (MinRequestsFor), because a
// bound cannot be computed from a summary.
func RowBounds(r Row, o Objective, conf float64) (bounds []PercentileBound, summary []string) {
	pct := "p" + fmtNum(o.Percentile)
	ok := 0
	for _, s := range r.Samples {
		if s.OK {
			ok++
		}
	}
	for _, b := range []struct {
		criterion, label string
		bound            *float64
		value            func(Sample) (float64, bool)
	}{
		{"ttft", "TTFT", o.TTFTMax, func(s Sample) (float64, bool) { return float64(s.TTFT), Has(s.TTFT) }},
		{"ttfot", "TTFOT (first visible token)", o.TTFOTMax, nil},
		{"e2e", "end-to-end", o.E2EMax, func(s Sample) (float64, bool) { return float64(s.E2E), Has(s.E2E) }},
		{"tpot", "TPOT", o.TPOTMax, Sample.InterToken},
		{"itl", "ITL", o.ITLMax, Sample.InterToken},
	} {
		if b.bound == nil {
			continue
		}
		label := pct + " " + b.label
		if b.criterion == "tpot" {
			label = pct + " " + tpotCriterionLabel(o)
		}
		var vals []float64
		if b.value != nil && ok > 0 {
			vals = make([]float64, 0, ok)
			for _, s := range r.Samples {
				if !s.OK {
					continue
				}
				v, known := b.value(s)
				if !known {
					vals = nil
					break
				}
				vals = append(vals, v)
			}
		}
		pb, computed := BoundPercentile(vals, o.Percentile, *b.bound, conf)
		if !computed {
			summary = append(summary, label)
			continue
		}
		pb.Criterion, pb.Label = b.criterion, label
		pb.describe(o.Percentile)
		bounds = append(bounds, pb)
	}
	return bounds, summary
}

// SummaryBoundNote says why a row has no confidence bound.
const SummaryBoundNote = "a confidence bound cannot be computed from a summary: the request count rule applies"

// fillConfidence states how sure the row's verdict is: the confidence
// bounds of its percentiles (or why there are none) and the interval of
// its success rate. A tool's own "few-requests" warning gives way to the
// bounds where the row has per-request records.
func (rr *RowResult) fillConfidence(c Contract) {
	conf := c.ConfidenceOrDefault()
	var summary []string
	rr.Bounds, summary = RowBounds(rr.Row, c.Objective, conf)
	switch {
	case len(summary) > 0 && len(rr.Bounds) > 0:
		rr.BoundsNote = "the per-request records lack " + strings.Join(summary, ", ") + ": for " + plural(len(summary), "it", "them") + " the request count rule applies"
	case len(summary) > 0:
		rr.BoundsNote = SummaryBoundNote
	}
	if len(rr.Bounds) > 0 {
		// With records the bounds say whether the requests were few: the
		// warning stays, in their words, only while one is open.
		var open []string
		for _, b := range rr.Bounds {
			if b.Verdict == BoundInconclusive {
				open = append(open, b.Text)
			}
		}
		ws := rr.Warnings[:0:0]
		for _, w := range rr.Warnings {
			switch {
			case w.Code != "few-requests":
				ws = append(ws, w)
			case len(open) > 0:
				ws = append(ws, Warning{Code: w.Code, Message: strings.Join(open, "; ")})
			}
		}
		rr.Warnings = ws
	}
	if r := rr.Row; r.Successful != nil && r.Errored != nil {
		if iv, ok := ClopperPearson(*r.Successful, *r.Successful+*r.Errored, conf); ok {
			rr.SuccessInterval = &iv
		}
	}
}

// ConfidenceText says how sure a row's verdict is, in words: each bound's
// sentence and the success rate's interval, or why there is no bound.
// The command line and the workbook say it alike.
func (rr RowResult) ConfidenceText() string {
	var parts []string
	for _, b := range rr.Bounds {
		parts = append(parts, b.Text)
	}
	if rr.BoundsNote != "" {
		parts = append(parts, rr.BoundsNote)
	}
	if rr.SuccessInterval != nil {
		parts = append(parts, "success rate "+rr.SuccessInterval.Text)
	}
	return strings.Join(parts, "; ")
}

// EvidenceRule says the rule by which a row is adequate evidence for its
// verdict at the objective's percentile p (docs/method.md, "Admission"):
// with per-request records, the distribution-free upper bound of each
// bounded percentile at the contract's confidence lies within the
// objective's bound (a failing row: a lower bound beyond it); from a
// summary, at least 5 / (1 - p) completed requests, because a bound
// cannot be computed from a summary.
func EvidenceRule(c Contract) string {
	p := c.Objective.Percentile
	return fmt.Sprintf("with per-request records, the p%s's %s upper bound within the objective's bound (a failing row: its lower bound beyond it); from a summary, %d or more requests (five beyond the p%s: a confidence bound cannot be computed from a summary)",
		fmtNum(p), fmtPct(c.ConfidenceOrDefault()), MinRequestsFor(p), fmtNum(p))
}

// EvidenceShortfall says why a row is not adequate evidence for its
// verdict by EvidenceRule, "" when it is. what names the row in the
// sentence ("the ceiling row"). A passing row needs every bounded
// percentile's upper bound within its bound; a failing row needs its
// failure conclusive: a percentile whose lower bound is beyond its bound,
// or no percentile left open (it failed on something else). Figures the
// records lack (and every figure of a summary-only row) fall back on the
// request count rule.
func (rr RowResult) EvidenceShortfall(c Contract, what string) string {
	p := c.Objective.Percentile
	var open []string
	fails := false
	for _, b := range rr.Bounds {
		switch b.Verdict {
		case BoundFail:
			fails = true
		case BoundInconclusive:
			open = append(open, b.Text)
		}
	}
	pass := rr.Verdict.State == VerdictPass
	var why []string
	if len(open) > 0 && (pass || !fails) {
		why = append(why, what+"'s "+strings.Join(open, "; "))
	}
	if len(rr.Bounds) == 0 || rr.BoundsNote != "" {
		need := MinRequestsFor(p)
		if n := completed(rr.Row); n != nil && *n < need {
			s := fmt.Sprintf("%s completed %d requests, fewer than %d (five beyond the p%s", what, *n, need, fmtNum(p))
			if len(rr.Bounds) == 0 {
				s += "; a confidence bound cannot be computed from a summary)"
			} else {
				s += " for the figures its records lack)"
			}
			why = append(why, s)
		}
	}
	return strings.Join(why, "; ")
}
