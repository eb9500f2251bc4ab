package planner

import (
	"reflect"
	"strings"
	"testing"
)

func TestEnvelope(t *testing.T) {
	tests := []struct {
		name            string
		rows            func() []Row
		wantState       EnvelopeState
		wantCeiling     *float64
		wantNonMonotone []float64
		wantText        string
	}{
		{name: "10 fails p95 latency: ceiling 8", rows: func() []Row {
			return matrix([]float64{1, 2, 4, 8, 10}, []float64{5, 6, 8, 12, 16.2})
		}, wantState: EnvelopeCeiling, wantCeiling: F(8), wantText: "demonstrated ceiling: 8 concurrent streams (10 concurrent streams does not pass: p95 end-to-end 16.2 s, above the 15 s bound)"},
		{name: "rows out of order are sorted", rows: func() []Row {
			return matrix([]float64{10, 4, 1, 8, 2}, []float64{16.2, 8, 5, 12, 6})
		}, wantState: EnvelopeCeiling, wantCeiling: F(8)},
		{name: "all pass: a lower bound", rows: func() []Row {
			return matrix([]float64{1, 2, 4, 8, 10}, []float64{5, 6, 8, 12, 14})
		}, wantState: EnvelopeLowerBound, wantCeiling: F(10), wantText: "at least 10 concurrent streams"},
		{name: "first row fails: no envelope", rows: func() []Row {
			return matrix([]float64{1, 2, 4}, []float64{16, 17, 18})
		}, wantState: EnvelopeNone, wantText: "no envelope: the lowest row (1 concurrent stream) does not pass"},
		{name: "a pass above a failure is non-monotone", rows: func() []Row {
			return matrix([]float64{1, 2, 4, 8, 10}, []float64{5, 6, 16, 12, 14})
		}, wantState: EnvelopeCeiling, wantCeiling: F(2), wantNonMonotone: []float64{8, 10}, wantText: "non-monotone: 8, 10"},
		{name: "a stopped row counts as not passing", rows: func() []Row {
			rows := matrix([]float64{1, 2, 4, 8}, []float64{5, 6, 8, 12})
			rows[2].Observed.Stopped, rows[2].Observed.StopReason = true, "operator stop: temperature"
			return rows
		}, wantState: EnvelopeCeiling, wantCeiling: F(2), wantNonMonotone: []float64{8}, wantText: "stopped: operator stop: temperature"},
		{name: "a not-judged row stops the envelope", rows: func() []Row {
			rows := matrix([]float64{1, 2, 4}, []float64{5, 6, 8})
			rows[1].Observed.Headroom = nil
			return rows
		}, wantState: EnvelopeCeiling, wantCeiling: F(1), wantNonMonotone: []float64{4}},
		{name: "no rows", rows: func() []Row { return nil }, wantState: EnvelopeNoRows},
		{name: "a failing second run at a load fails the level, whatever the order", rows: func() []Row {
			rows := matrix([]float64{1, 2, 4, 8, 10}, []float64{5, 6, 8, 12, 16.2})
			return append(rows, concRow(8, 15.5)) // a second file: 8 streams failed there
		}, wantState: EnvelopeCeiling, wantCeiling: F(4), wantText: "8 concurrent streams does not pass: p95 end-to-end 15.5 s, above the 15 s bound, in one of its 2 rows"},
		{name: "the failing run first: the same answer", rows: func() []Row {
			rows := []Row{concRow(8, 15.5)}
			return append(rows, matrix([]float64{1, 2, 4, 8, 10}, []float64{5, 6, 8, 12, 16.2})...)
		}, wantState: EnvelopeCeiling, wantCeiling: F(4)},
		{name: "rows of another kind are not counted, and said so", rows: func() []Row {
			rows := matrix([]float64{1, 2, 4}, []float64{5, 6, 8})
			r := concRow(3, 30)
			r.LoadKind = LoadRate
			return append(rows, r)
		}, wantState: EnvelopeLowerBound, wantCeiling: F(4), wantText: "every counted row passed, so the true ceiling was not reached; 1 row not counted: 1 of another load kind"},
		{name: "a row with no known load is not counted, and said so", rows: func() []Row {
			rows := matrix([]float64{1, 2}, []float64{5, 6})
			r := concRow(0, 30)
			r.Load, r.AchievedConcurrency = nil, nil
			return append(rows, r)
		}, wantState: EnvelopeLowerBound, wantCeiling: F(2), wantText: "1 row not counted: 1 with no known load"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, e := JudgeMatrix(tt.rows(), testContract(), testObjective(), "")
			if e.State != tt.wantState {
				t.Errorf("state = %s (%s), want %s", e.State, e.Text, tt.wantState)
			}
			if !reflect.DeepEqual(e.Ceiling, tt.wantCeiling) {
				t.Errorf("ceiling = %v, want %v", deref(e.Ceiling), deref(tt.wantCeiling))
			}
			if !reflect.DeepEqual(e.NonMonotone, tt.wantNonMonotone) {
				t.Errorf("non-monotone = %v, want %v", e.NonMonotone, tt.wantNonMonotone)
			}
			if !strings.Contains(e.Text, tt.wantText) {
				t.Errorf("text = %q, want it to contain %q", e.Text, tt.wantText)
			}
			for i := 1; i < len(m); i++ {
				if m[i].LoadKnown && m[i].Row.LoadKind == m[i-1].Row.LoadKind && m[i].Load < m[i-1].Load { // other kinds, then unknown loads, go last
					t.Errorf("matrix not ordered by load at %d", i)
				}
			}
			if e.CeilingRow != nil && m[*e.CeilingRow].Load != *e.Ceiling {
				t.Errorf("ceiling row has load %v", m[*e.CeilingRow].Load)
			}
			if len(m) != len(tt.rows()) {
				t.Errorf("matrix has %d rows, want every row (stopped ones too)", len(m))
			}
		})
	}
}

func deref(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}

func TestEnvelopeSynchronousFirstRow(t *testing.T) {
	rows := matrix([]float64{1, 2, 4}, []float64{5, 6, 16})
	rows[0].LoadKind = LoadSynchronous
	_, e := JudgeMatrix(rows, testContract(), testObjective(), "")
	if e.LoadKind != LoadConcurrency || !strings.Contains(e.Text, "demonstrated ceiling: 2 concurrent streams") {
		t.Errorf("envelope = %s (%s)", e.Text, e.LoadKind)
	}
}

// NotCountedSummary tallies each row once by its first reason, reasons in
// the order they first appear; a row without a reason is "not matching
// the contract".
func TestNotCountedSummary(t *testing.T) {
	row := func(codes ...string) RowResult {
		var rr RowResult
		for _, c := range codes {
			rr.NotCounted = append(rr.NotCounted, Warning{Code: c})
		}
		return rr
	}
	for _, tt := range []struct {
		rows []RowResult
		want string
	}{
		{[]RowResult{row("model-mismatch")}, "1 row not counted: 1 of another model"},
		{[]RowResult{row("model-mismatch", "short-row"), row("load-kind-mismatch"), row("model-mismatch"), row("model-mismatch")},
			"4 rows not counted: 3 of another model, 1 of another load kind"},
		{[]RowResult{row("short-row"), row()}, "2 rows not counted: 1 shorter than the contract's rows, 1 not matching the contract"},
	} {
		if got := NotCountedSummary(tt.rows); got != tt.want {
			t.Errorf("NotCountedSummary = %q, want %q", got, tt.want)
		}
	}
}
