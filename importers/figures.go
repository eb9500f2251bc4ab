package importers

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"capplan/planner"
)

// maxFigure bounds every imported figure; larger values are refused as
// implausible (they come from corrupt files, not from load tests).
const maxFigure = 1e12

// rateTolerance is how far the achieved rate may be from the requested rate
// before a "rate-mismatch" warning (10 %).
const rateTolerance = 0.10

// builder fills one row, checking each figure and recording its path. The
// first bad figure is kept in err.
type builder struct {
	row *planner.Row
	err error
	// linear computes missing percentiles by linear interpolation (as
	// numpy does, and so vLLM for the percentiles it reports) instead of
	// nearest rank, so that computed and reported figures agree.
	linear bool
}

func newBuilder() *builder {
	return &builder{row: &planner.Row{Paths: map[string]string{}}}
}

// check validates a figure; name and path describe it in the error.
func (b *builder) check(name, path string, v float64) bool {
	if b.err != nil {
		return false
	}
	switch {
	case math.IsNaN(v):
		b.err = fmt.Errorf("%s (%s) is NaN", path, name)
	case math.IsInf(v, 0) || math.Abs(v) > maxFigure:
		b.err = fmt.Errorf("%s (%s) is implausibly large: %g", path, name, v)
	case v < 0:
		b.err = fmt.Errorf("%s (%s) is negative: %g", path, name, v)
	default:
		return true
	}
	return false
}

// countsAgree refuses request counts that contradict each other: more
// successes, or more successes, errors and incomplete requests together,
// than the requests the file says were attempted. Such a file is damaged
// or hand-edited; no count of it can be trusted.
func (b *builder) countsAgree() error {
	r := b.row
	if r.Attempted == nil {
		return nil
	}
	att := *r.Attempted
	where := func(name string) string {
		if p := r.Paths[name]; p != "" {
			return p
		}
		return name
	}
	if r.Successful != nil && *r.Successful > att {
		return fmt.Errorf("%s (%d successful) is more than %s (%d attempted): the request counts contradict each other", where("successful"), *r.Successful, where("attempted"), att)
	}
	sum, parts := 0, []string{}
	for _, c := range []struct {
		name string
		n    *int
	}{{"successful", r.Successful}, {"errored", r.Errored}, {"incomplete", r.Incomplete}} {
		if c.n != nil {
			sum += *c.n
			parts = append(parts, fmt.Sprintf("%d %s", *c.n, c.name))
		}
	}
	if sum > att {
		return fmt.Errorf("%s says %d requests were attempted but the file counts %s (%d): the request counts contradict each other", where("attempted"), att, strings.Join(parts, " + "), sum)
	}
	return nil
}

// fig sets *dst to n×scale when n is present, recording path under name.
func (b *builder) fig(dst **float64, name, path string, n num, scale float64) {
	if !n.set || !b.check(name, path, n.v) {
		return
	}
	v := n.v * scale
	*dst = &v
	b.row.Paths[name] = path
}

// count sets *dst to the whole number n when present.
func (b *builder) count(dst **int, name, path string, n num) {
	if !n.set || !b.check(name, path, n.v) {
		return
	}
	if n.v != math.Trunc(n.v) {
		b.err = fmt.Errorf("%s (%s) is not a whole number: %g", path, name, n.v)
		return
	}
	v := int(n.v)
	*dst = &v
	b.row.Paths[name] = path
}

// countInt sets *dst to v, recording where it came from.
func (b *builder) countInt(dst **int, name, path string, v int) {
	*dst = &v
	b.row.Paths[name] = path
}

// setF sets a computed or derived figure with a free-form provenance.
func (b *builder) setF(dst **float64, name, path string, v float64) {
	if !b.check(name, path, v) {
		return
	}
	*dst = &v
	b.row.Paths[name] = path
}

// statSrc names where the parts of one latency summary live.
type statSrc struct {
	mean, p50, p95, p99     num
	meanP, p50P, p95P, p99P string
}

// stat fills s from src scaled to seconds; key is the figure prefix
// ("ttft_s").
func (b *builder) stat(s *planner.Stat, key string, src statSrc, scale float64) {
	b.fig(&s.Mean, key+".mean", src.meanP, src.mean, scale)
	b.fig(&s.P50, key+".p50", src.p50P, src.p50, scale)
	b.fig(&s.P95, key+".p95", src.p95P, src.p95, scale)
	b.fig(&s.P99, key+".p99", src.p99P, src.p99, scale)
}

