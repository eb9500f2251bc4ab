package planner

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// VerdictState is the outcome of judging one row against the objective.
type VerdictState string

// The verdict states. A row is "not-judged" when the objective needs a
// figure the row lacks: a missing figure is never a pass. A stopped row was
// ended early by the stop rule or the operator and counts as not passing.
const (
	VerdictPass      VerdictState = "pass"
	VerdictFail      VerdictState = "fail"
	VerdictNotJudged VerdictState = "not-judged"
	VerdictStopped   VerdictState = "stopped"
)

// Check is one criterion of the objective applied to one row: the measured
// value, the bound and whether it held. Pass is nil when the measured value
// is missing.
type Check struct {
	// Criterion is a stable name: "success", "ttft", "e2e", "tpot", "itl",
	// "headroom", "no_oom".
	Criterion string `json:"criterion"`
	// Label is the human name with the percentile, e.g. "p95 end-to-end".
	Label    string   `json:"label"`
	Measured *float64 `json:"measured"`
	Bound    float64  `json:"bound"`
	// Op is how Measured must relate to Bound: "<=" or ">=".
	Op   string `json:"op"`
	Unit string `json:"unit"` // "s", "%" or ""
	Pass *bool  `json:"pass"`
	// Text reads like "p95 end-to-end 16.2 s > 15 s" or "success 100 % >= 99 %".
	Text string `json:"text"`
	// Note carries how the tool defines the metric where that differs from
	// the usual meaning (Stat.Definition), so a bound is read correctly.
	Note string `json:"note,omitempty"`
}

// Verdict is the judgement of one row: its state, every check made, and the
// failing and missing criteria spelled out.
type Verdict struct {
	State  VerdictState `json:"state"`
	Checks []Check      `json:"checks"`
	// Failures name each failing criterion with measured value and bound.
	Failures []string `json:"failures"`
	// Missing name each figure the objective needs but the row lacks.
	Missing []string `json:"missing"`
	// Summary is one line: "pass", "fail: p95 end-to-end 16.2 s > 15 s", ...
	Summary string `json:"summary"`
}

// RowResult is one row of the concurrency matrix as the report shows it:
// the row with its provenance, its success rate, its verdict and every
// warning about it (the importer's and the contract checks').
type RowResult struct {
	Row Row `json:"row"`
	// Source is repeated here because Row hides it from JSON.
	Source Source `json:"source"`
	// Load is Row.LoadValue; LoadKnown is false when neither the set load nor
	// the achieved concurrency is known.
	Load      float64 `json:"load"`
	LoadKnown bool    `json:"load_known"`
	// SuccessRate is successful / (successful + errored) as a fraction;
	// incomplete requests are shown beside it, not in it.
	SuccessRate *float64 `json:"success_rate"`
	Incomplete  *int     `json:"incomplete"`
	Verdict     Verdict  `json:"verdict"`
	// Warnings holds the row's own warnings plus the contract checks
	// ("model-mismatch", "tool-mismatch", "workload-mismatch",
	// "identical-prompts", "few-requests").
	Warnings []Warning `json:"warnings"`
	// Counted is true when the row matches the frozen contract and so
	// counts toward the envelope, admission and capacity; NotCounted gives
	// each reason it does not (see Eligibility). A row not counted is shown,
	// never silently dropped.
	Counted    bool      `json:"counted"`
	NotCounted []Warning `json:"not_counted"`
	// WeakEvidence lists the evidence rules the row misses (too few
	// requests for the percentile, shorter than the contract's rows). A
	// row that fails a measured bound still counts as a failure whatever
	// its sample; a row that passes on weak evidence is Inconclusive: it
	// proves nothing, and counts toward the ceiling only when no level
	// below the first failure passes conclusively (docs/method.md, "Weak
	// evidence").
	WeakEvidence []Warning `json:"weak_evidence,omitempty"`
	Inconclusive bool      `json:"inconclusive,omitempty"`
	// Covered is true for an inconclusive row below the ceiling: the
	// conclusive pass above it covers it, and it changes nothing.
	Covered bool `json:"covered,omitempty"`
	// Bounds are the confidence bounds of each percentile the objective
	// bounds, from the row's per-request records (RowBounds); BoundsNote
	// says why a row has none ("a confidence bound cannot be computed from
	// a summary ..."). SuccessInterval is the exact interval of the
	// success rate (ClopperPearson), at the contract's confidence.
	Bounds          []PercentileBound `json:"bounds,omitempty"`
	BoundsNote      string            `json:"bounds_note,omitempty"`
	SuccessInterval *Interval         `json:"success_interval,omitempty"`
	// EvidenceNote says, for an inconclusive row, what it missed and what
	// to do ("proves nothing: ... Rerun it ..., or amend the contract").
	EvidenceNote string `json:"evidence_note,omitempty"`
	// NonMonotone is true for a pass above a failure; it does not count.
	NonMonotone bool `json:"non_monotone"`
	// InEnvelope is true for the passing rows at or below the ceiling.
	InEnvelope bool `json:"in_envelope"`

	// PowerWattsMean, MemoryHeadroom and PeakMemoryGiB are the row's
	// resolved mean power, free memory at peak and peak memory
	// (Row.Measured: the GPU log's over the typed), each with its source:
	// "telemetry: FILE" when a GPU log covered the row, "typed" when the
	// lead typed it. TelemetryPartial marks a row the log covers only in
	// part, TelemetryCoverage over what share ("68 of ~114 samples").
	PowerWattsMean       *float64 `json:"power_watts_mean"`
	PowerWattsSource     string   `json:"power_watts_source,omitempty"`
	MemoryHeadroom       *float64 `json:"memory_headroom"`
	MemoryHeadroomSource string   `json:"memory_headroom_source,omitempty"`
	PeakMemoryGiB        *float64 `json:"peak_memory_gib"`
	TelemetryPartial     bool     `json:"telemetry_partial,omitempty"`
	TelemetryCoverage    string   `json:"telemetry_coverage,omitempty"`
	// Telemetry is what the GPU log says about the row's window, nil
	// without one.
	Telemetry *RowTelemetry `json:"telemetry,omitempty"`

	// InObjectiveRate is the row's successful in-objective req/s
	// (RowInObjective), and Goodput the per-request count behind it; both
	// nil when the row's file carries no per-request records (every
	// success would count, which the successful rate already shows).
	InObjectiveRate *float64 `json:"in_objective_rate,omitempty"`
	Goodput         *Goodput `json:"goodput,omitempty"`
}

