package planner

import (
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
		"2 concurrent streams does not pass: success 97 % < 99 %",
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
		{name: "the lowest pass is thin and nothing fails: at least it, on weak evidence", rows: func() []Row {
			rows := matrix([]float64{1, 2}, []float64{5, 6})
			rows[0].Successful, rows[0].Attempted = I(40), I(40)
			return rows
		}, state: EnvelopeLowerBound, ceiling: 1, stoppedAt: 1, text: []string{"at least 1 concurrent stream, on weak evidence"}},
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