// computeStat fills the figures of s that are still nil from the samples
// (in seconds), by nearest rank: the p-th percentile is the value at
// position ceil(p/100 × n) of the sorted samples (1-based), with no
// interpolation; or, for a builder marked linear, by linear interpolation
// between the closest ranks, the method of the tool whose other
// percentiles sit beside it. It marks s.Computed when it filled any
// percentile.
func (b *builder) computeStat(s *planner.Stat, key, path string, samples []float64) {
	if len(samples) == 0 {
		return
	}
	sort.Float64s(samples)
	if s.Mean == nil {
		sum := 0.0
		for _, v := range samples {
			sum += v
		}
		b.setF(&s.Mean, key+".mean", "computed from "+path, sum/float64(len(samples)))
	}
	for _, p := range []struct {
		dst **float64
		q   float64
		k   string
	}{{&s.P50, 50, "p50"}, {&s.P95, 95, "p95"}, {&s.P99, 99, "p99"}} {
		if *p.dst == nil {
			if b.linear {
				b.setF(p.dst, key+"."+p.k, "computed (linear interpolation) from "+path, linearRank(samples, p.q))
			} else {
				b.setF(p.dst, key+"."+p.k, "computed (nearest rank) from "+path, nearestRank(samples, p.q))
			}
			s.Computed = true
		}
	}
	if s.N == 0 {
		s.N = len(samples)
	}
}

// nearestRank returns the p-th percentile of sorted samples by nearest rank.
func nearestRank(sorted []float64, p float64) float64 {
	n := len(sorted)
	r := int(math.Ceil(p / 100 * float64(n)))
	if r < 1 {
		r = 1
	}
	if r > n {
		r = n
	}
	return sorted[r-1]
}

// linearRank returns the p-th percentile of sorted samples by linear
// interpolation between the closest ranks: position p/100 × (n-1), 0-based.
func linearRank(sorted []float64, p float64) float64 {
	pos := p / 100 * float64(len(sorted)-1)
	lo := int(math.Floor(pos))
	if lo >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	return sorted[lo] + (pos-float64(lo))*(sorted[lo+1]-sorted[lo])
}

// warn adds a warning to the row.
func (b *builder) warn(code, format string, args ...any) {
	b.row.Warnings = append(b.row.Warnings, planner.Warning{Code: code, Message: fmt.Sprintf(format, args...)})
}

// finish adds the warnings every format shares and returns the row.
func (b *builder) finish() (planner.Row, error) {
	if b.err != nil {
		return planner.Row{}, b.err
	}
	r := b.row
	if r.Attempted != nil && *r.Attempted == 0 && r.Successful != nil && *r.Successful == 0 {
		return planner.Row{}, fmt.Errorf("zero requests in this load level")
	}
	if err := b.countsAgree(); err != nil {
		return planner.Row{}, err
	}
	b.noTokens()
	att, ok := intv(r.Attempted), intv(r.Successful)
	if r.Successful != nil {
		switch {
		case ok == 0:
			b.warn("no-successes", "no request succeeded at this load level: there are no latency figures")
		default:
			// The same rule as the objective's check: five samples beyond
			// the percentile. Without an objective, p95 is the one to ask.
			if w := planner.FewRequests(ok, 95); w != nil {
				b.row.Warnings = append(b.row.Warnings, *w)
			}
		}
	}
	b.unmeasuredRates()
	b.achievedRate()
	if r.Errored != nil && *r.Errored > 0 {
		b.warn("errors", "%d of %s requests errored", *r.Errored, ofTotal(att, r.Attempted != nil))
	}
	if r.Incomplete != nil && *r.Incomplete > 0 {
		b.warn("incomplete", "%d of %s requests were still in flight when the run ended (incomplete)", *r.Incomplete, ofTotal(att, r.Attempted != nil))
	}
	if w := rateMismatch(r); w != nil {
		r.Warnings = append(r.Warnings, *w)
	}
	b.ttfotApart()
	if r.IdenticalPrompts != nil && *r.IdenticalPrompts {
		b.warn("identical-prompts", "every listed request sent the same prompt: a prefix-cache best case, latencies may be optimistic")
	}
	if r.Successful == nil || ok > 0 {
		var miss []string
		for _, s := range []struct {
			name string
			st   *planner.Stat
			all  bool
		}{{"ttft_s", &r.TTFT, true}, {"e2e_s", &r.E2E, true}, {"itl_s", &r.ITL, false}, {"tpot_s", &r.TPOT, false}} {
			if !s.all && s.st.Mean == nil && s.st.P50 == nil && s.st.P95 == nil && s.st.P99 == nil {
				continue
			}
			var ps []string
			for _, p := range []struct {
				k string
				v *float64
			}{{"p50", s.st.P50}, {"p95", s.st.P95}, {"p99", s.st.P99}} {
				if p.v == nil {
					ps = append(ps, p.k)
				}
			}
			if len(ps) > 0 {
				miss = append(miss, s.name+" "+strings.Join(ps, "/"))
			}
		}
		if len(miss) > 0 {
			b.warn("percentile-missing", "not in the file and no per-request data to compute them: %s", strings.Join(miss, ", "))
		}
	}
	return *r, nil
}