// Evaluate judges one row against the objective. Every criterion the
// objective sets is checked; a figure it needs but the row lacks makes the
// row not judged, never a pass. A stopped row is "stopped" whatever its
// figures say, and its checks are still shown.
func Evaluate(r Row, o Objective) Verdict {
	var v Verdict
	pct := "p" + fmtNum(o.Percentile)

	// Success rate: errors stay in the denominator; incomplete is beside it.
	sc := Check{Criterion: "success", Label: "success", Bound: o.MinSuccess, Op: ">=", Unit: "%"}
	switch rate, ok := successRate(r); {
	case !ok:
		v.Missing = append(v.Missing, missingCounts(r))
	case rate == nil:
		sc.Pass = boolp(false)
		sc.Text = "success: no completed requests"
	default:
		sc.Measured = rate
		sc.Pass = boolp(*rate >= o.MinSuccess)
		sc.Text = fmt.Sprintf("success %s, %s %s", fmtPct(*rate), floorWords(*sc.Pass), fmtPct(o.MinSuccess))
	}
	v.Checks = append(v.Checks, sc)

	for _, b := range []struct {
		criterion, label string
		bound            *float64
		stat             Stat
	}{
		{"ttft", "TTFT", o.TTFTMax, r.TTFT},
		{"ttfot", "TTFOT (first visible token)", o.TTFOTMax, r.TTFOT},
		{"e2e", "end-to-end", o.E2EMax, r.E2E},
		{"tpot", tpotCriterionLabel(o), o.TPOTMax, tpotStat(r, o)},
		{"itl", "ITL", o.ITLMax, r.ITL},
	} {
		if b.bound == nil {
			continue
		}
		c := Check{Criterion: b.criterion, Label: pct + " " + b.label, Bound: *b.bound, Op: "<=", Unit: "s", Note: b.stat.Definition}
		if b.criterion == "tpot" && o.TPOTAsSpeed {
			c.Note = SpeedDefinition
		}
		if m := b.stat.Percentile(o.Percentile); m != nil {
			c.Measured = m
			c.Pass = boolp(*m <= *b.bound)
			c.Text = fmt.Sprintf("%s %s s, %s the %s s bound", c.Label, fmtNum(*m), boundWords(*c.Pass), fmtNum(*b.bound))
			if b.criterion == "tpot" && o.TPOTAsSpeed && *m > 0 {
				c.Text += fmt.Sprintf(" (%s tok/s/user, %s %s)", fmtNum(roundSig(OutputSpeed(*m), 3)), floorWords(*c.Pass), fmtSpeed(OutputSpeed(*b.bound)))
			}
		} else {
			v.Missing = append(v.Missing, c.Label)
		}
		v.Checks = append(v.Checks, c)
	}

	if o.MinHeadroom != nil {
		c := Check{Criterion: "headroom", Label: "memory headroom", Bound: *o.MinHeadroom, Op: ">=", Unit: "%"}
		if mf := r.Measured(); mf.Headroom != nil {
			h := mf.Headroom
			c.Measured = h
			c.Note = "from " + mf.MemorySource
			c.Pass = boolp(*h >= *o.MinHeadroom)
			c.Text = fmt.Sprintf("memory headroom %s, %s %s", fmtPct(*h), floorWords(*c.Pass), fmtPct(*o.MinHeadroom))
		} else {
			v.Missing = append(v.Missing, "memory headroom")
		}
		v.Checks = append(v.Checks, c)
	}

	if o.NoOOM {
		// Unknown is shown as unknown, never as a pass; it does not stop the
		// verdict, but the exit check wants it recorded at the ceiling.
		c := Check{Criterion: "no_oom", Label: "no OOM or restart", Op: "", Text: oomWords(r.Observed)}
		if r.Observed.OOMRecorded() {
			c.Pass = boolp(!r.Observed.OOM && !r.Observed.Restart)
		}
		v.Checks = append(v.Checks, c)
	}

	for _, c := range v.Checks {
		if c.Pass != nil && !*c.Pass {
			v.Failures = append(v.Failures, c.Text)
		}
	}
	switch {
	case r.Observed.Stopped:
		v.State = VerdictStopped
		v.Summary = "stopped"
		if r.Observed.StopReason != "" {
			v.Summary += ": " + r.Observed.StopReason
		}
	case len(v.Failures) > 0:
		v.State = VerdictFail
		v.Summary = "fail: " + strings.Join(v.Failures, "; ")
	case len(v.Missing) > 0:
		v.State = VerdictNotJudged
		v.Summary = "not judged: missing " + strings.Join(v.Missing, ", ")
	default:
		v.State = VerdictPass
		v.Summary = "pass"
	}
	return v
}

