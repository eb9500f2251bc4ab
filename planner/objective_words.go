package planner

import (
	"strings"
)

// Sentence is the objective in words, for a reader who does not know its
// syntax (docs/method.md, "Objective"): "99 % of requests succeed; 95 % of
// first tokens within 2 s; 95 % of whole answers within 10 s; ...; at
// least 10 % of device memory left free at peak; no out-of-memory error".
// It states the same bounds as String, in the same order; "" for an
// objective not yet written.
func (o Objective) Sentence() string {
	if o.Empty() {
		return ""
	}
	pct := func(f float64) string { return strings.TrimSuffix(fmtPercent(f), "%") + " %" }
	p := fmtNum(o.Percentile) + " %"
	dur := func(s float64) string {
		d := fmtDuration(s)
		if strings.HasSuffix(d, "ms") {
			return strings.TrimSuffix(d, "ms") + " ms"
		}
		return strings.TrimSuffix(d, "s") + " s"
	}
	terms := []string{pct(o.MinSuccess) + " of requests succeed"}
	if o.TTFTMax != nil {
		terms = append(terms, p+" of first tokens within "+dur(*o.TTFTMax))
	}
	if o.TTFOTMax != nil {
		terms = append(terms, p+" of first visible tokens (after reasoning) within "+dur(*o.TTFOTMax))
	}
	if o.E2EMax != nil {
		terms = append(terms, p+" of whole answers within "+dur(*o.E2EMax))
	}
	if o.TPOTMax != nil {
		if o.TPOTAsSpeed {
			terms = append(terms, p+" of answers stream at least "+fmtSpeed(OutputSpeed(*o.TPOTMax))+" tokens a second to each user")
		} else {
			terms = append(terms, p+" of answers take at most "+dur(*o.TPOTMax)+" per output token")
		}
	}
	if o.ITLMax != nil {
		terms = append(terms, p+" of gaps between tokens within "+dur(*o.ITLMax))
	}
	if o.MinHeadroom != nil {
		terms = append(terms, "at least "+pct(*o.MinHeadroom)+" of device memory left free at peak")
	}
	if o.NoOOM {
		terms = append(terms, "no out-of-memory error or restart")
	}
	return strings.Join(terms, "; ")
}
