package planner

import (
	"fmt"
	"sort"
	"strings"
)

// EnvelopeState says what the matrix demonstrates.
type EnvelopeState string

// The envelope states.
const (
	// EnvelopeCeiling: a row failed above a run of passing rows; the
	// ceiling is the highest of them.
	EnvelopeCeiling EnvelopeState = "ceiling"
	// EnvelopeLowerBound: every row passed; the true ceiling is at least
	// the highest tested load.
	EnvelopeLowerBound EnvelopeState = "lower-bound"
	// EnvelopeNone: the lowest row did not pass; nothing is demonstrated.
	EnvelopeNone EnvelopeState = "none"
	// EnvelopeNoRows: there are no rows with a known load.
	EnvelopeNoRows EnvelopeState = "no-rows"
)

// Envelope is the operating envelope the matrix demonstrates: the highest
// tested load such that it and every lower tested load pass the objective.
// It is not the highest load that completed once; a pass above a failure is
// flagged non-monotone and not counted.
type Envelope struct {
	State    EnvelopeState `json:"state"`
	LoadKind LoadKind      `json:"load_kind"`
	// Ceiling is the demonstrated load (streams or req/s); nil without one.
	Ceiling *float64 `json:"ceiling"`
	// CeilingRow is the index in Result.Matrix of the ceiling row.
	CeilingRow *int `json:"ceiling_row"`
	// FirstFailure is the lowest load that did not pass, if any, and why.
	FirstFailure       *float64 `json:"first_failure"`
	FirstFailureReason string   `json:"first_failure_reason,omitempty"`
	// NonMonotone lists the loads that passed above a non-passing row.
	NonMonotone []float64 `json:"non_monotone"`
	// Text says it in a sentence: "demonstrated ceiling: 8 concurrent
	// streams", "at least 10 concurrent streams (every row passed)", "no
	// envelope: the lowest row (1 stream) fails".
	Text string `json:"text"`
}

// JudgeMatrix evaluates every row against the objective, checks it against
// the contract (wantModel is the model the rows should have run), orders the
// rows by load (rows with no known load last) and finds the envelope. The
// returned rows carry NonMonotone and InEnvelope.
func JudgeMatrix(rows []Row, c Contract, o Objective, wantModel string) ([]RowResult, Envelope) {
	m := make([]RowResult, len(rows))
	for i, r := range rows {
		rr := RowResult{Row: r, Source: r.Source, Incomplete: r.Incomplete}
		rr.Load, rr.LoadKnown = r.LoadValue()
		rr.SuccessRate, _ = successRate(r)
		rr.Verdict = Evaluate(r, o)
		cc := c
		cc.Objective = o
		rr.Warnings = mergeWarnings(r.Warnings, CheckRow(r, cc, wantModel))
		m[i] = rr
	}
	sort.SliceStable(m, func(i, j int) bool {
		if m[i].LoadKnown != m[j].LoadKnown {
			return m[i].LoadKnown
		}
		return m[i].Load < m[j].Load
	})
	return m, FindEnvelope(m)
}

// FindEnvelope finds the demonstrated ceiling of a matrix already ordered by
// load: the highest load such that it and every lower load pass. It marks the
// rows in the envelope and flags each pass above a non-passing row.
func FindEnvelope(m []RowResult) Envelope {
	var e Envelope
	failed := false
	for i := range m {
		rr := &m[i]
		if !rr.LoadKnown {
			continue
		}
		if e.LoadKind == "" || e.LoadKind == LoadSynchronous {
			e.LoadKind = rr.Row.LoadKind // a synchronous row below concurrency rows is concurrency 1
		}
		pass := rr.Verdict.State == VerdictPass
		switch {
		case pass && !failed:
			rr.InEnvelope = true
			e.Ceiling = F(rr.Load)
			e.CeilingRow = I(i)
		case pass && failed:
			rr.NonMonotone = true
			e.NonMonotone = append(e.NonMonotone, rr.Load)
		case !failed:
			failed = true
			e.FirstFailure = F(rr.Load)
			e.FirstFailureReason = rr.Verdict.Summary
			if rr.Verdict.State == VerdictFail {
				e.FirstFailureReason = strings.Join(rr.Verdict.Failures, "; ")
			}
		}
	}
	switch {
	case e.LoadKind == "":
		e.State = EnvelopeNoRows
		e.Text = "no envelope: no rows with a known load"
	case e.Ceiling == nil:
		e.State = EnvelopeNone
		e.Text = fmt.Sprintf("no envelope: the lowest row (%s) does not pass (%s)", loadText(e.LoadKind, *e.FirstFailure), e.FirstFailureReason)
	case !failed:
		e.State = EnvelopeLowerBound
		e.Text = fmt.Sprintf("at least %s: every tested row passed, so the true ceiling was not reached", loadText(e.LoadKind, *e.Ceiling))
	default:
		e.State = EnvelopeCeiling
		e.Text = fmt.Sprintf("demonstrated ceiling: %s (%s does not pass: %s)", loadText(e.LoadKind, *e.Ceiling), loadText(e.LoadKind, *e.FirstFailure), e.FirstFailureReason)
	}
	if len(e.NonMonotone) > 0 {
		loads := make([]string, len(e.NonMonotone))
		for i, l := range e.NonMonotone {
			loads[i] = fmtNum(l)
		}
		e.Text += fmt.Sprintf("; non-monotone: %s passed above a failing row and do not count", strings.Join(loads, ", "))
	}
	return e
}

// loadText names a load level with its unit: "8 concurrent streams",
// "11.3 req/s".
func loadText(k LoadKind, v float64) string {
	switch k {
	case LoadRate:
		return fmtNum(v) + " req/s"
	case LoadSynchronous:
		return "1 stream (synchronous)"
	case LoadThroughput:
		return fmtNum(v) + " in flight (throughput run)"
	}
	if v == 1 {
		return "1 concurrent stream"
	}
	return fmtNum(v) + " concurrent streams"
}

// mergeWarnings appends the contract warnings whose code the row does not
// already carry.
func mergeWarnings(own, more []Warning) []Warning {
	out := append([]Warning(nil), own...)
	has := map[string]bool{}
	for _, w := range own {
		has[w.Code] = true
	}
	for _, w := range more {
		if !has[w.Code] {
			out = append(out, w)
		}
	}
	return out
}
