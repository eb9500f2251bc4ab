package planner

import (
	"math"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// TestPowerByUseWorkedExample is docs/method.md's "Power by use" example,
// worked by hand:
//
// A box draws 640 W measured at the ceiling and 110 W idle (typed), power
// costs 0.24 EUR/kWh at PUE 1.4, 730 powered hours a month, and the box's
// measured service is 0.8 successful in-objective req/s: 1.25 s of busy
// time a request.
//
//   - As before (always busy): 640 x 730 / 1000 x 0.24 x 1.4 = 156.9792 a box.
//   - By use, fixed: 110 x 730 / 1000 x 0.24 x 1.4 = 80.3 x 0.336 = 26.9808
//     a box (F_local's power line).
//   - By use, a request: (640 - 110) W x 1.25 s / 3,600,000 x 0.24 x 1.4 =
//     662.5 / 3,600,000 x 0.336 = 0.0000618333... (V_local), 6 significant
//     figures: 0.0000618333.
//   - 100,000 requests a month on one box: busy 100,000 x 1.25 s =
//     125,000 s = 34.7222 h, 4.76 % of 730 h; power 26.9808 + 100,000 x
//     0.0000618333 = 33.16413, against 156.9792 always busy. The same by
//     hours: (110 x (730 - 34.7222) + 640 x 34.7222) / 1000 x 0.336 =
//     33.1641.
func TestPowerByUseWorkedExample(t *testing.T) {
	s := SelfHostedCosts{
		PowerWatts:       Fig("640", "W", "BMC", evDate),
		PowerIdleWatts:   Fig("110", "W", "BMC, model loaded, no requests", evDate),
		PowerPricePerKWh: Fig("0.24", "EUR/kWh", "contract", evDate),
		PUE:              Fig("1.4", "ratio", "contract", evDate),
	}
	flat := selfHostedMonthly(s, nil, nil, TaxNet, &powerInputs{})
	wantDec(t, "power priced as always busy without a service rate", flat.Lines[1].Monthly.Exact, "156.9792")
	if flat.Power.ByUse || !strings.Contains(flat.Power.Text, "no measured service rate") {
		t.Errorf("without a service rate: %+v", flat.Power)
	}

	sh := selfHostedMonthly(s, nil, nil, TaxNet, &powerInputs{serviceRate: F(0.8)})
	if !sh.Power.ByUse {
		t.Fatalf("not priced by use: %s", sh.Power.Text)
	}
	power := sh.Lines[1]
	if power.Category != "power" {
		t.Fatalf("line 1 is %s", power.Category)
	}
	wantDec(t, "power line (idle watts, every hour)", power.Monthly.Exact, "26.9808")
	wantDec(t, "F_local", sh.FixedPerBox.Exact, "26.9808")
	wantDec(t, "V_local (energy above idle a request)", sh.PerRequest.Exact, "0.0000618333")
	wantDec(t, "energy per request", sh.Power.EnergyPerRequest.Exact, "0.0000618333")
	for _, want := range []string{"110 W idle (typed)", "640 W (measured) for the busy time", "1.25 s a request"} {
		if !strings.Contains(sh.Power.Text, want) {
			t.Errorf("power text %q lacks %q", sh.Power.Text, want)
		}
	}

	if got := BusyHours(decimal.NewFromInt(100_000), 0.8).InexactFloat64(); math.Abs(got-34.7222) > 1e-4 {
		t.Errorf("busy hours = %v, want 34.7222", got)
	}
	cap := Capacity{PerBoxRate: F(0.8), MaxBoxes: 1}
	sr := CostScenario(Scenario{Name: "expected", MonthlyRequests: 100_000, BusyHourShare: 0.001}, cap, sh, nil)
	wantDec(t, "the scenario's monthly cost (power only)", sr.Options[0].MonthlyCost.Exact, "33.16413")
	if sr.Utilisation == nil || math.Abs(*sr.Utilisation-0.047565) > 1e-5 {
		t.Errorf("utilisation = %v, want 34.7222 / 730 = 4.76 %%", sr.Utilisation)
	}
	if !strings.Contains(strings.Join(sr.Options[0].Notes, " "), "busy 34.7 h a month of 1 box x 730 h powered (4.76 % utilisation)") {
		t.Errorf("notes = %q", sr.Options[0].Notes)
	}
	// By hours, as the method states it.
	byHours := (110*(730-34.72222222) + 640*34.72222222) / 1000 * 0.336
	if math.Abs(sr.Options[0].MonthlyCost.Exact.InexactFloat64()-byHours) > 1e-4 {
		t.Errorf("monthly %s, by hours %v", sr.Options[0].MonthlyCost.Exact, byHours)
	}
}

// TestPowerByUseFallsBack: without an idle draw, or with the log's idle
// power against typed busy watts, power is priced as before and says why.
func TestPowerByUseFallsBack(t *testing.T) {
	s := SelfHostedCosts{PowerPricePerKWh: Fig("0.24", "EUR/kWh", "contract", evDate)}
	w := 640.0
	none := selfHostedMonthly(s, &w, nil, TaxNet, &powerInputs{serviceRate: F(0.8)})
	if none.Power.ByUse || !strings.Contains(none.Power.Text, "no idle power known") {
		t.Errorf("no idle: %+v", none.Power)
	}
	wantDec(t, "as before", none.Lines[1].Monthly.Exact, "112.128") // 640 x 730 / 1000 x 0.24
	mixed := selfHostedMonthly(s, &w, nil, TaxNet, &powerInputs{serviceRate: F(0.8), logIdleWatts: F(95), logIdleText: "GPU log x: mean of 40 idle samples"})
	if mixed.Power.ByUse || !strings.Contains(mixed.Power.Text, "two meters") {
		t.Errorf("log idle against typed busy watts: %+v", mixed.Power)
	}
	fromLog := selfHostedMonthly(s, &w, nil, TaxNet, &powerInputs{serviceRate: F(0.8), busyFromLog: true, logIdleWatts: F(95), logIdleText: "GPU log x: mean of 40 idle samples"})
	if !fromLog.Power.ByUse || fromLog.Power.IdleSource != "GPU log x: mean of 40 idle samples" {
		t.Errorf("log idle with the log's busy watts: %+v", fromLog.Power)
	}
	// 95 x 730 / 1000 x 0.24 = 16.644.
	wantDec(t, "idle from the log", fromLog.Lines[1].Monthly.Exact, "16.644")
}

// TestIdlePowerFromTheLog: each GPU's idle samples, anywhere in the log,
// averaged and summed over the GPUs; none unless every GPU has some.
func TestIdlePowerFromTheLog(t *testing.T) {
	a := NewTelemetryAligner([]Window{{Start: 100, End: 200}})
	sample := func(at float64, gpu string, util, watts float64) GPUSample {
		return GPUSample{At: at, GPU: gpu, UtilPct: F(util), PowerW: F(watts)}
	}
	for _, s := range []GPUSample{
		sample(10, "0", 0, 70), sample(20, "0", 1, 74), sample(10, "1", 2, 80),
		sample(150, "0", 90, 600), sample(150, "1", 95, 610), // busy, in the row
		sample(300, "1", 0, 84),
	} {
		a.Add(s)
	}
	w, n := a.IdlePower()
	// GPU 0: (70 + 74) / 2 = 72; GPU 1: (80 + 84) / 2 = 82; the box 154 W.
	if w == nil || *w != 154 || n != 4 {
		t.Errorf("idle power = %v from %d samples, want 154 W from 4", w, n)
	}
	b := NewTelemetryAligner([]Window{{Start: 100, End: 200}})
	b.Add(sample(10, "0", 0, 70))
	b.Add(sample(150, "1", 95, 610))
	if w, _ := b.IdlePower(); w != nil {
		t.Errorf("a GPU without idle samples: %v, want none", *w)
	}
}

// TestRoundPerRequest is the rounding rule of a computed per-request price.
func TestRoundPerRequest(t *testing.T) {
	for in, want := range map[string]string{
		"0.0039183673469387755": "0.00391837",
		"0.00026112":            "0.00026112",
		"0.0000618333333":       "0.0000618333",
		"1.2345675":             "1.23457",
		"0.000999999999":        "0.001",
		"0":                     "0",
		"-0.0039183673":         "-0.00391837",
	} {
		if got := RoundPerRequest(dec(in)); !got.Equal(dec(want)) {
			t.Errorf("RoundPerRequest(%s) = %s, want %s", in, got, want)
		}
	}
}
