package planner

import (
	"strings"
	"testing"
)

// qwenRow is the 4-request row of a Qwen3-4B sanity run: another model, 4
// requests at concurrency 4, 99 prompt and 1,024 output tokens, 24.9 s.
func qwenRow() Row {
	r := concRow(4, 24.9)
	r.Model = "Qwen/Qwen3-4B-Thinking-2507"
	r.Attempted, r.Successful, r.Errored, r.Incomplete = I(4), I(4), I(0), I(0)
	r.DurationS = F(24.9)
	r.RequestRate = F(0.1204)
	r.PromptTokensMean, r.OutputTokensMean = F(99), F(1024)
	r.E2E = Stat{Mean: F(24.9), P50: F(24.9), P95: F(24.9), P99: F(24.9), N: 4}
	return r
}

func TestEligibility(t *testing.T) {
	c := testContract() // llama-3.1-8b-instruct, 256/128 tokens, concurrency, 60 s rows, p95
	tests := []struct {
		name  string
		row   func() Row
		model string
		want  []string // codes, in order
		text  string
	}{
		{name: "a row that matches counts", row: func() Row { return concRow(8, 12) }, model: c.BaselineModel},
		{name: "another model", row: func() Row { r := concRow(8, 12); r.Model = "Qwen/Qwen3-4B"; return r }, model: c.BaselineModel,
			want: []string{"model-mismatch"}, text: "model Qwen/Qwen3-4B, not the contract's llama-3.1-8b-instruct"},
		{name: "the model named with its organisation matches", row: func() Row { r := concRow(8, 12); r.Model = "meta-llama/Llama-3.1-8B-Instruct"; return r },
			model: c.BaselineModel},
		{name: "a model the file does not name is not a mismatch", row: func() Row { r := concRow(8, 12); r.Model = ""; return r }, model: c.BaselineModel},
		{name: "a rate row in a concurrency contract", row: func() Row { r := concRow(8, 12); r.LoadKind = LoadRate; return r },
			want: []string{"load-kind-mismatch"}, text: "load kind rate, the contract's is concurrency"},
		{name: "a synchronous row is concurrency 1", row: func() Row { r := concRow(1, 5); r.LoadKind = LoadSynchronous; return r }},
		{name: "no known load", row: func() Row { r := concRow(8, 12); r.Load, r.AchievedConcurrency = nil, nil; return r },
			want: []string{"load-unknown"}},
		{name: "output 239 vs contract 128", row: func() Row { r := concRow(8, 12); r.OutputTokensMean = F(239); return r },
			want: []string{"workload-mismatch"}, text: "mean output tokens 239 vs the contract's 128 (+87 %, tolerance ±10 %)"},
		{name: "output within 10 %", row: func() Row { r := concRow(8, 12); r.OutputTokensMean = F(140.8); return r }},
		{name: "prompt 12 % short", row: func() Row { r := concRow(8, 12); r.PromptTokensMean = F(225); return r },
			want: []string{"workload-mismatch"}, text: "mean prompt tokens 225 vs the contract's 256 (-12 %, tolerance ±10 %)"},
		{name: "identical prompts where varied were promised", row: func() Row { r := concRow(8, 12); r.IdenticalPrompts = boolp(true); return r },
			want: []string{"identical-prompts"}},
		{name: "99 requests are too few for a p95", row: func() Row { r := concRow(8, 12); r.Successful = I(99); return r },
			want: []string{"few-requests"}, text: "99 successful requests, a p95 needs at least 100"},
		{name: "100 requests are enough for a p95", row: func() Row { r := concRow(8, 12); r.Successful = I(100); return r }},
		{name: "a row shorter than the contract's 60 s", row: func() Row { r := concRow(8, 12); r.DurationS = F(45); return r },
			want: []string{"short-row"}, text: "ran 45 s, the contract's rows run 60 s"},
		{name: "57 s is within the slack", row: func() Row { r := concRow(8, 12); r.DurationS = F(57); return r }},
		{name: "a stopped row keeps counting however short", row: func() Row {
			r := concRow(10, 30)
			r.Successful, r.DurationS, r.Observed.Stopped = I(12), F(9), true
			return r
		}},
		{name: "the 4-request Qwen row fails on every count", row: qwenRow, model: c.BaselineModel,
			want: []string{"model-mismatch", "workload-mismatch", "workload-mismatch", "few-requests", "short-row"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Eligibility(tt.row(), c, tt.model, LoadConcurrency)
			var codes []string
			var msgs []string
			for _, w := range got {
				codes = append(codes, w.Code)
				msgs = append(msgs, w.Message)
			}
			if strings.Join(codes, ",") != strings.Join(tt.want, ",") {
				t.Fatalf("codes = %v, want %v (%q)", codes, tt.want, msgs)
			}
			if tt.text != "" && !strings.Contains(strings.Join(msgs, "; "), tt.text) {
				t.Errorf("reasons %q lack %q", msgs, tt.text)
			}
		})
	}
}

