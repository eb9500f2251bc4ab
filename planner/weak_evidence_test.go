package planner

import (
	"fmt"
	"strings"
	"testing"
)

// weakMatrix is the matrix of docs/method.md, "Weak evidence": 1 stream
// passes on 40 requests, 2 streams fails success >= 99 % (97 of 100), 4
// streams passes.
func weakMatrix() []Row {
	rows := matrix([]float64{1, 2, 4}, []float64{5, 6, 8})
	rows[0].Attempted, rows[0].Successful, rows[0].Errored = I(40), I(40), I(0)
	rows[1].Attempted, rows[1].Successful, rows[1].Errored = I(100), I(97), I(3)
	return rows
}

func TestWeakEvidenceNeverHidesAFailure(t *testing.T) {
	m, e := JudgeMatrix(weakMatrix(), testContract(), testObjective(), "")
	if e.State != EnvelopeCeiling || e.Ceiling == nil || *e.Ceiling != 1 || !e.Weak {
		t.Fatalf("envelope = %s %v weak=%v (%s), want a ceiling of 1 on weak evidence", e.State, deref(e.Ceiling), e.Weak, e.Text)
	}
	if e.FirstFailure == nil || *e.FirstFailure != 2 {
		t.Errorf("first failure = %v, want 2", deref(e.FirstFailure))
	}
	for _, want := range []string{
		"ceiling: 1 concurrent stream, on weak evidence",
		"2 concurrent streams does not pass: success 97 %, below 99 %",
		"a measured failure counts whatever its sample",
		"40 successful requests, a p95 needs at least 100",
		"Rerun it with at least 100 successful requests, or amend the contract with a reason",
	} {
		if !strings.Contains(e.Text, want) {
			t.Errorf("text lacks %q:\n%s", want, e.Text)
		}
	}
	byLoad := map[float64]RowResult{}
	for _, rr := range m {
		byLoad[rr.Load] = rr
	}
	if r := byLoad[1]; !r.Inconclusive || r.Counted || !r.InEnvelope {
		t.Errorf("row 1: inconclusive=%v counted=%v in=%v, want an inconclusive ceiling", r.Inconclusive, r.Counted, r.InEnvelope)
	}
	if r := byLoad[2]; !r.Counted || r.Inconclusive || len(r.WeakEvidence) != 1 {
		t.Errorf("row 2: counted=%v inconclusive=%v weak=%v, want a counted failure with weak evidence", r.Counted, r.Inconclusive, r.WeakEvidence)
	}
	if r := byLoad[4]; !r.NonMonotone || r.InEnvelope {
		t.Errorf("row 4: non-monotone=%v in=%v, want a pass above a failure", r.NonMonotone, r.InEnvelope)
	}
	if len(e.Evidence) != 1 || !strings.HasPrefix(e.Evidence[0], "1 concurrent stream proves nothing: 40 successful requests") {
		t.Errorf("evidence = %q", e.Evidence)
	}
	// The admission proposal and the capacity read the same ceiling, and
	// admission does not call the evidence adequate.
	a := ProposeAdmission(m, e, testObjective(), testContract(), AdmissionInput{})
	if a.CeilingInFlight == nil || *a.CeilingInFlight != 1 || len(a.WeakEvidence) == 0 {
		t.Errorf("admission: ceiling %v, weak %q", a.CeilingInFlight, a.WeakEvidence)
	}
	for _, r := range a.Reasons {
		if strings.Contains(r, "evidence is adequate") {
			t.Errorf("admission calls the evidence adequate: %q", r)
		}
	}
	if c := PerBoxCapacity(m, e, 1, testObjective()); c.CeilingRate == nil || *c.CeilingRate != 0.4 {
		t.Errorf("capacity from %v, want the 1-stream row's 0.4 req/s", c.CeilingRate)
	}
}