// rateMismatch is the warning of a rate row whose successful requests
// came at a rate other than the one requested, nil when they agree.
func rateMismatch(r *planner.Row) *planner.Warning {
	if r.LoadKind != planner.LoadRate || r.Load == nil || *r.Load <= 0 || r.AchievedRate == nil {
		return nil
	}
	d := math.Abs(*r.AchievedRate-*r.Load) / *r.Load
	if d <= rateTolerance {
		return nil
	}
	msg := fmt.Sprintf("requested %s req/s but %s req/s succeeded (%.0f %% off)", fmtRate(*r.Load), fmtRate(*r.AchievedRate), d*100)
	if r.SendRate != nil && math.Abs(*r.SendRate-*r.AchievedRate) > 1e-9*math.Max(1, *r.AchievedRate) {
		msg += fmt.Sprintf("; requests were sent at %s req/s, failed ones included", fmtRate(*r.SendRate))
	}
	return &planner.Warning{Code: "rate-mismatch", Message: msg}
}

// unmeasuredRates drops the rates that cannot be measured: with a measured
// duration of zero, or with no request succeeded, a rate capplan would
// compute from the window is meaningless (8 failed requests in 5 ms are not
// 1,600 req/s of anything), so it is left out with a warning saying why.
// What the tool itself reported is kept when it is meaningful: a zero rate
// of successful requests or output tokens when none succeeded; a non-zero
// one contradicts the counts and is dropped too.
func (b *builder) unmeasuredRates() {
	r := b.row
	zeroDur := r.DurationS != nil && *r.DurationS <= 0
	noneOK := r.Successful != nil && *r.Successful == 0
	if !zeroDur && !noneOK {
		return
	}
	var dropped []string
	for _, f := range []struct {
		name, label string
		dst         **float64
		successes   bool // a rate of successful work
	}{
		{"request_rate", "request rate", &r.RequestRate, true},
		{"achieved_rate", "achieved rate", &r.AchievedRate, true},
		{"send_rate", "send rate", &r.SendRate, false},
		{"output_token_rate", "output token rate", &r.OutputTokenRate, true},
	} {
		if *f.dst == nil {
			continue
		}
		computed := strings.HasPrefix(r.Paths[f.name], "computed:")
		contradicts := noneOK && f.successes && **f.dst != 0
		if computed || contradicts {
			dropped = append(dropped, f.label)
			*f.dst = nil
			delete(r.Paths, f.name)
		}
	}
	if len(dropped) == 0 {
		return
	}
	why := "no request succeeded"
	if zeroDur {
		why = "the measured duration is 0 s"
	} else if r.DurationS != nil {
		why = fmt.Sprintf("no request succeeded in the %s s measured window", strconv.FormatFloat(*r.DurationS, 'g', 3, 64))
	}
	b.warn("rates-unmeasured", "%s: the %s cannot be measured and %s left out", why, strings.Join(dropped, " and "), plural(len(dropped), "is", "are"))
}