// successRate returns successful / (successful + errored). ok is false when
// either count is unknown; rate is nil when no request completed.
func successRate(r Row) (rate *float64, ok bool) {
	if r.Successful == nil || r.Errored == nil {
		return nil, false
	}
	done := *r.Successful + *r.Errored
	if done <= 0 {
		return nil, true
	}
	return F(float64(*r.Successful) / float64(done)), true
}

// missingCounts says which of the counts a success rate needs the row
// lacks.
func missingCounts(r Row) string {
	switch {
	case r.Successful == nil && r.Errored == nil:
		return "the successful and errored counts"
	case r.Successful == nil:
		return "the successful count: the tool does not record successes"
	default:
		return "the errored count: the tool does not record failures"
	}
}

// MinRequestsFor is the fewest completed requests that put at least five
// samples beyond the percentile: 100 for p95, 500 for p99.
func MinRequestsFor(percentile float64) int {
	if percentile <= 0 || percentile >= 100 {
		return 0
	}
	return int(math.Ceil(5*100/(100-percentile) - 1e-9))
}

// CheckRow compares a row with the contract it was run under and returns a
// warning for each difference: the model (want, when not empty), the tool,
// the workload shape (more than 10 % off), identical prompts where varied
// were promised, the load kind, and too few requests for the percentile.
func CheckRow(r Row, c Contract, wantModel string) []Warning {
	ws := engineWarnings(r.Engine)
	if m := r.ModelName(); wantModel != "" && m != "" && !sameName(m, wantModel) {
		ws = append(ws, Warning{Code: "model-mismatch", Message: fmt.Sprintf("row model %q is not the contract's %q", m, wantModel), File: m, Contract: wantModel, Figure: "model"})
	}
	if c.BenchmarkTool != "" && r.Source.Format != "" && !sameName(r.Source.Format, c.BenchmarkTool) {
		ws = append(ws, Warning{Code: "tool-mismatch", Message: fmt.Sprintf("row written by %s, contract names %s", r.Source.Format, c.BenchmarkTool), File: r.Source.Format, Contract: c.BenchmarkTool, Figure: "benchmark tool"})
	}
	for _, s := range []struct {
		label    string
		measured *float64
		want     int
	}{
		{"prompt tokens", r.PromptTokensMean, c.Workload.PromptTokens},
		{"output tokens", r.OutputTokensMean, c.Workload.OutputTokens},
	} {
		if s.measured == nil || s.want <= 0 {
			continue
		}
		if off := math.Abs(*s.measured-float64(s.want)) / float64(s.want); off > 0.10 {
			ws = append(ws, Warning{Code: "workload-mismatch", Message: fmt.Sprintf("mean %s %s differ from the contract's %d by %s", s.label, fmtNum(*s.measured), s.want, fmtPct(off)),
				File: fmtNum(roundSig(*s.measured, 4)), Contract: fmt.Sprintf("%d (within ±10 %%)", s.want), Figure: "mean " + s.label})
		}
	}
	if r.IdenticalPrompts != nil && *r.IdenticalPrompts && strings.EqualFold(c.Workload.Prompts, "varied") {
		ws = append(ws, Warning{Code: "identical-prompts", Message: "every prompt was identical (a prefix-cache best case) but the contract promises varied prompts", File: "identical", Contract: "varied", Figure: "prompts"})
	}
	if c.LoadKind != "" && r.LoadKind != "" && normKind(r.LoadKind) != normKind(c.LoadKind) {
		ws = append(ws, Warning{Code: "load-kind-mismatch", Message: fmt.Sprintf("row load kind %s, contract %s", r.LoadKind, c.LoadKind), File: string(r.LoadKind), Contract: string(c.LoadKind), Figure: "load kind"})
	}
	if min := MinRequestsFor(c.Objective.Percentile); min > 0 && r.Successful != nil && *r.Successful < min && len(r.Samples) == 0 {
		// With per-request records the confidence bounds speak instead
		// (Eligibility, docs/method.md "Confidence").
		ws = append(ws, Warning{Code: "few-requests", Message: fewRequestsText(*r.Successful, c.Objective.Percentile),
			File: strconv.Itoa(*r.Successful), Contract: strconv.Itoa(min), Figure: "p" + fmtNum(c.Objective.Percentile)})
	}
	return ws
}