func TestWeakEvidenceEndsTheEnvelope(t *testing.T) {
	tests := []struct {
		name      string
		rows      func() []Row
		state     EnvelopeState
		ceiling   float64
		stoppedAt float64
		text      []string
	}{
		{name: "a short pass above conclusive passes ends the envelope below it", rows: func() []Row {
			rows := matrix([]float64{1, 2, 4, 8, 10}, []float64{5, 6, 8, 12, 16.2})
			rows[3].DurationS = F(40) // the contract's rows run 60 s
			return rows
		}, state: EnvelopeCeiling, ceiling: 4, stoppedAt: 8, text: []string{
			"demonstrated ceiling: 4 concurrent streams (8 concurrent streams passed but proves nothing: ran 40 s, the contract's rows run 60 s. Rerun it for 60 s, or amend the contract with a reason; 10 concurrent streams does not pass",
		}},
		{name: "every row passes but one is thin: a lower bound below it", rows: func() []Row {
			rows := matrix([]float64{1, 2, 4}, []float64{5, 6, 8})
			rows[2].Successful, rows[2].Attempted = I(60), I(60)
			return rows
		}, state: EnvelopeLowerBound, ceiling: 2, stoppedAt: 4, text: []string{
			"at least 2 concurrent streams: the envelope ends below 4 concurrent streams, which passed but proves nothing: 60 successful requests",
		}},
		{name: "the lowest pass is thin below a conclusive pass: covered", rows: func() []Row {
			rows := matrix([]float64{1, 2}, []float64{5, 6})
			rows[0].Successful, rows[0].Attempted = I(40), I(40)
			return rows
		}, state: EnvelopeLowerBound, ceiling: 2, text: []string{"at least 2 concurrent streams: every counted row passed",
			"1 concurrent stream passed inconclusively below the ceiling and changes nothing: the conclusive pass at 2 concurrent streams covers it"}},
		{name: "every pass is thin and nothing fails: at least the highest, on weak evidence", rows: func() []Row {
			rows := matrix([]float64{1, 2}, []float64{5, 6})
			rows[0].Successful, rows[0].Attempted = I(40), I(40)
			rows[1].Successful, rows[1].Attempted = I(80), I(80)
			return rows
		}, state: EnvelopeLowerBound, ceiling: 2, stoppedAt: 2, text: []string{"at least 2 concurrent streams, on weak evidence: no row passed conclusively"}},
		{name: "a thin failure at the lowest row: no envelope", rows: func() []Row {
			rows := matrix([]float64{1, 2}, []float64{16, 6})
			rows[0].Successful, rows[0].Attempted = I(40), I(40)
			return rows
		}, state: EnvelopeNone, text: []string{"no envelope: the lowest row (1 concurrent stream) does not pass", "whatever its sample"}},
		{name: "an off-contract row stays out, whatever it shows", rows: func() []Row {
			rows := matrix([]float64{1, 2, 4}, []float64{5, 6, 8})
			other := concRow(2, 30)
			other.PromptTokensMean = F(1000) // another workload
			return append(rows, other)
		}, state: EnvelopeLowerBound, ceiling: 4, text: []string{"1 row not counted: 1 with a workload outside the contract's tolerance"}},
		{name: "a conclusive pass beside a thin one at the same load: the level holds", rows: func() []Row {
			rows := matrix([]float64{1, 2, 4}, []float64{5, 6, 16})
			thin := concRow(2, 6)
			thin.Successful, thin.Attempted = I(30), I(30)
			return append(rows, thin)
		}, state: EnvelopeCeiling, ceiling: 2, text: []string{"demonstrated ceiling: 2 concurrent streams (4 concurrent streams does not pass"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, e := JudgeMatrix(tt.rows(), testContract(), testObjective(), "")
			if e.State != tt.state {
				t.Errorf("state = %s, want %s (%s)", e.State, tt.state, e.Text)
			}
			if tt.ceiling > 0 && (e.Ceiling == nil || *e.Ceiling != tt.ceiling) {
				t.Errorf("ceiling = %v, want %v (%s)", deref(e.Ceiling), tt.ceiling, e.Text)
			}
			if tt.stoppedAt > 0 && (e.StoppedAt == nil || *e.StoppedAt != tt.stoppedAt) {
				t.Errorf("stopped at %v, want %v", deref(e.StoppedAt), tt.stoppedAt)
			}
			if e.CeilingRow != nil && m[*e.CeilingRow].Inconclusive != e.Weak {
				t.Errorf("ceiling row inconclusive = %v, envelope weak = %v", m[*e.CeilingRow].Inconclusive, e.Weak)
			}
			for _, want := range tt.text {
				if !strings.Contains(e.Text, want) {
					t.Errorf("text lacks %q:\n%s", want, e.Text)
				}
			}
		})
	}
}

