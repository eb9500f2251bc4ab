package planner

import (
	"reflect"
	"strings"
	"testing"
)

func TestEvaluate(t *testing.T) {
	tests := []struct {
		name         string
		row          func() Row
		wantState    VerdictState
		wantFailures []string
		wantMissing  []string
	}{
		{name: "pass", row: func() Row { return concRow(8, 12.1) }, wantState: VerdictPass},
		{name: "p95 end-to-end too slow", row: func() Row { return concRow(10, 16.2) },
			wantState: VerdictFail, wantFailures: []string{"p95 end-to-end 16.2 s, above the 15 s bound"}},
		{name: "errors stay in the denominator", row: func() Row {
			r := concRow(4, 10)
			r.Successful, r.Errored, r.Incomplete = I(197), I(3), I(40)
			return r
		}, wantState: VerdictFail, wantFailures: []string{"success 98.5 %, below 99 %"}},
		{name: "headroom fails the row", row: func() Row {
			r := concRow(8, 12)
			r.Observed.Headroom = F(0.08)
			return r
		}, wantState: VerdictFail, wantFailures: []string{"memory headroom 8 %, below 10 %"}},
		{name: "OOM fails the row", row: func() Row {
			r := concRow(8, 12)
			r.Observed.OOM = true
			return r
		}, wantState: VerdictFail, wantFailures: []string{"out-of-memory error"}},
		{name: "missing p95 is not judged", row: func() Row {
			r := concRow(8, 12)
			r.E2E.P95 = nil
			return r
		}, wantState: VerdictNotJudged, wantMissing: []string{"p95 end-to-end"}},
		{name: "missing headroom is not judged", row: func() Row {
			r := concRow(8, 12)
			r.Observed.Headroom = nil
			return r
		}, wantState: VerdictNotJudged, wantMissing: []string{"memory headroom"}},
		{name: "a failure outranks a missing figure", row: func() Row {
			r := concRow(8, 20)
			r.TTFT.P95 = nil
			return r
		}, wantState: VerdictFail, wantFailures: []string{"p95 end-to-end 20 s, above the 15 s bound"}, wantMissing: []string{"p95 TTFT"}},
		{name: "stopped", row: func() Row {
			r := concRow(10, 30)
			r.Observed.Stopped, r.Observed.StopReason = true, "5 errors"
			return r
		}, wantState: VerdictStopped, wantFailures: []string{"p95 end-to-end 30 s, above the 15 s bound"}},
		{name: "no completed request fails", row: func() Row {
			r := concRow(10, 12)
			r.Successful, r.Errored = I(0), I(0)
			return r
		}, wantState: VerdictFail, wantFailures: []string{"success: no completed requests"}},
		{name: "errored count missing", row: func() Row {
			r := concRow(8, 12)
			r.Errored = nil
			return r
		}, wantState: VerdictNotJudged, wantMissing: []string{"the errored count: the tool does not record failures"}},
		{name: "successful count missing", row: func() Row {
			r := concRow(8, 12)
			r.Successful = nil
			return r
		}, wantState: VerdictNotJudged, wantMissing: []string{"the successful count: the tool does not record successes"}},
		{name: "both counts missing", row: func() Row {
			r := concRow(8, 12)
			r.Successful, r.Errored = nil, nil
			return r
		}, wantState: VerdictNotJudged, wantMissing: []string{"the successful and errored counts"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Evaluate(tt.row(), testObjective())
			if v.State != tt.wantState {
				t.Errorf("state = %s (%s), want %s", v.State, v.Summary, tt.wantState)
			}
			if !reflect.DeepEqual(v.Failures, tt.wantFailures) {
				t.Errorf("failures = %q, want %q", v.Failures, tt.wantFailures)
			}
			if !reflect.DeepEqual(v.Missing, tt.wantMissing) {
				t.Errorf("missing = %q, want %q", v.Missing, tt.wantMissing)
			}
		})
	}
}

func TestEvaluateOptionalBounds(t *testing.T) {
	o := testObjective()
	o.TPOTMax = F(0.05)
	r := concRow(8, 12)
	v := Evaluate(r, o)
	if v.State != VerdictNotJudged || !reflect.DeepEqual(v.Missing, []string{"p95 TPOT"}) {
		t.Fatalf("TPOT bound without a TPOT figure: %s %q", v.State, v.Missing)
	}
	r.TPOT.P95 = F(0.04)
	if v := Evaluate(r, o); v.State != VerdictPass {
		t.Fatalf("TPOT within bound: %s", v.Summary)
	}
}

func TestCheckRow(t *testing.T) {
	c := testContract()
	tests := []struct {
		name  string
		row   func() Row
		want  []string // warning codes
		model string
	}{
		{name: "matches", row: func() Row { return concRow(8, 12) }, want: nil, model: "llama-3.1-8b-instruct"},
		{name: "other model", row: func() Row { r := concRow(8, 12); r.Model = "qwen2.5-7b"; return r }, want: []string{"model-mismatch"}, model: "llama-3.1-8b-instruct"},
		{name: "other tool", row: func() Row { r := concRow(8, 12); r.Source.Format = "vllm"; return r }, want: []string{"tool-mismatch"}},
		{name: "prompt shape 20 % off", row: func() Row { r := concRow(8, 12); r.PromptTokensMean = F(310); return r }, want: []string{"workload-mismatch"}},
		{name: "prompt shape 5 % off", row: func() Row { r := concRow(8, 12); r.PromptTokensMean = F(268); return r }},
		{name: "identical prompts", row: func() Row { r := concRow(8, 12); r.IdenticalPrompts = boolp(true); return r }, want: []string{"identical-prompts"}},
		{name: "rate row in a concurrency contract", row: func() Row { r := concRow(8, 12); r.LoadKind = LoadRate; return r }, want: []string{"load-kind-mismatch"}},
		{name: "too few for p95", row: func() Row { r := concRow(1, 12); r.Successful = I(40); return r }, want: []string{"few-requests"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, w := range CheckRow(tt.row(), c, tt.model) {
				got = append(got, w.Code)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("warnings = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestMinRequestsFor(t *testing.T) {
	for p, want := range map[float64]int{50: 10, 95: 100, 99: 500} {
		if got := MinRequestsFor(p); got != want {
			t.Errorf("MinRequestsFor(%v) = %d, want %d", p, got, want)
		}
	}
	if !strings.Contains(fmtNum(16.2), "16.2") || fmtNum(157.07) != "157.1" || fmtNum(0.05234) != "0.05234" || fmtNum(10000) != "10000" {
		t.Errorf("fmtNum: %s %s %s %s", fmtNum(16.2), fmtNum(157.07), fmtNum(0.05234), fmtNum(10000))
	}
}
