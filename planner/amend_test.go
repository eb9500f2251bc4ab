package planner

import (
	"errors"
	"testing"
)

func TestAmend(t *testing.T) {
	prev := Contract{
		Environment: "staging", Service: "chat", ReleaseRevision: "r1", BaselineModel: "m", Artifact: "a", ArtifactHash: "h",
		VLLMVersion: "v", BenchmarkTool: "guidellm", ToolVersion: "0.5", Driver: "d", Device: "H100", Host: "gpu-1",
		Workload: Workload{PromptTokens: 512, OutputTokens: 256, Data: "synthetic", Prompts: "varied"},
		LoadKind: LoadConcurrency, Loads: []float64{1, 2, 4}, RowDurationS: 60, StopAfterErrors: 5,
		Objective:         Objective{Percentile: 95, MinSuccess: 0.99, TTFTMax: F(2)},
		Owners:            Owners{TestOwner: "A", Observer: "B", StopAuthority: "A", Window: "today"},
		AdmissionProposal: "max 8 in flight", Rollback: "revert the route",
	}
	if m := prev.Missing(); len(m) > 0 {
		t.Fatalf("the base contract should be complete, misses %v", m)
	}
	looser := prev
	looser.Objective.TTFTMax = F(3)
	tighter := prev
	tighter.Objective.TTFTMax = F(1)
	rows := prev
	rows.Loads = []float64{1, 2, 4, 8}
	notes := prev
	notes.Host = "gpu-2"
	incomplete := prev
	incomplete.Host = ""

	for _, tc := range []struct {
		name       string
		next       Contract
		reason     string
		fields     []string // amended fields
		loosened   bool
		refusedFor []string // fields refused
	}{
		{"a loosened objective", looser, "product asked", []string{"objective"}, true, nil},
		{"a tightened objective", tighter, "stricter SLO", []string{"objective"}, false, nil},
		{"more rows", rows, "one more level", []string{"rows"}, false, nil},
		{"no reason", looser, "  ", []string{"objective"}, true, []string{"reason"}},
		{"not an amendment", notes, "", nil, false, nil},
		{"an incomplete contract", incomplete, "", nil, false, []string{"contract"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Amend(prev, tc.next, true, tc.reason)
			if len(got) != len(tc.fields) {
				t.Fatalf("amendments %+v, want fields %v", got, tc.fields)
			}
			for i, a := range got {
				if a.Field != tc.fields[i] || !a.ResultsExisted || a.Loosened != tc.loosened || a.OldValue == a.NewValue {
					t.Errorf("amendment %+v, want field %s loosened %v", a, tc.fields[i], tc.loosened)
				}
			}
			var fes FieldErrors
			if len(tc.refusedFor) == 0 {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if !errors.As(err, &fes) || len(fes) != len(tc.refusedFor) {
				t.Fatalf("err %v, want refusals of %v", err, tc.refusedFor)
			}
			for i, fe := range fes {
				if fe.Field != tc.refusedFor[i] {
					t.Errorf("refused %s, want %s", fe.Field, tc.refusedFor[i])
				}
			}
		})
	}
}