func TestExitCheckFailsAWeakCeiling(t *testing.T) {
	in := Inputs{Contract: testContract(), Rows: weakMatrix()}
	r := Compute(in)
	var item *ExitItem
	for i, it := range r.ExitCheck {
		if it.ID == "weak_ceiling" {
			item = &r.ExitCheck[i]
		}
	}
	if item == nil || item.Pass || !strings.Contains(item.Detail, "the ceiling (1 concurrent stream) rests on weak evidence: 1 concurrent stream proves nothing: 40 successful requests") {
		t.Fatalf("weak_ceiling item = %+v", item)
	}
	in.Rows[0].Attempted, in.Rows[0].Successful = I(200), I(200)
	for _, it := range Compute(in).ExitCheck {
		if it.ID == "weak_ceiling" {
			t.Errorf("a conclusive ceiling still shows %+v", it)
		}
	}
}

// sweep is the usual shape of a fixed-duration sweep: the concurrency-1 row
// holds few requests because each waits for the last. 1 passes on 40
// successful requests, 2 on 78, 4 on 151, 8 on 273; 10 fails p95
// end-to-end.
func sweep() []Row {
	rows := matrix([]float64{1, 2, 4, 8, 10}, []float64{5, 6, 8, 12, 16.2})
	for i, n := range []int{40, 78, 151, 273, 300} {
		rows[i].Attempted, rows[i].Successful, rows[i].Errored = I(n), I(n), I(0)
	}
	return rows
}

func TestSweepShortFirstRowsAreCovered(t *testing.T) {
	m, e := JudgeMatrix(sweep(), testContract(), testObjective(), "")
	if e.State != EnvelopeCeiling || e.Ceiling == nil || *e.Ceiling != 8 || e.Weak {
		t.Fatalf("envelope = %s %v weak=%v (%s), want a demonstrated ceiling of 8", e.State, deref(e.Ceiling), e.Weak, e.Text)
	}
	if len(e.Covered) != 2 || e.Covered[0] != 1 || e.Covered[1] != 2 || len(e.Unproven) != 0 || e.StoppedAt != nil {
		t.Errorf("covered %v, unproven %v, stopped at %v", e.Covered, e.Unproven, deref(e.StoppedAt))
	}
	for _, want := range []string{
		"demonstrated ceiling: 8 concurrent streams (10 concurrent streams does not pass: p95 end-to-end 16.2 s, above the 15 s bound)",
		"1 concurrent stream and 2 concurrent streams passed inconclusively below the ceiling and change nothing: the conclusive pass at 8 concurrent streams covers them",
	} {
		if !strings.Contains(e.Text, want) {
			t.Errorf("text lacks %q:\n%s", want, e.Text)
		}
	}
	for _, rr := range m {
		switch rr.Load {
		case 1, 2:
			if !rr.Inconclusive || !rr.Covered || !rr.InEnvelope || rr.Counted {
				t.Errorf("row %v: inconclusive=%v covered=%v in=%v counted=%v", rr.Load, rr.Inconclusive, rr.Covered, rr.InEnvelope, rr.Counted)
			}
		case 8:
			if m[*e.CeilingRow].Load != 8 || rr.Inconclusive {
				t.Errorf("ceiling row %v", m[*e.CeilingRow].Load)
			}
		}
	}
	// Admission and capacity read the same ceiling, on adequate evidence.
	a := ProposeAdmission(m, e, testObjective(), testContract(), AdmissionInput{})
	if a.CeilingInFlight == nil || *a.CeilingInFlight != 8 {
		t.Errorf("admission ceiling %v", a.CeilingInFlight)
	}
	if r := Compute(Inputs{Contract: testContract(), Rows: sweep()}); r.Envelope.Ceiling == nil || *r.Envelope.Ceiling != 8 {
		t.Errorf("Compute's ceiling %v", deref(r.Envelope.Ceiling))
	} else {
		for _, it := range r.ExitCheck {
			if it.ID == "weak_ceiling" {
				t.Errorf("a conclusive ceiling fails the exit check: %+v", it)
			}
		}
	}
}

func TestInconclusivePassAboveTheCeilingIsNamed(t *testing.T) {
	rows := sweep()
	rows[3].Attempted, rows[3].Successful = I(60), I(60) // 8 now thin
	_, e := JudgeMatrix(rows, testContract(), testObjective(), "")
	if e.Ceiling == nil || *e.Ceiling != 4 || e.Weak || len(e.Unproven) != 1 || e.Unproven[0] != 8 {
		t.Fatalf("envelope %v weak=%v unproven=%v (%s)", deref(e.Ceiling), e.Weak, e.Unproven, e.Text)
	}
	if !strings.Contains(e.Text, "8 concurrent streams passed but proves nothing: 60 successful requests, a p95 needs at least 100") {
		t.Errorf("text: %s", e.Text)
	}
}