func TestEligibilityToleranceIsPartOfTheContract(t *testing.T) {
	c := testContract()
	r := concRow(8, 12)
	r.OutputTokensMean = F(150) // +17 %
	if got := Eligibility(r, c, "", LoadConcurrency); len(got) != 1 {
		t.Fatalf("at the default 10 %%: %v", got)
	}
	c.Workload.Tolerance = 0.20
	if got := Eligibility(r, c, "", LoadConcurrency); len(got) != 0 {
		t.Fatalf("at 20 %%: %v", got)
	}
}

func TestEligibilityEvidenceFollowsThePercentile(t *testing.T) {
	c := testContract()
	c.Objective.Percentile = 99
	r := concRow(8, 12) // 200 successful
	got := Eligibility(r, c, "", LoadConcurrency)
	if len(got) != 1 || got[0].Code != "few-requests" || !strings.Contains(got[0].Message, "a p99 needs at least 500") {
		t.Fatalf("p99 with 200 requests: %v", got)
	}
}

// TestOffContractRowsLeaveTheCeiling: the demo matrix (1, 2, 4, 8, 10; 10
// fails) keeps its ceiling of 8, its max in flight of 8 and its capacity
// when the 4-request Qwen row arrives at load 4; the row is shown, not
// counted, after the counted rows, and load 8 is not called non-monotone.
func TestOffContractRowsLeaveTheCeiling(t *testing.T) {
	in := demoInputs()
	before := Compute(in)
	in.Rows = append(in.Rows, qwenRow())
	after := Compute(in)
	if after.Envelope.Ceiling == nil || *after.Envelope.Ceiling != 8 || after.Envelope.State != EnvelopeCeiling {
		t.Fatalf("envelope = %s", after.Envelope.Text)
	}
	if len(after.Envelope.NonMonotone) != 0 {
		t.Errorf("non-monotone = %v", after.Envelope.NonMonotone)
	}
	if *after.Admission.MaxInFlight != 8 {
		t.Errorf("max in flight = %d", *after.Admission.MaxInFlight)
	}
	if *after.Capacity.PerBoxRate != *before.Capacity.PerBoxRate {
		t.Errorf("capacity %v, was %v", *after.Capacity.PerBoxRate, *before.Capacity.PerBoxRate)
	}
	last := after.Matrix[len(after.Matrix)-1]
	if last.Counted || last.Row.Model != "Qwen/Qwen3-4B-Thinking-2507" || len(last.NotCounted) == 0 {
		t.Fatalf("last row = %+v", last)
	}
	for i, rr := range after.Matrix[:len(after.Matrix)-1] {
		if !rr.Counted {
			t.Errorf("row %d (load %v) not counted: %s", i, rr.Load, rr.NotCountedText())
		}
	}
	if !strings.Contains(after.Envelope.Text, "1 row not counted: 1 of another model") {
		t.Errorf("envelope text = %q", after.Envelope.Text)
	}
}

// TestRowsOutsideTheWorkloadDoNotFormTheEnvelope: rows whose output is 239
// tokens against the contract's 128 are not counted, so the envelope they
// would form is not shown.
func TestRowsOutsideTheWorkloadDoNotFormTheEnvelope(t *testing.T) {
	in := demoInputs()
	for i := range in.Rows {
		in.Rows[i].OutputTokensMean = F(239)
	}
	r := Compute(in)
	if r.Envelope.Ceiling != nil || r.Admission.MaxInFlight != nil || r.Capacity.PerBoxRate != nil {
		t.Fatalf("envelope %s, admission %v, capacity %v", r.Envelope.Text, r.Admission.MaxInFlight, r.Capacity.PerBoxRate)
	}
	if !strings.Contains(r.Envelope.Text, "5 rows not counted: 5 with a workload outside the contract's tolerance") {
		t.Errorf("envelope text = %q", r.Envelope.Text)
	}
}
