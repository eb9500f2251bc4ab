package planner

import (
	"math"
	"strings"
	"testing"
)

// soakHours is the six-hour table of a soak behind an admission limit of 157.
func soakHours() []SoakHour {
	h := func(n int, req, r429, failed int64, inSLO, ttft, tpot float64) SoakHour {
		return SoakHour{Hour: n, Requests: req, Rejected429: r429, Failed: failed, InSLO: F(inSLO), TTFTP99: F(ttft), TPOTP99: F(tpot)}
	}
	return []SoakHour{
		h(1, 17422, 2164, 1, 0.9999, 0.271, 0.0375),
		h(2, 26748, 2444, 3, 1.0000, 0.286, 0.0373),
		h(3, 36421, 3108, 2, 0.9995, 0.326, 0.0386),
		h(4, 36480, 2834, 1, 0.9995, 0.338, 0.0395),
		h(5, 27347, 2216, 2, 0.9996, 0.295, 0.0366),
		h(6, 17622, 1831, 0, 0.9997, 0.279, 0.0380),
	}
}

func TestJudgeSoakTotals(t *testing.T) {
	r := JudgeSoak(&Soak{Hours: soakHours()})
	// 162,040 requests - 14,597 deliberate 429s - 9 failures = 147,434 successes.
	if r.Requests != 162040 || r.Rejected429 != 14597 || r.Failures != 9 || r.Successes != 147434 {
		t.Fatalf("totals = %d requests, %d 429s, %d failed, %d succeeded", r.Requests, r.Rejected429, r.Failures, r.Successes)
	}
	// 147,434 / (147,434 + 9) = 0.999939 -> 99.994 %.
	if r.Availability == nil || math.Abs(*r.Availability-147434.0/147443.0) > 1e-12 {
		t.Fatalf("availability = %v", r.Availability)
	}
	if got := math.Round(*r.Availability*1e5) / 1e3; got != 99.994 {
		t.Errorf("availability shown = %.3f %%, want 99.994 %%", got)
	}
	// In-SLO share weighted by accepted requests (15,258; 24,304; 33,313;
	// 33,646; 25,131; 15,791 = 147,443): 147,393.2 / 147,443 = 99.966 %, shown 99.97 %.
	want := (15258*0.9999 + 24304*1.0 + 33313*0.9995 + 33646*0.9995 + 25131*0.9996 + 15791*0.9997) / 147443
	if r.InSLO == nil || math.Abs(*r.InSLO-want) > 1e-12 {
		t.Fatalf("in-SLO = %v, want %v", r.InSLO, want)
	}
	if got := math.Round(*r.InSLO*1e4) / 1e2; got != 99.97 {
		t.Errorf("in-SLO shown = %.2f %%, want 99.97 %%", got)
	}
}

func TestJudgeSoakAvailabilityIgnores429s(t *testing.T) {
	// Doubling the deliberate rejections changes nothing in availability.
	hours := soakHours()
	a := JudgeSoak(&Soak{Hours: hours})
	for i := range hours {
		hours[i].Requests += hours[i].Rejected429
		hours[i].Rejected429 *= 2
	}
	b := JudgeSoak(&Soak{Hours: hours})
	if *a.Availability != *b.Availability || b.Rejected429 != 2*14597 {
		t.Errorf("availability moved with 429s: %v -> %v", *a.Availability, *b.Availability)
	}
}