func TestAThinFailureStillCounts(t *testing.T) {
	rows := matrix([]float64{1, 2, 4}, []float64{5, 16, 8})
	rows[1].Attempted, rows[1].Successful = I(30), I(30) // fails p95 e2e on 30 requests
	m, e := JudgeMatrix(rows, testContract(), testObjective(), "")
	if e.Ceiling == nil || *e.Ceiling != 1 || e.FirstFailure == nil || *e.FirstFailure != 2 {
		t.Fatalf("envelope %s", e.Text)
	}
	if !strings.Contains(e.Text, "a measured failure counts whatever its sample") || len(e.NonMonotone) != 1 {
		t.Errorf("text %s", e.Text)
	}
	for _, rr := range m {
		if rr.Load == 2 && (!rr.Counted || rr.Inconclusive) {
			t.Errorf("the thin failure: counted=%v inconclusive=%v", rr.Counted, rr.Inconclusive)
		}
	}
}

// withSamples gives a row n successful per-request records whose
// end-to-end times run evenly from lo to hi.
func withSamples(r Row, n int, lo, hi float64) Row {
	r.Samples = make([]Sample, n)
	for i := range r.Samples {
		e2e := lo
		if n > 1 {
			e2e = lo + (hi-lo)*float64(i)/float64(n-1)
		}
		r.Samples[i] = Sample{TTFT: 0.3, E2E: float32(e2e), ITL: 0.02, OutputTokens: 128, OK: true}
	}
	r.Attempted, r.Successful, r.Errored = I(n), I(n), I(0)
	return r
}

func TestConfidenceReplacesTheRequestCount(t *testing.T) {
	rows := matrix([]float64{1, 2, 4}, []float64{1.5, 14.9, 16})
	// 90 requests whose slowest is a tenth of the bound: a conclusive pass.
	rows[0] = withSamples(rows[0], 90, 1, 1.5)
	// 100 requests whose p95 sits a hair under the bound: inconclusive.
	rows[1] = withSamples(rows[1], 100, 10, 15.4)
	m, e := JudgeMatrix(rows, testContract(), testObjective(), "")
	byLoad := map[float64]RowResult{}
	for _, rr := range m {
		byLoad[rr.Load] = rr
	}
	r1, r2 := byLoad[1], byLoad[2]
	if !r1.Counted || r1.Inconclusive || len(r1.Bounds) != 2 || r1.Bounds[1].Verdict != BoundPass {
		t.Errorf("90 fast requests: counted=%v inconclusive=%v bounds=%+v", r1.Counted, r1.Inconclusive, r1.Bounds)
	}
	if r2.Verdict.State != VerdictPass || !r2.Inconclusive || r2.Counted {
		t.Errorf("100 at the bound: verdict %s counted=%v inconclusive=%v", r2.Verdict.State, r2.Counted, r2.Inconclusive)
	}
	if b := r2.Bounds[1]; b.Verdict != BoundInconclusive || b.UpperK != 99 || b.Settle == nil {
		t.Errorf("e2e bound %+v", b)
	} else if !strings.Contains(r2.EvidenceNote, fmt.Sprintf("Rerun it with about %d successful requests", *b.Settle)) ||
		!strings.Contains(r2.EvidenceNote, "p95 end-to-end: 95 % upper bound") {
		t.Errorf("note %q", r2.EvidenceNote)
	}
	if e.Ceiling == nil || *e.Ceiling != 1 || len(e.Unproven) != 1 {
		t.Errorf("envelope %s", e.Text)
	}
	if r1.SuccessInterval == nil || !strings.Contains(r1.SuccessInterval.Text, "95 % CI 95.98 % to 100 %") {
		t.Errorf("success interval %+v", r1.SuccessInterval)
	}
	// A summary-only row says why it has no bound.
	if r3 := byLoad[4]; len(r3.Bounds) != 0 || r3.BoundsNote != SummaryBoundNote {
		t.Errorf("summary row: %+v %q", r3.Bounds, r3.BoundsNote)
	}
}
