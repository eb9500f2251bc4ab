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
	// StoppedAt is the lowest level that passed on weak evidence only
	// (docs/method.md, "Weak evidence"): the envelope ends below it. Weak
	// is true when that level is the lowest tested, so the ceiling is it
	// and rests on weak evidence. Evidence says, for each row left out for
	// its evidence, the figure it missed and what to do.
	StoppedAt *float64 `json:"stopped_at,omitempty"`
	Weak      bool     `json:"weak,omitempty"`
	Evidence  []string `json:"evidence,omitempty"`
	// Text says it in a sentence: "demonstrated ceiling: 8 concurrent
	// streams", "at least 10 concurrent streams (every row passed)", "no
	// envelope: the lowest row (1 stream) fails".
	Text string `json:"text"`
}

// JudgeMatrix evaluates every row against the objective, checks it against
// the contract (wantModel is the model the rows should have run), decides
// which rows count (Eligibility), orders the rows (counted rows first, by
// load; then the rows not counted, by kind and load; rows with no known
// load last) and finds the envelope over the counted rows. The returned
// rows carry Counted, NotCounted, NonMonotone and InEnvelope.
func JudgeMatrix(rows []Row, c Contract, o Objective, wantModel string) ([]RowResult, Envelope) {
	cc := c
	cc.Objective = o
	m := make([]RowResult, len(rows))
	for i, r := range rows {
		rr := RowResult{Row: r, Source: r.Source, Incomplete: r.Incomplete}
		rr.Load, rr.LoadKnown = r.LoadValue()
		rr.SuccessRate, _ = successRate(r)
		rr.Verdict = Evaluate(r, o)
		rr.Warnings = mergeWarnings(r.Warnings, CheckRow(r, cc, wantModel))
		rr.fillMeasured()
		if in := RowInObjective(r, o); in.Goodput != nil {
			rr.InObjectiveRate, rr.Goodput = in.Rate, in.Goodput
		}
		m[i] = rr
	}
	kind := envelopeKind(m, c.LoadKind)
	for i := range m {
		judgeEvidence(&m[i], Eligibility(m[i].Row, cc, wantModel, kind), cc)
	}
	group := func(rr RowResult) int {
		switch {
		case rr.Counted || rr.Inconclusive:
			return 0
		case !rr.LoadKnown:
			return 2
		}
		return 1
	}
	sort.SliceStable(m, func(i, j int) bool {
		if gi, gj := group(m[i]), group(m[j]); gi != gj {
			return gi < gj
		}
		if m[i].Row.LoadKind != m[j].Row.LoadKind && group(m[i]) == 1 {
			return m[i].Row.LoadKind < m[j].Row.LoadKind
		}
		if m[i].Load == m[j].Load && group(m[i]) == 0 {
			// At one load a pass on weak evidence goes before the
			// conclusive rows, so the level's last row is a conclusive one.
			return m[i].Inconclusive && !m[j].Inconclusive
		}
		return m[i].Load < m[j].Load
	})
	return m, FindEnvelope(m, kind)
}

