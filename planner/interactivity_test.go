package planner

import (
	"math"
	"strings"
	"testing"
)

// TestOutputSpeedIsTPOT: 20 tok/s/user is TPOT at most 50 ms, both ways,
// in the objective's text, and the matrix judges the bound it sets
// exactly as the TPOT bound.
func TestOutputSpeedIsTPOT(t *testing.T) {
	o, err := ParseObjective("success>=99%,ttft_p95<=2s,speed_p95>=20tok/s")
	if err != nil {
		t.Fatal(err)
	}
	if o.TPOTMax == nil || *o.TPOTMax != 0.05 || !o.TPOTAsSpeed {
		t.Fatalf("speed_p95>=20tok/s: TPOT %v as speed %v, want 0.05 s", o.TPOTMax, o.TPOTAsSpeed)
	}
	if got := o.String(); got != "success>=99%,ttft_p95<=2s,speed_p95>=20tok/s" {
		t.Errorf("String = %q", got)
	}
	if got, want := o.Interactivity(), "at least 20 tok/s/user at p95 (TPOT at most 50 ms)"; got != want {
		t.Errorf("Interactivity = %q, want %q", got, want)
	}
	byTPOT, _ := ParseObjective("success>=99%,ttft_p95<=2s,tpot_p95<=50ms")
	if got, want := byTPOT.Interactivity(), "TPOT at most 50 ms at p95 (at least 20 tok/s/user)"; got != want {
		t.Errorf("Interactivity = %q, want %q", got, want)
	}
	// 30 tok/s/user round-trips through the text (amendments store it).
	o30, err := ParseObjective("success>=99%,speed_p95>=30tok/s/user")
	if err != nil {
		t.Fatal(err)
	}
	again, err := ParseObjective(o30.String())
	if err != nil || again.String() != o30.String() || math.Abs(*again.TPOTMax-1.0/30) > 1e-15 {
		t.Errorf("30 tok/s/user: %q reads back as %q (%v)", o30.String(), again.String(), err)
	}
	if got := o30.Interactivity(); got != "at least 30 tok/s/user at p95 (TPOT at most 33.3 ms)" {
		t.Errorf("30 tok/s/user: %q", got)
	}

	// One judging rule: a row with p95 TPOT 55 ms fails either way, one
	// with 45 ms passes either way, with the same criterion.
	for _, tpot := range []float64{0.045, 0.055} {
		r := Row{Successful: I(200), Errored: I(0), TTFT: Stat{P95: F(1)}, TPOT: Stat{P95: F(tpot)}}
		a, b := Evaluate(r, o), Evaluate(r, byTPOT)
		if a.State != b.State || strings.Join(a.Failures, ";") != strings.Join(b.Failures, ";") {
			t.Errorf("TPOT %v: judged %s %v as speed, %s %v as TPOT", tpot, a.State, a.Failures, b.State, b.Failures)
		}
		if want := tpot < 0.05; (a.State == VerdictPass) != want {
			t.Errorf("TPOT %v: %s %v", tpot, a.State, a.Failures)
		}
	}
}

// TestOutputSpeedRefused: zero, negative, NaN and infinite speeds are
// refused in the user's words; speed and TPOT together are one bound
// given twice.
func TestOutputSpeedRefused(t *testing.T) {
	for _, in := range []string{"speed_p95>=0tok/s", "speed_p95>=-5tok/s", "speed_p95>=NaNtok/s", "speed_p95>=Inftok/s"} {
		_, err := ParseObjective("success>=99%," + in)
		if err == nil || !strings.Contains(err.Error(), "output speed per user must be a positive number of tokens per second") {
			t.Errorf("%s: error %v", in, err)
		}
	}
	for _, v := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if _, err := TPOTForSpeed(v); err == nil {
			t.Errorf("TPOTForSpeed(%v) accepted", v)
		}
	}
	if _, err := ParseObjective("success>=99%,speed_p95>=20tok/s,tpot_p95<=50ms"); err == nil || !strings.Contains(err.Error(), "give one of the two") {
		t.Errorf("speed and TPOT: %v", err)
	}
	if _, err := ParseObjective("success>=99%,speed_p95<=20tok/s"); err == nil || !strings.Contains(err.Error(), "use >=") {
		t.Errorf("speed with <=: %v", err)
	}
	if _, err := ParseObjective("success>=99%,speed_p95>=20"); err == nil || !strings.Contains(err.Error(), "tok/s") {
		t.Errorf("speed without unit: %v", err)
	}
	// Lowering the floor loosens the objective, in the words it was given.
	prev, _ := ParseObjective("success>=99%,speed_p95>=20tok/s")
	next, _ := ParseObjective("success>=99%,speed_p95>=15tok/s")
	loose, why := Loosened(prev, next)
	if !loose || len(why) != 1 || !strings.Contains(why[0], "output speed floor lowered from 20 to 15 tok/s/user") {
		t.Errorf("Loosened = %v %v", loose, why)
	}
}
