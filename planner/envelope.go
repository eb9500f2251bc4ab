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
// rows by load (rows with no known load last) and finds the envelope over
// the contract's kind of load. The returned rows carry NonMonotone and
// InEnvelope.
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
	// The rows the envelope counts come first, by load; then rows of other
	// kinds of load, then rows with no known load.
	kind := envelopeKind(m, c.LoadKind)
	group := func(rr RowResult) int {
		switch {
		case !rr.LoadKnown:
			return 2
		case normKind(rr.Row.LoadKind) != kind:
			return 1
		}
		return 0
	}
	sort.SliceStable(m, func(i, j int) bool {
		if gi, gj := group(m[i]), group(m[j]); gi != gj {
			return gi < gj
		}
		if m[i].Row.LoadKind != m[j].Row.LoadKind && group(m[i]) == 1 {
			return m[i].Row.LoadKind < m[j].Row.LoadKind
		}
		return m[i].Load < m[j].Load
	})
	return m, FindEnvelope(m, kind)
}

// envelopeKind is the kind of load the envelope is found over: the
// contract's, else the kind most rows have (synchronous counts as
// concurrency 1; ties go to concurrency, then rate).
func envelopeKind(m []RowResult, contract LoadKind) LoadKind {
	if contract != "" {
		return normKind(contract)
	}
	count := map[LoadKind]int{}
	for _, rr := range m {
		if rr.LoadKnown {
			count[normKind(rr.Row.LoadKind)]++
		}
	}
	best := LoadKind("")
	for _, k := range []LoadKind{LoadConcurrency, LoadRate, LoadThroughput} {
		if count[k] > count[best] {
			best = k
		}
	}
	return best
}

// FindEnvelope finds the demonstrated ceiling of a matrix already ordered by
// load: the highest load level such that it and every lower level pass. A
// level passes only if every row at it passes, so a second run at the same
// load that failed is never outvoted. Only rows of the envelope's kind of
// load count (kind is the contract's; "" means the rows' most common kind);
// the others, and rows with no known load, are named in the text. It marks
// the rows in the envelope and flags each pass above a non-passing level.
func FindEnvelope(m []RowResult, kind LoadKind) Envelope {
	e := Envelope{LoadKind: envelopeKind(m, kind)}
	var notCounted []string
	unknown, otherKind := 0, map[LoadKind]int{}
	failed := false
	for i := 0; i < len(m); {
		rr := &m[i]
		if !rr.LoadKnown {
			unknown++
			i++
			continue
		}
		if normKind(rr.Row.LoadKind) != e.LoadKind {
			otherKind[rr.Row.LoadKind]++
			i++
			continue
		}
		// The level: every row of the envelope's kind at this load.
		var level []int
		j := i
		for ; j < len(m) && m[j].LoadKnown && m[j].Load == rr.Load; j++ {
			if normKind(m[j].Row.LoadKind) == e.LoadKind {
				level = append(level, j)
			} else {
				otherKind[m[j].Row.LoadKind]++
			}
		}
		i = j
		var fail *RowResult
		for _, k := range level {
			if m[k].Verdict.State != VerdictPass {
				fail = &m[k]
				break
			}
		}
		switch {
		case fail == nil && !failed:
			for _, k := range level {
				m[k].InEnvelope = true
			}
			e.Ceiling = F(m[level[0]].Load)
			e.CeilingRow = I(level[len(level)-1])
		case fail == nil && failed:
			for _, k := range level {
				m[k].NonMonotone = true
			}
			e.NonMonotone = append(e.NonMonotone, m[level[0]].Load)
		case !failed:
			failed = true
			e.FirstFailure = F(fail.Load)
			e.FirstFailureReason = fail.Verdict.Summary
			if fail.Verdict.State == VerdictFail {
				e.FirstFailureReason = strings.Join(fail.Verdict.Failures, "; ")
			}
			if len(level) > 1 {
				e.FirstFailureReason = fmt.Sprintf("%s, in one of its %d rows", e.FirstFailureReason, len(level))
			}
		}
	}
	if unknown > 0 {
		notCounted = append(notCounted, fmt.Sprintf("%d %s with no known load", unknown, plural(unknown, "row", "rows")))
	}
	for _, k := range []LoadKind{LoadConcurrency, LoadSynchronous, LoadRate, LoadThroughput} {
		if n := otherKind[k]; n > 0 {
			notCounted = append(notCounted, fmt.Sprintf("%d %s %s", n, k, plural(n, "row", "rows")))
		}
	}
	switch {
	case e.Ceiling == nil && e.FirstFailure == nil:
		e.State = EnvelopeNoRows
		e.Text = "no envelope: no rows with a known load"
		if e.LoadKind != "" {
			e.Text = fmt.Sprintf("no envelope: no %s rows with a known load", e.LoadKind)
		}
	case e.Ceiling == nil:
		e.State = EnvelopeNone
		e.Text = fmt.Sprintf("no envelope: the lowest row (%s) does not pass (%s)", loadText(e.LoadKind, *e.FirstFailure), e.FirstFailureReason)
	case !failed:
		e.State = EnvelopeLowerBound
		e.Text = fmt.Sprintf("at least %s: every counted row passed, so the true ceiling was not reached", loadText(e.LoadKind, *e.Ceiling))
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
	if len(notCounted) > 0 {
		e.Text += "; not counted: " + strings.Join(notCounted, ", ")
	}
	return e
}

// plural picks the word for n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
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

// mergeWarnings combines the row's own warnings with the contract's: a
// contract warning replaces the row's warning of the same code (it knows
// the objective's percentile, the contract's workload), others are added.
func mergeWarnings(own, more []Warning) []Warning {
	out := append([]Warning(nil), own...)
	at := map[string]int{}
	for i, w := range out {
		at[w.Code] = i
	}
	for _, w := range more {
		if i, ok := at[w.Code]; ok {
			out[i] = w
			continue
		}
		at[w.Code] = len(out)
		out = append(out, w)
	}
	return out
}