// judgeEvidence decides from a row's reasons (Eligibility) whether it
// counts: a row off the contract (another model, workload, load kind)
// never does; a row that only misses an evidence rule counts when it does
// not pass (a measured failure is a failure whatever its sample) and is
// inconclusive when it passes (docs/method.md, "Weak evidence").
func judgeEvidence(rr *RowResult, reasons []Warning, c Contract) {
	off := false
	for _, w := range reasons {
		if evidenceCode(w.Code) {
			rr.WeakEvidence = append(rr.WeakEvidence, w)
		} else {
			off = true
		}
	}
	switch {
	case off:
		rr.NotCounted = reasons
	case len(rr.WeakEvidence) > 0 && rr.Verdict.State == VerdictPass:
		rr.Inconclusive = true
		rr.NotCounted = rr.WeakEvidence
		rr.EvidenceNote = evidenceNote(rr.WeakEvidence, c)
	default:
		rr.Counted = true
	}
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

// FindEnvelope finds the demonstrated ceiling of a matrix already ordered
// by load: the highest load level such that it and every lower level pass
// (docs/method.md, "Weak evidence"). Counted rows (RowResult.Counted,
// decided by Eligibility against the contract, of kind kind) and
// inconclusive rows (passes on weak evidence) take part; the others are
// named in the text. A level fails when any counted row at it does not
// pass, so a second run at the same load that failed is never outvoted,
// and a measured failure counts whatever its sample. A level whose only
// passes are inconclusive proves nothing: the envelope ends at the last
// conclusive level below it and says why; when it is the lowest level, the
// ceiling is that level, marked Weak (the matrix can say no more, and it
// never rises above a failure). It marks the rows in the envelope and
// flags each pass above a non-passing level.
func FindEnvelope(m []RowResult, kind LoadKind) Envelope {
	e := Envelope{LoadKind: envelopeKind(m, kind)}
	var off []RowResult
	failed, stopped := false, false
	var weakNote string
	for i := 0; i < len(m); {
		rr := &m[i]
		if !rr.Counted && !rr.Inconclusive {
			off = append(off, *rr)
			i++
			continue
		}
		// The level: every counted or inconclusive row at this load.
		var level []int
		j := i
		for ; j < len(m) && m[j].LoadKnown && m[j].Load == rr.Load; j++ {
			if m[j].Counted || m[j].Inconclusive {
				level = append(level, j)
			}
		}
		if j == i { // an inconclusive row without a known load cannot be
			j++ // placed; Eligibility never makes one, but never loop
		}
		i = j
		if len(level) == 0 {
			continue
		}
		var fail *RowResult
		conclusive := false
		for _, k := range level {
			switch {
			case m[k].Inconclusive:
			case m[k].Verdict.State != VerdictPass:
				if fail == nil {
					fail = &m[k]
				}
			default:
				conclusive = true
			}
		}
		load := m[level[0]].Load
		switch {
		case fail == nil && failed:
			for _, k := range level {
				m[k].NonMonotone = true
			}
			e.NonMonotone = append(e.NonMonotone, load)
		case fail == nil && stopped:
			// above a level that proved nothing: not in the envelope
		case fail == nil && conclusive:
			for _, k := range level {
				m[k].InEnvelope = true
			}
			e.Ceiling = F(load)
			e.CeilingRow = I(lastConclusive(m, level))
		case fail == nil:
			// Passes on weak evidence only: the climb ends here.
			stopped = true
			e.StoppedAt = F(load)
			weakNote = m[level[0]].EvidenceNote
			if e.Ceiling == nil {
				for _, k := range level {
					m[k].InEnvelope = true
				}
				e.Ceiling = F(load)
				e.CeilingRow = I(level[len(level)-1])
				e.Weak = true
			}
		case !failed:
			failed, stopped = true, true
			e.FirstFailure = F(fail.Load)
			e.FirstFailureReason = fail.Verdict.Summary
			if fail.Verdict.State == VerdictFail {
				e.FirstFailureReason = strings.Join(fail.Verdict.Failures, "; ")
			}
			if len(level) > 1 {
				e.FirstFailureReason = fmt.Sprintf("%s, in one of its %d rows", e.FirstFailureReason, len(level))
			}
			if len(fail.WeakEvidence) > 0 {
				e.FirstFailureReason += " (a measured failure counts whatever its sample)"
			}
		}
	}
	for _, rr := range m {
		if rr.Inconclusive && rr.EvidenceNote != "" {
			e.Evidence = append(e.Evidence, loadText(rr.Row.LoadKind, rr.Load)+" "+rr.EvidenceNote)
		}
	}
	switch {
	case e.Ceiling == nil && e.FirstFailure == nil:
		e.State = EnvelopeNoRows
		e.Text = "no envelope: no counted rows"
		if e.LoadKind != "" {
			e.Text = fmt.Sprintf("no envelope: no counted %s rows", e.LoadKind)
		}
	case e.Ceiling == nil:
		e.State = EnvelopeNone
		e.Text = fmt.Sprintf("no envelope: the lowest row (%s) does not pass (%s)", loadText(e.LoadKind, *e.FirstFailure), e.FirstFailureReason)
	case !failed && e.Weak:
		e.State = EnvelopeLowerBound
		e.Text = fmt.Sprintf("at least %s, on weak evidence: the lowest row passed but %s", loadText(e.LoadKind, *e.Ceiling), weakNote)
	case !failed && e.StoppedAt != nil:
		e.State = EnvelopeLowerBound
		e.Text = fmt.Sprintf("at least %s: the envelope ends below %s, which passed but %s", loadText(e.LoadKind, *e.Ceiling), loadText(e.LoadKind, *e.StoppedAt), weakNote)
	case !failed:
		e.State = EnvelopeLowerBound
		e.Text = fmt.Sprintf("at least %s: every counted row passed, so the true ceiling was not reached", loadText(e.LoadKind, *e.Ceiling))
	case e.Weak:
		e.State = EnvelopeCeiling
		e.Text = fmt.Sprintf("ceiling: %s, on weak evidence (%s does not pass: %s); %s passed but %s",
			loadText(e.LoadKind, *e.Ceiling), loadText(e.LoadKind, *e.FirstFailure), e.FirstFailureReason, loadText(e.LoadKind, *e.Ceiling), weakNote)
	case e.StoppedAt != nil && *e.StoppedAt < *e.FirstFailure:
		e.State = EnvelopeCeiling
		e.Text = fmt.Sprintf("demonstrated ceiling: %s (%s passed but %s; %s does not pass: %s)",
			loadText(e.LoadKind, *e.Ceiling), loadText(e.LoadKind, *e.StoppedAt), weakNote, loadText(e.LoadKind, *e.FirstFailure), e.FirstFailureReason)
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
	if len(off) > 0 {
		e.Text += "; " + NotCountedSummary(off)
	}
	return e
}

// lastConclusive is the last row of a level that passed on adequate
// evidence: the ceiling row capacity and admission are read from.
func lastConclusive(m []RowResult, level []int) int {
	at := level[len(level)-1]
	for _, k := range level {
		if !m[k].Inconclusive {
			at = k
		}
	}
	return at
}

// evidenceCode reports whether a reason a row does not count is about its
// evidence (its sample) rather than about what it tested.
func evidenceCode(code string) bool { return code == "few-requests" || code == "short-row" }

// evidenceNote says what a passing row with weak evidence missed and what
// to do about it: "proves nothing: 40 successful requests, a p95 needs at
// least 100. Rerun it with at least 100, or amend the contract with a
// reason".
func evidenceNote(weak []Warning, c Contract) string {
	var missed, fix []string
	for _, w := range weak {
		missed = append(missed, w.Message)
		switch w.Code {
		case "few-requests":
			fix = append(fix, fmt.Sprintf("with at least %d successful requests", MinRequestsFor(c.Objective.Percentile)))
		case "short-row":
			fix = append(fix, fmt.Sprintf("for %s s", fmtNum(c.RowDurationS)))
		}
	}
	return fmt.Sprintf("proves nothing: %s. Rerun it %s, or amend the contract with a reason",
		strings.Join(missed, "; "), strings.Join(fix, " and "))
}

// NotCountedSummary tallies rows that do not count by their first reason,
// in the order the reasons first appear, each row once (the matrix lists
// every reason of each): "4 rows not counted: 3 of another model, 1 of
// another load kind". The envelope's text and the matrix's fold of the
// rows not counted both say it so.
func NotCountedSummary(rows []RowResult) string {
	n := map[string]int{}
	var order []string
	for _, rr := range rows {
		code := ""
		if len(rr.NotCounted) > 0 {
			code = rr.NotCounted[0].Code
		}
		if n[code] == 0 {
			order = append(order, code)
		}
		n[code]++
	}
	parts := make([]string, len(order))
	for i, c := range order {
		parts[i] = fmt.Sprintf("%d %s", n[c], NotCountedLabel(c))
	}
	return fmt.Sprintf("%d %s not counted: %s", len(rows), plural(len(rows), "row", "rows"), strings.Join(parts, ", "))
}

// NotCountedLabel names a reason a row does not count (the code of its
// first NotCounted warning), for the envelope's sentence and the matrix's
// fold of rows not counted: "of another model".
func NotCountedLabel(code string) string {
	switch code {
	case "model-mismatch":
		return "of another model"
	case "load-unknown":
		return "with no known load"
	case "load-kind-mismatch":
		return "of another load kind"
	case "workload-mismatch":
		return "with a workload outside the contract's tolerance"
	case "identical-prompts":
		return "with identical prompts"
	case "few-requests":
		return "with too few requests for the percentile"
	case "short-row":
		return "shorter than the contract's rows"
	case ReplicasNotOneBox:
		return "of several replicas (a fleet's scaling, not one box)"
	}
	return "not matching the contract"
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