func TestSoakDrift(t *testing.T) {
	// Hour 6 ran at a load like hour 1's (15,791 vs 15,258 accepted, 3.5 %
	// apart); its TTFT p99 279 ms is 3 % worse than 271 ms: no drift. The
	// peak hours are 25 % slower but at twice the load: not compared.
	r := JudgeSoak(&Soak{Hours: soakHours()})
	if r.DriftFlagged {
		t.Fatalf("drift flagged: %+v", r.Drift)
	}
	if len(r.Drift) != 2 || r.Drift[0].Hour != 6 {
		t.Fatalf("drift compared %+v, want hour 6 TTFT and TPOT only", r.Drift)
	}
	// Hour 6's TTFT p99 at 340 ms is 25.5 % worse: flagged.
	hours := soakHours()
	hours[5].TTFTP99 = F(0.340)
	r = JudgeSoak(&Soak{Hours: hours})
	if !r.DriftFlagged || !r.Drift[0].Flagged || math.Abs(r.Drift[0].Worse-(0.340/0.271-1)) > 1e-12 {
		t.Errorf("drift = %+v, want hour 6 TTFT flagged", r.Drift)
	}
	// The note names the hour, the figure, both values and the change.
	if want := "hour 6's TTFT p99 is 340 ms against the first hour's 271 ms, 25.5 % worse, at a similar load (more than 25 % worse than the first hour is drift)"; r.DriftNote != want {
		t.Errorf("drift note = %q, want %q", r.DriftNote, want)
	}
	// Two flagged: the worse first.
	hours[5].TPOTP99 = F(*hours[0].TPOTP99 * 1.5)
	r = JudgeSoak(&Soak{Hours: hours})
	if !strings.HasPrefix(r.DriftNote, "hour 6's TPOT p99 is ") || !strings.Contains(r.DriftNote, "against the first hour's 37.5 ms, 50") || !strings.Contains(r.DriftNote, "% worse; hour 6's TTFT p99 is 340 ms") {
		t.Errorf("drift note with two findings = %q", r.DriftNote)
	}
	hours[5].TPOTP99 = soakHours()[5].TPOTP99
	// Exactly 25 % worse is not more than 25 %.
	hours[5].TTFTP99 = F(0.271 * 1.25)
	if r = JudgeSoak(&Soak{Hours: hours}); r.DriftFlagged {
		t.Errorf("25 %% worse flagged: %+v", r.Drift)
	}
}

func TestSoakDrains(t *testing.T) {
	arr := func(v int64) *int64 { return &v }
	drains := []Drain{
		{N: 1, Running: 26, Finished: 26, Rejected: 561, Arrivals: arr(561), EmptyAfterS: F(12)},
		{N: 3, Running: 150, Finished: 150, Rejected: 1247, Arrivals: arr(1247), EmptyAfterS: F(22)},
	}
	r := JudgeSoak(&Soak{Drains: drains})
	if !r.Present || !r.NoInFlightLoss || len(r.Drains) != 2 {
		t.Fatalf("drains = %+v", r)
	}
	drains[1].Finished, drains[1].Lost = 149, 1
	r = JudgeSoak(&Soak{Drains: drains})
	if r.NoInFlightLoss || r.Drains[1].NoLoss || r.Drains[1].Detail == "" {
		t.Errorf("a lost request not caught: %+v", r.Drains[1])
	}
	if r := JudgeSoak(nil); r.Present || r.NoInFlightLoss || r.Availability != nil {
		t.Errorf("no soak judged as %+v", r)
	}
}

func TestSoakRefusesImpossibleHour(t *testing.T) {
	r := JudgeSoak(&Soak{Hours: []SoakHour{{Hour: 1, Requests: 10, Rejected429: 8, Failed: 3}}})
	if len(r.Problems) != 1 || r.Availability != nil {
		t.Errorf("impossible hour accepted: %+v", r)
	}
}

// seedSoak is the six-hour soak with its hours' tokens/s and GPU watts and
// the run summary's mean power (520 W) and output tokens (63.0 million).
func seedSoak() *Soak {
	hours := soakHours()
	for i, tw := range [][2]float64{{1825, 444}, {2861, 518}, {3943, 592}, {3953, 598}, {2994, 527}, {1863, 447}} {
		hours[i].TokensPerS, hours[i].Watts = F(tw[0]), F(tw[1])
	}
	return &Soak{Hours: hours, MeanPowerW: F(520), OutputTokens: F(63e6)}
}