// achievedRate sets the achieved rate: the successful requests over the
// measured duration, which is the tool's own rate of successful requests
// where it reports one (docs/method.md, "Rows that count"). A send rate the format
// read (every request sent, failed ones included) stays beside it in
// SendRate. With no request succeeded there is no achieved rate.
func (b *builder) achievedRate() {
	r := b.row
	if r.AchievedRate != nil || r.Successful != nil && *r.Successful == 0 {
		return
	}
	switch {
	case r.RequestRate != nil:
		b.setF(&r.AchievedRate, "achieved_rate", r.Paths["request_rate"], *r.RequestRate)
	case r.Successful != nil && r.DurationS != nil && *r.DurationS > 0:
		b.setF(&r.AchievedRate, "achieved_rate", "computed: successful / duration_s", float64(*r.Successful) / *r.DurationS)
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func intv(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

func ofTotal(n int, known bool) string {
	if !known {
		return "an unknown number of"
	}
	return fmt.Sprint(n)
}

func boolp(v bool) *bool { return &v }

// ofig sets *dst from the number at o[key], path prefix+key.
func (b *builder) ofig(o jsonObj, prefix, key string, dst **float64, name string, scale float64) bool {
	v, err := o.n(prefix, key)
	if err != nil {
		if b.err == nil {
			b.err = err
		}
		return false
	}
	b.fig(dst, name, prefix+key, v, scale)
	return v.set
}

// ocount sets *dst from the whole number at o[key].
func (b *builder) ocount(o jsonObj, prefix, key string, dst **int, name string) bool {
	v, err := o.n(prefix, key)
	if err != nil {
		if b.err == nil {
			b.err = err
		}
		return false
	}
	b.count(dst, name, prefix+key, v)
	return v.set
}

// fmtRate writes a rate for a message: 1000, 12.5, 0.123.
func fmtRate(v float64) string {
	if math.Abs(v) >= 100 {
		return strconv.FormatFloat(math.Round(v), 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// noTokens applies "no tokens received" where the summary shows it: when
// the successful requests produced no output token at all (mean output
// tokens or output token rate 0), none of them succeeded, and their
// latency figures (often 0 s) measure nothing. Formats with per-request
// arrays apply the rule request by request before (honestCounts).
func (b *builder) noTokens() {
	r := b.row
	ok := intv(r.Successful)
	if ok == 0 {
		return
	}
	var src string
	switch {
	case r.OutputTokensMean != nil && *r.OutputTokensMean == 0:
		src = r.Paths["output_tokens_mean"]
	case r.OutputTokenRate != nil && *r.OutputTokenRate == 0 && r.DurationS != nil && *r.DurationS > 0:
		src = r.Paths["output_token_rate"]
	default:
		return
	}
	b.countInt(&r.Successful, "successful", "computed: no output tokens at all ("+src+" = 0)", 0)
	if r.Errored != nil {
		b.countInt(&r.Errored, "errored", "computed: "+r.Paths["errored"]+" + the requests counted as successful without output tokens", *r.Errored+ok)
	} else {
		b.countInt(&r.Errored, "errored", "computed: the requests counted as successful without output tokens; other failures are not recorded", ok)
	}
	r.TTFT, r.TTFOT, r.E2E, r.ITL, r.TPOT = planner.Stat{}, planner.Stat{}, planner.Stat{}, planner.Stat{}, planner.Stat{}
	r.OutputTokensMean, r.PromptTokensMean = nil, nil
	for k := range r.Paths {
		if strings.HasPrefix(k, "ttft") || strings.HasPrefix(k, "e2e_s") || strings.HasPrefix(k, "itl_s") || strings.HasPrefix(k, "tpot_s") || k == "output_tokens_mean" || k == "prompt_tokens_mean" {
			delete(r.Paths, k)
		}
	}
	b.warn("no-tokens", "the %d requests the tool counted as successful received no output tokens at all (%s = 0): no tokens received, so they count as failed and their latency figures are left out", ok, src)
}

// ttfotApart warns when the time to the first visible token is more than
// twice the TTFT: a reasoning model, whose users wait for its reasoning.
func (b *builder) ttfotApart() {
	r := b.row
	for _, p := range []struct {
		name string
		a, o *float64
	}{{"p95", r.TTFT.P95, r.TTFOT.P95}, {"p50", r.TTFT.P50, r.TTFOT.P50}, {"mean", r.TTFT.Mean, r.TTFOT.Mean}} {
		if p.a == nil || p.o == nil {
			continue
		}
		if *p.o > 2**p.a || *p.a > 2**p.o {
			b.warn("ttfot-differs", "%s time to first visible output token %s s is far from the %s TTFT %s s: the model reasons before it answers, and users wait for the visible answer; bound it with ttfot_%s in the objective", p.name, fmtRate(*p.o), p.name, fmtRate(*p.a), map[string]string{"p95": "p95", "p50": "p50", "mean": "p95"}[p.name])
		}
		return
	}
}
