package planner

import (
	"strings"
	"testing"
)

func TestObjectiveSentence(t *testing.T) {
	o, err := ParseObjective("success>=99%,ttft_p95<=2s,e2e_p95<=10s,tpot_p95<=50ms,headroom>=10%,no_oom")
	if err != nil {
		t.Fatal(err)
	}
	want := "99 % of requests succeed; 95 % of first tokens within 2 s; 95 % of whole answers within 10 s; " +
		"95 % of answers take at most 50 ms per output token; at least 10 % of device memory left free at peak; no out-of-memory error or restart"
	if got := o.Sentence(); got != want {
		t.Errorf("Sentence() =\n%q\nwant\n%q", got, want)
	}
	if got := (Objective{}).Sentence(); got != "" {
		t.Errorf("empty objective: %q", got)
	}
	s, err := ParseObjective("success>=99.5%,speed_p99>=20tok/s")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.Sentence(), "99.5 % of requests succeed; 99 % of answers stream at least 20 tokens a second to each user"; got != want {
		t.Errorf("speed objective: %q, want %q", got, want)
	}
}

// The exit check's objective item and /compare's difference state the
// objective in words, not in its syntax.
func TestObjectiveInWordsOnExitCheckAndCompare(t *testing.T) {
	r := Compute(demoInputs())
	it, ok := exitItemOf(r, "objective")
	if !ok || !it.Pass {
		t.Fatalf("objective item: %+v", it)
	}
	if it.Detail != r.Objective.Sentence() || !strings.Contains(it.Detail, "of requests succeed") || strings.Contains(it.Detail, ">=") {
		t.Errorf("exit check's objective = %q, want the sentence %q", it.Detail, r.Objective.Sentence())
	}

	a := compareSubject("baseline", 8, 8, 3.2, 3000, 600, "25", "varied")
	b := compareSubject("FP8", 10, 10, 4.0, 4500, 625, "20", "varied")
	a.Result.Objective, _ = ParseObjective("success>=99%,ttft_p95<=2s")
	b.Result.Objective, _ = ParseObjective("success>=99%,ttft_p95<=3s")
	a.Result.ObjectiveText, b.Result.ObjectiveText = a.Result.Objective.String(), b.Result.Objective.String()
	got, err := Compare([]CompareSubject{a, b}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Differences) != 1 || got.Differences[0].What != "objective" {
		t.Fatalf("differences = %+v", got.Differences)
	}
	if v := got.Differences[0].Values; v[0] != "99 % of requests succeed; 95 % of first tokens within 2 s" || v[1] != "99 % of requests succeed; 95 % of first tokens within 3 s" {
		t.Errorf("objectives compared = %q", v)
	}
	b.Result.Objective, b.Result.ObjectiveText = a.Result.Objective, a.Result.ObjectiveText
	if got.Objective != "" {
		t.Errorf("differing objectives stated as one: %q", got.Objective)
	}
	if got, _ := Compare([]CompareSubject{a, b}, 0); len(got.Differences) != 0 || got.Objective != "99 % of requests succeed; 95 % of first tokens within 2 s" {
		t.Errorf("one objective: differences %+v, stated %q", got.Differences, got.Objective)
	}
}