// normKind treats a synchronous run as concurrency 1.
func normKind(k LoadKind) LoadKind {
	if k == LoadSynchronous {
		return LoadConcurrency
	}
	return k
}

// sameName compares names loosely: case, punctuation and one containing the
// other ("GuideLLM 0.4.1" names "guidellm").
func sameName(a, b string) bool {
	na, nb := squash(a), squash(b)
	if na == "" || nb == "" {
		return true
	}
	return strings.Contains(na, nb) || strings.Contains(nb, na)
}

func squash(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// boundWords says a measured figure against an upper bound, for a
// sentence: "p95 end-to-end 16.2 s, above the 15 s bound".
func boundWords(pass bool) string {
	if pass {
		return "within"
	}
	return "above"
}

// floorWords says a measured figure against a floor, for a sentence:
// "success 100 %, at least 99 %"; "memory headroom 8 %, below 10 %".
func floorWords(pass bool) string {
	if pass {
		return "at least"
	}
	return "below"
}

// fmtPct writes a fraction as a percentage for sentences: "98.5 %".
func fmtPct(f float64) string { return fmtNum(math.Round(f*100*1e6)/1e6) + " %" }

func boolp(b bool) *bool { return &b }

// fewRequestsText says why a percentile from n successful requests is weak.
func fewRequestsText(n int, p float64) string {
	return fmt.Sprintf("only %d successful %s: a p%s needs at least %d (five samples beyond it)", n, plural(n, "request", "requests"), fmtNum(p), MinRequestsFor(p))
}

// FewRequests is the warning for a row whose successful requests are too
// few for the percentile p, or nil when they suffice.
func FewRequests(successful int, p float64) *Warning {
	if successful >= MinRequestsFor(p) || successful == 0 {
		return nil
	}
	return &Warning{Code: "few-requests", Message: fewRequestsText(successful, p)}
}
