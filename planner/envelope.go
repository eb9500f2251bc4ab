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
	// Unproven lists the levels above the ceiling, below the first
	// failure, that passed on weak evidence only (docs/method.md, "Weak
	// evidence"): named, never counted. StoppedAt is the lowest of them
	// (the ceiling itself when Weak). Covered lists the levels below the
	// ceiling that passed on weak evidence only: the conclusive pass above
	// covers them. Weak is true when no level below the first failure
	// passed conclusively, so the ceiling is the highest inconclusive pass
	// and rests on weak evidence. Evidence says, for each row that passed
	// on weak evidence, the figure it missed and what to do.
	Unproven  []float64 `json:"unproven,omitempty"`
	StoppedAt *float64  `json:"stopped_at,omitempty"`
	Covered   []float64 `json:"covered,omitempty"`
	Weak      bool      `json:"weak,omitempty"`
	Evidence  []string  `json:"evidence,omitempty"`
	// Next is the runs proposed next (ProposeNextTest), nil when there is
	// nothing to propose.
	Next *NextTest `json:"next,omitempty"`
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
		rr.fillConfidence(cc)
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
	e := FindEnvelope(m, kind)
	e.Next = ProposeNextTest(m, e, cc)
	return m, e
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
		rr.EvidenceNote = evidenceNote(rr.WeakEvidence, rr.Bounds, c)
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
// by load (docs/method.md, "Weak evidence"): the highest tested level with
// a conclusive pass such that no level at or below it fails. It is the one
// rule the page, the API, the workbook, the CLI gate, the admission
// proposal and the capacity read.
//
// Counted rows (RowResult.Counted, decided by Eligibility against the
// contract, of kind kind) and inconclusive rows (passes on weak evidence)
// take part; the others are named in the text. A level fails when any
// counted row at it does not pass, so a second run at the same load that
// failed is never outvoted, and a measured failure counts whatever its
// sample. A level passes conclusively when a conclusive row at it passes
// and none fails. Load does not make latency fall, so a conclusive pass
// covers every level below it: an inconclusive pass below the ceiling
// changes nothing (Envelope.Covered); an inconclusive pass above it, below
// the first failure, proves nothing and is named, never counted
// (Envelope.Unproven). Only when no level below the first failure passes
// conclusively is the ceiling the highest inconclusive pass below it,
// marked Weak. A pass above the first failure is flagged non-monotone.
func FindEnvelope(m []RowResult, kind LoadKind) Envelope {
	e := Envelope{LoadKind: envelopeKind(m, kind)}
	type level struct {
		load       float64
		rows       []int
		fail       *RowResult
		conclusive bool
	}
	var off []RowResult
	var levels []level
	for i := 0; i < len(m); {
		rr := &m[i]
		if !rr.Counted && !rr.Inconclusive {
			off = append(off, *rr)
			i++
			continue
		}
		lv := level{load: rr.Load}
		j := i
		for ; j < len(m) && m[j].LoadKnown && m[j].Load == rr.Load; j++ {
			if !m[j].Counted && !m[j].Inconclusive {
				continue
			}
			lv.rows = append(lv.rows, j)
			switch {
			case m[j].Inconclusive:
			case m[j].Verdict.State != VerdictPass:
				if lv.fail == nil {
					lv.fail = &m[j]
				}
			default:
				lv.conclusive = true
			}
		}
		if j == i { // an inconclusive row without a known load cannot be
			j++ // placed; Eligibility never makes one, but never loop
		}
		i = j
		if len(lv.rows) > 0 {
			levels = append(levels, lv)
		}
	}
	firstFail := len(levels)
	for i, lv := range levels {
		if lv.fail != nil {
			firstFail = i
			break
		}
	}
	ceiling := -1
	for i := firstFail - 1; i >= 0; i-- {
		if levels[i].conclusive {
			ceiling = i
			break
		}
	}
	if ceiling < 0 && firstFail > 0 {
		ceiling, e.Weak = firstFail-1, true
	}
	note := func(lv level) string { return m[lv.rows[0]].EvidenceNote }
	var covered, unproven []string
	var weakNote string
	for i, lv := range levels {
		switch {
		case i <= ceiling:
			for _, k := range lv.rows {
				m[k].InEnvelope = true
			}
			if !lv.conclusive && !e.Weak {
				for _, k := range lv.rows {
					m[k].Covered = true
				}
				e.Covered = append(e.Covered, lv.load)
				covered = append(covered, loadText(e.LoadKind, lv.load))
			}
			if i == ceiling {
				e.Ceiling = F(lv.load)
				e.CeilingRow = I(lastConclusive(m, lv.rows))
				if e.Weak {
					weakNote = note(lv)
				}
			}
		case i < firstFail:
			e.Unproven = append(e.Unproven, lv.load)
			if e.StoppedAt == nil {
				e.StoppedAt = F(lv.load)
			}
			unproven = append(unproven, loadText(e.LoadKind, lv.load)+" passed but "+note(lv))
		case i == firstFail:
			fail := lv.fail
			e.FirstFailure = F(fail.Load)
			e.FirstFailureReason = fail.Verdict.Summary
			if fail.Verdict.State == VerdictFail {
				e.FirstFailureReason = strings.Join(fail.Verdict.Failures, "; ")
			}
			if len(lv.rows) > 1 {
				e.FirstFailureReason = fmt.Sprintf("%s, in one of its %d rows", e.FirstFailureReason, len(lv.rows))
			}
			if len(fail.WeakEvidence) > 0 {
				e.FirstFailureReason += " (a measured failure counts whatever its sample)"
			}
		case lv.fail == nil:
			for _, k := range lv.rows {
				m[k].NonMonotone = true
			}
			e.NonMonotone = append(e.NonMonotone, lv.load)
		}
	}
	if e.Weak && e.StoppedAt == nil {
		e.StoppedAt = e.Ceiling
	}
	for _, rr := range m {
		if rr.Inconclusive && rr.EvidenceNote != "" {
			e.Evidence = append(e.Evidence, loadText(rr.Row.LoadKind, rr.Load)+" "+rr.EvidenceNote)
		}
	}
	failed := e.FirstFailure != nil
	switch {
	case e.Ceiling == nil && !failed:
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
		e.Text = fmt.Sprintf("at least %s, on weak evidence: no row passed conclusively; %s passed but %s", loadText(e.LoadKind, *e.Ceiling), loadText(e.LoadKind, *e.Ceiling), weakNote)
	case !failed && len(unproven) > 0:
		e.State = EnvelopeLowerBound
		e.Text = fmt.Sprintf("at least %s: the envelope ends below %s, which passed but %s", loadText(e.LoadKind, *e.Ceiling), loadText(e.LoadKind, *e.StoppedAt), note(levels[ceiling+1]))
		if len(unproven) > 1 {
			e.Text += "; " + strings.Join(unproven[1:], "; ")
		}
	case !failed:
		e.State = EnvelopeLowerBound
		e.Text = fmt.Sprintf("at least %s: every counted row passed, so the true ceiling was not reached", loadText(e.LoadKind, *e.Ceiling))
	case e.Weak:
		e.State = EnvelopeCeiling
		e.Text = fmt.Sprintf("ceiling: %s, on weak evidence (%s does not pass: %s); no row below it passed conclusively, and %s passed but %s",
			loadText(e.LoadKind, *e.Ceiling), loadText(e.LoadKind, *e.FirstFailure), e.FirstFailureReason, loadText(e.LoadKind, *e.Ceiling), weakNote)
	case len(unproven) > 0:
		e.State = EnvelopeCeiling
		e.Text = fmt.Sprintf("demonstrated ceiling: %s (%s; %s does not pass: %s)",
			loadText(e.LoadKind, *e.Ceiling), strings.Join(unproven, "; "), loadText(e.LoadKind, *e.FirstFailure), e.FirstFailureReason)
	default:
		e.State = EnvelopeCeiling
		e.Text = fmt.Sprintf("demonstrated ceiling: %s (%s does not pass: %s)", loadText(e.LoadKind, *e.Ceiling), loadText(e.LoadKind, *e.FirstFailure), e.FirstFailureReason)
	}
	if len(covered) > 0 {
		e.Text += fmt.Sprintf("; %s passed inconclusively below the ceiling and %s nothing: the conclusive pass at %s covers %s",
			joinAnd(covered), plural(len(covered), "changes", "change"), loadText(e.LoadKind, *e.Ceiling), plural(len(covered), "it", "them"))
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

// joinAnd joins words as a list: "a", "a and b", "a, b and c".
func joinAnd(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
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
func evidenceCode(code string) bool {
	return code == "few-requests" || code == "short-row" || code == BoundOpen
}

// evidenceNote says what a passing row with weak evidence missed and what
// to do about it: "proves nothing: 40 successful requests, a p95 needs at
// least 100. Rerun it with at least 100, or amend the contract with a
// reason".
func evidenceNote(weak []Warning, bounds []PercentileBound, c Contract) string {
	var missed, fix []string
	boundFix := false
	for _, w := range weak {
		missed = append(missed, w.Message)
		switch w.Code {
		case "few-requests":
			fix = append(fix, fmt.Sprintf("with at least %d successful requests", MinRequestsFor(c.Objective.Percentile)))
		case "short-row":
			fix = append(fix, fmt.Sprintf("for %s s", fmtNum(c.RowDurationS)))
		case BoundOpen:
			if !boundFix {
				boundFix = true
				fix = append(fix, settleFix(bounds))
			}
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

// settleFix says how many successful requests a rerun needs for every
// open bound to settle at the observed spread: the most any needs.
func settleFix(bounds []PercentileBound) string {
	most := 0
	for _, b := range bounds {
		if b.Verdict != BoundPass && b.Settle != nil && *b.Settle > most {
			most = *b.Settle
		}
	}
	if most == 0 {
		return "at a load where its percentile is clear of the bound (no number of requests at this spread settles it)"
	}
	return fmt.Sprintf("with about %d successful requests", most)
}
