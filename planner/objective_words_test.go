package planner

import "testing"

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
