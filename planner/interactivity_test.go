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

	// Output speed is 1/ITL: a row whose p95 ITL is 45 ms but whose p95
	// TPOT, first token included, is 55 ms passes the speed floor of 20
	// tok/s/user and fails a TPOT bound of 50 ms; the page names the
	// definition on the check.
	r := Row{Successful: I(200), Errored: I(0), TTFT: Stat{P95: F(1)}, TPOT: Stat{P95: F(0.055)}, ITL: Stat{P95: F(0.045)}}
	if a := Evaluate(r, o); a.State != VerdictPass {
		t.Errorf("speed floor judged on %s %v, want a pass on ITL 45 ms", a.State, a.Failures)
	} else if c := a.Checks[2]; c.Label != "p95 output speed (as ITL)" || c.Note != SpeedDefinition || !strings.Contains(c.Text, "(22.2 tok/s/user, at least 20)") {
		t.Errorf("speed check %+v", c)
	}
	if b := Evaluate(r, byTPOT); b.State != VerdictFail || !strings.Contains(b.Summary, "p95 TPOT 0.055 s, above the 0.05 s bound") {
		t.Errorf("TPOT bound: %s %v", b.State, b.Failures)
	}
	r.ITL = Stat{P95: F(0.055)}
	if a := Evaluate(r, o); a.State != VerdictFail || !strings.Contains(a.Summary, "p95 output speed (as ITL) 0.055 s, above the 0.05 s bound (18.2 tok/s/user, below 20)") {
		t.Errorf("speed floor on ITL 55 ms: %s", a.Summary)
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
