package planner

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// DefaultWorkloadTolerance is how far a row's mean prompt or output tokens
// may be from the contract's workload and still count, when the contract
// does not say (Workload.Tolerance): 10 %.
const DefaultWorkloadTolerance = 0.10

// durationSlack is the share of the contract's row duration a row may fall
// short by and still count: tools measure the window between the first and
// the last measured request, a little under the duration they were given.
const durationSlack = 0.05

// ToleranceOrDefault is the workload tolerance in force: the contract's,
// else DefaultWorkloadTolerance.
func (w Workload) ToleranceOrDefault() float64 {
	if w.Tolerance > 0 {
		return w.Tolerance
	}
	return DefaultWorkloadTolerance
}

// Eligibility decides whether a row counts toward the envelope, the
// admission limit and the capacity: a row counts only when it matches the
// frozen contract it claims to test. It returns one reason for each way the
// row does not match; none means the row counts. The rules:
//
//   - model: the row ran the model it should have (the baseline's for the
//     report's matrix, the candidate's own for a candidate's);
//   - load kind: the row's kind of load is the contract's (the envelope's
//     when the contract names none); a row with no known load never counts;
//   - workload: the row's mean prompt and output tokens are within the
//     contract's tolerance of its workload (default ±10 %), and its prompts
//     are varied when the contract promises varied prompts;
//   - one box: a row served by a stack of several replicas measures a
//     fleet's scaling factor (measureScaling), not the box;
//   - evidence: with per-request records, every percentile the objective
//     bounds has its confidence upper bound within the bound (RowBounds,
//     docs/method.md "Confidence"); from a summary, where no bound can be
//     computed, at least 5/(1-p) successful requests for the objective's
//     percentile p (100 for p95, 500 for p99); and a row at least as long
//     as the contract's per-row duration (5 % slack).
//
// A figure the file does not hold is not a mismatch: the row is judged on
// what it has, and a figure the objective needs but the row lacks leaves
// it not judged, which blocks the envelope on its own. A row stopped by the
// stop rule or the operator is cut short on purpose: the evidence rules do
// not apply to it, so an unsafe load is never dropped for being short.
//
// kind is the load kind the envelope is found over (normalised).
func Eligibility(r Row, c Contract, wantModel string, kind LoadKind) []Warning {
	var out []Warning
	add := func(code, format string, args ...any) {
		out = append(out, Warning{Code: code, Message: fmt.Sprintf(format, args...)})
	}
	// values sets the last warning's file and contract values.
	values := func(file, contract, figure string) {
		w := &out[len(out)-1]
		w.File, w.Contract, w.Figure = file, contract, figure
	}
	if m := r.ModelName(); wantModel != "" && m != "" && !sameName(m, wantModel) {
		add("model-mismatch", "model %s, not the contract's %s", m, wantModel)
		values(m, wantModel, "model")
	}
	if _, ok := r.LoadValue(); !ok {
		add("load-unknown", "no known load level")
	} else if kind != "" && r.LoadKind != "" && normKind(r.LoadKind) != kind {
		add("load-kind-mismatch", "load kind %s, the contract's is %s", r.LoadKind, kind)
		values(string(r.LoadKind), string(kind), "load kind")
	}
	if k := r.ReplicaCount(); k > 1 {
		add(ReplicasNotOneBox, "a stack of %d replicas, not one box: it measures a fleet's scaling factor, not the box", k)
	}
	tol := c.Workload.ToleranceOrDefault()
	for _, s := range []struct {
		label    string
		measured *float64
		want     int
	}{
		{"prompt", r.PromptTokensMean, c.Workload.PromptTokens},
		{"output", r.OutputTokensMean, c.Workload.OutputTokens},
	} {
		if s.measured == nil || s.want <= 0 {
			continue
		}
		off := (*s.measured - float64(s.want)) / float64(s.want)
		if math.Abs(off) > tol+1e-9 {
			add("workload-mismatch", "mean %s tokens %s vs the contract's %d (%s, tolerance ±%s)",
				s.label, fmtNum(math.Round(*s.measured*10)/10), s.want, signedPct(off), fmtPct(tol))
			values(fmtNum(math.Round(*s.measured*10)/10), fmt.Sprintf("%d (within ±%s)", s.want, fmtPct(tol)), "mean "+s.label+" tokens")
		}
	}
	if r.IdenticalPrompts != nil && *r.IdenticalPrompts && strings.EqualFold(c.Workload.Prompts, "varied") {
		add("identical-prompts", "every prompt identical (a prefix-cache best case), the contract promises varied prompts")
		values("identical", "varied", "prompts")
	}
	if r.Observed.Stopped {
		return out
	}
	bounds, summary := RowBounds(r, c.Objective, c.ConfidenceOrDefault())
	passes := len(bounds) > 0 && Evaluate(r, c.Objective).State == VerdictPass
	for _, b := range bounds {
		// An open bound makes a pass inconclusive; a failure counts
		// whatever its sample, so a failing row's bounds are no reason.
		if b.Verdict == BoundInconclusive || (b.Verdict == BoundFail && passes) {
			add(BoundOpen, "%s", b.Text)
		}
	}
	if len(bounds) == 0 || len(summary) > 0 {
		if min := MinRequestsFor(c.Objective.Percentile); min > 0 && r.Successful != nil && *r.Successful < min {
			add("few-requests", "%d successful %s, a p%s needs at least %d (%s)", *r.Successful, plural(*r.Successful, "request", "requests"), fmtNum(c.Objective.Percentile), min, summaryWhy(r, summary))
			values(strconv.Itoa(*r.Successful), strconv.Itoa(min), "p"+fmtNum(c.Objective.Percentile))
		}
	}
	if want := c.RowDurationS; want > 0 && r.DurationS != nil && *r.DurationS < (1-durationSlack)*want {
		add("short-row", "ran %s s, the contract's rows run %s s", fmtNum(math.Round(*r.DurationS*10)/10), fmtNum(want))
		values(fmtNum(math.Round(*r.DurationS*10)/10)+" s", fmtNum(want)+" s", "row duration")
	}
	return out
}

// signedPct writes a fraction as a signed percentage rounded to a whole
// percent: "+87 %", "-12 %".
func signedPct(f float64) string {
	p := math.Round(f * 100)
	if p >= 0 {
		return fmt.Sprintf("+%s %%", fmtNum(p))
	}
	return fmt.Sprintf("%s %%", fmtNum(p))
}

// NotCountedText is the reasons a row does not count, in one line.
func (rr RowResult) NotCountedText() string {
	parts := make([]string, len(rr.NotCounted))
	for i, w := range rr.NotCounted {
		parts[i] = w.Message
	}
	return strings.Join(parts, "; ")
}

// BoundOpen is the evidence code of a row whose per-request records do
// not put a percentile's confidence upper bound within its bound.
const BoundOpen = "bound-open"

// summaryWhy says why the request count rule judges a row: it has no
// per-request records, or they lack the figures named.
func summaryWhy(r Row, summary []string) string {
	if len(r.Samples) == 0 || len(summary) == 0 {
		return "from a summary no confidence bound can be computed"
	}
	return "the per-request records lack " + strings.Join(summary, ", ")
}