// The run totals: 520 W over 6 hours is 11,232,000 J = 11.2 MJ, 3.12 kWh;
// 63.0 million output tokens over it are 5.61 output tokens per joule.
// Without the summary the hours give 521 W and 62,780,400 tokens.
func TestSoakRunTotals(t *testing.T) {
	r := JudgeSoak(seedSoak())
	for _, c := range []struct {
		what string
		got  *float64
		want string
		dp   int
	}{
		{"mean power", r.MeanPowerW, "520", 0}, {"energy MJ", r.EnergyMJ, "11.2", 1}, {"energy kWh", r.EnergyKWh, "3.12", 2},
		{"output tokens", r.OutputTokens, "63,000,000", 0}, {"tokens/J", r.TokensPerJoule, "5.61", 2},
	} {
		if c.got == nil || DisplayNumber(*c.got, c.dp) != c.want {
			t.Errorf("%s = %v, want %s", c.what, c.got, c.want)
		}
	}
	if math.Abs(*r.EnergyMJ-11.232) > 1e-9 || r.MeanPowerBasis != "the run summary's mean power" {
		t.Errorf("energy %v MJ from %q", *r.EnergyMJ, r.MeanPowerBasis)
	}

	s := seedSoak()
	s.MeanPowerW, s.OutputTokens = nil, nil
	r = JudgeSoak(s)
	if *r.MeanPowerW != 521 || *r.OutputTokens != 62780400 || math.Abs(*r.TokensPerJoule-62780400/(521*6*3600.0)) > 1e-12 {
		t.Errorf("from the hours: %v W, %v tokens, %v tok/J", *r.MeanPowerW, *r.OutputTokens, *r.TokensPerJoule)
	}
	if r.MeanPowerBasis != "the mean of the 6 hours' GPU watts" || r.OutputTokensBasis != "the 6 hours' tokens/s x 3,600 s" {
		t.Errorf("bases %q, %q", r.MeanPowerBasis, r.OutputTokensBasis)
	}

	// An hour without its watts leaves the energy unknown, never a guess.
	s.Hours[2].Watts = nil
	if r = JudgeSoak(s); r.MeanPowerW != nil || r.EnergyMJ != nil || r.TokensPerJoule != nil || r.OutputTokens == nil {
		t.Errorf("an hour without watts: %v W, %v MJ, %v tok/J", r.MeanPowerW, r.EnergyMJ, r.TokensPerJoule)
	}
}

// At capacity: the ceiling row's output tokens per joule, 4,572 tok/s at
// 630 W = 7.26, beside the run's 5.61.
func TestSoakTokensPerJouleAtCapacity(t *testing.T) {
	in := demoInputs()
	in.Soak = seedSoak()
	in.Rows[3].OutputTokenRate, in.Rows[3].Observed.PowerWatts = F(4572), F(630)
	r := Compute(in)
	if c := r.Envelope.Ceiling; c == nil || *c != 8 {
		t.Fatalf("ceiling %v", r.Envelope.Text)
	}
	if got := r.Soak.TokensPerJouleAtCapacity; got == nil || DisplayNumber(*got, 2) != "7.26" {
		t.Errorf("tokens/J at capacity = %v, want 7.26", got)
	}
}

// Counts in the soak's and the demand's sentences agree with their nouns:
// "1 later hour", "2 later hours", never "hour(s)".
func TestSoakAndDemandCountsAgree(t *testing.T) {
	_, _, one := soakDrift([]SoakHour{{Hour: 1, Requests: 100, TTFTP99: F(0.2)}, {Hour: 2, Requests: 100, TTFTP99: F(0.2)}})
	if !strings.Contains(one, "1 later hour at") {
		t.Errorf("one later hour: %q", one)
	}
	_, _, two := soakDrift([]SoakHour{{Hour: 1, Requests: 100, TTFTP99: F(0.2)}, {Hour: 2, Requests: 100, TTFTP99: F(0.2)}, {Hour: 3, Requests: 100, TTFTP99: F(0.2)}})
	if !strings.Contains(two, "2 later hours at") {
		t.Errorf("two later hours: %q", two)
	}
	for _, s := range []string{one, two} {
		if strings.Contains(s, "(s)") {
			t.Errorf("%q", s)
		}
	}
}
