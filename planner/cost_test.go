package planner

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

const evDate = "2026-11-01"

// eur is a typed monthly amount with evidence.
func eur(v string) *Figure { return Fig(v, "EUR/month", "invoice", evDate) }

// flatSelf is a self-hosted box whose whole monthly cost is fixed (typed as
// hosting), every other category typed zero, with V_local per request.
func flatSelf(fixed, perRequest string) SelfHostedCosts {
	return SelfHostedCosts{
		EquipmentMode: "rent", RentPerHour: Fig("0", "EUR/h", "none", evDate),
		PowerWatts: Fig("0", "W", "meter", evDate), PowerPricePerKWh: Fig("0.30", "EUR/kWh", "tariff", evDate),
		Facilities: eur("0"), Hosting: eur(fixed), Support: eur("0"), Software: eur("0"), Monitoring: eur("0"), Backup: eur("0"),
		LabourHoursPerMonth: Fig("0", "h/month", "ops plan", evDate), LabourRate: Fig("0", "EUR/h", "HR", evDate),
		DowntimeAllowance: eur("0"), PerRequest: Fig(perRequest, "EUR/request", "estimate", evDate),
	}
}

// flatQuote prices 256 input and 128 output tokens at V_api per request
// (all of it on output tokens) with no monthly charges.
func flatQuote(name, perRequest string) Quote {
	out := decimal.RequireFromString(perRequest).Mul(decimal.NewFromInt(1_000_000)).Div(decimal.NewFromInt(128))
	return Quote{Name: name, InputPerMTokens: Fig("0", "EUR/1M tokens", "quote", evDate),
		OutputPerMTokens: &Figure{Amount: out, Unit: "EUR/1M tokens", Source: "quote", EvidenceDate: evDate}}
}

func bigCapacity() Capacity { return Capacity{PerBoxRate: F(1000), MaxBoxes: 1} }

func TestSelfHostedMonthly(t *testing.T) {
	s := SelfHostedCosts{
		EquipmentMode: "purchase", PurchasePrice: Fig("36000", "EUR", "PO 17", evDate), DepreciationMonths: 36,
		PowerWatts: Fig("500", "W", "spec sheet", evDate), PowerPricePerKWh: Fig("0.30", "EUR/kWh", "tariff", evDate), PUE: Fig("1.4", "", "facility", evDate),
		Facilities: eur("50"), Hosting: eur("100"), Support: eur("80"), Software: eur("20"), Monitoring: eur("15"), Backup: eur("10"),
		LabourHoursPerMonth: Fig("8", "h/month", "ops plan", evDate), LabourRate: Fig("75", "EUR/h", "HR loaded rate", evDate),
		DowntimeAllowance: eur("40"),
	}
	tests := []struct {
		name      string
		s         func() SelfHostedCosts
		watts     *float64
		wantFixed string
		wantLine  map[string]string
		wantSrc   string
	}{
		// 1000 + 700 W x 730 h / 1000 x 0.30 x 1.4 (214.62) + 275 + 600 + 40
		{name: "purchase with measured watts", s: func() SelfHostedCosts { return s }, watts: F(700),
			wantFixed: "2129.62", wantLine: map[string]string{"equipment": "1000", "power": "214.62", "labour": "600"}, wantSrc: "measured at the ceiling row"},
		{name: "typed watts when none measured", s: func() SelfHostedCosts { return s },
			wantFixed: "2068.3", wantLine: map[string]string{"power": "153.3"}, wantSrc: "typed"},
		{name: "rent per hour", s: func() SelfHostedCosts {
			r := s
			r.EquipmentMode, r.RentPerHour = "rent", Fig("2.5", "EUR/h", "cloud quote", evDate)
			return r
		}, wantLine: map[string]string{"equipment": "1825"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := SelfHostedMonthly(tt.s(), tt.watts)
			if tt.wantFixed != "" && !got.FixedPerBox.Exact.Equal(decimal.RequireFromString(tt.wantFixed)) {
				t.Errorf("fixed per box = %s, want %s", got.FixedPerBox.Exact, tt.wantFixed)
			}
			for cat, want := range tt.wantLine {
				found := false
				for _, l := range got.Lines {
					if l.Category == cat {
						found = true
						if !l.Monthly.Exact.Equal(decimal.RequireFromString(want)) {
							t.Errorf("%s = %s (%s), want %s", cat, l.Monthly.Exact, l.Basis, want)
						}
					}
				}
				if !found {
					t.Errorf("no %s line", cat)
				}
			}
			if tt.wantSrc != "" && got.PowerWattsSource != tt.wantSrc {
				t.Errorf("watts source = %q, want %q", got.PowerWattsSource, tt.wantSrc)
			}
		})
	}
}

func TestQuoteMonthly(t *testing.T) {
	q := Quote{Name: "api-a", InputPerMTokens: Fig("2.50", "EUR/1M tokens", "quote", evDate), OutputPerMTokens: Fig("10", "EUR/1M tokens", "quote", evDate),
		RetryRate: Fig("0.02", "fraction", "provider SLA", evDate), Platform: eur("100"), IntegrationLabour: eur("300")}
	got := QuoteMonthly(q, 256, 128, "contract")
	// 2 % of attempts fail and are retried until they succeed: a success
	// takes 1 / 0.98 attempts (not 1.02). (256 x 2.50 + 128 x 10) / 1e6 =
	// 0.00192; / 0.98 = 0.00195918367...; 6 significant figures: 0.00195918.
	if want := decimal.RequireFromString("0.00195918"); !got.PerRequest.Exact.Equal(want) {
		t.Errorf("per request = %s, want %s", got.PerRequest.Exact, want)
	}
	if want := "(256 input tokens x 2.5 + 128 output tokens x 10) / 1M / (1 - 0.02 retried), to 6 significant figures"; got.PerRequestBasis != want {
		t.Errorf("basis = %q, want %q", got.PerRequestBasis, want)
	}
	if !got.Fixed.Exact.Equal(decimal.NewFromInt(400)) {
		t.Errorf("fixed = %s, want 400", got.Fixed.Exact)
	}
}

func TestScenarioCostPer1000(t *testing.T) {
	// Worked example: EUR 2,000 self-hosted and EUR 2,400 API for 80,000
	// successful requests give EUR 25 and EUR 30 per 1,000.
	self := SelfHostedMonthly(flatSelf("2000", "0"), nil)
	q := QuoteMonthly(flatQuote("api", "0.03"), 256, 128, "contract")
	res := CostScenario(Scenario{Name: "expected", MonthlyRequests: 80_000, BusyHourShare: 0.1}, bigCapacity(), self, []QuoteCost{q})
	want := []struct{ cost, per1000 string }{{"2000", "25"}, {"2400", "30"}}
	for i, o := range res.Options {
		if !o.MonthlyCost.Exact.Equal(decimal.RequireFromString(want[i].cost)) || o.CostPer1000 == nil ||
			!o.CostPer1000.Exact.Equal(decimal.RequireFromString(want[i].per1000)) || o.CostPer1000.Rounded.StringFixed(2) != want[i].per1000+".00" {
			t.Errorf("%s: monthly %s, per 1,000 %v; want %s and %s", o.Option, o.MonthlyCost.Exact, o.CostPer1000, want[i].cost, want[i].per1000)
		}
	}
}

func TestScenarioBoxes(t *testing.T) {
	self := SelfHostedMonthly(flatSelf("3000", "0"), nil)
	tests := []struct {
		name        string
		s           Scenario
		cap         Capacity
		wantBoxes   *int
		wantExceeds bool
		wantCost    string
		wantPer1000 *string
	}{
		{name: "zero demand: one idle box, no cost per 1,000", s: Scenario{Name: "low", MonthlyRequests: 0, BusyHourShare: 0.1}, cap: Capacity{PerBoxRate: F(2), MaxBoxes: 1},
			wantBoxes: I(1), wantCost: "3000"},
		{name: "fits one box", s: Scenario{Name: "expected", MonthlyRequests: 72_000, BusyHourShare: 0.1}, cap: Capacity{PerBoxRate: F(2), MaxBoxes: 1},
			wantBoxes: I(1), wantCost: "3000", wantPer1000: strp("41.6666666666666667")},
		{name: "several boxes beyond the plan", s: Scenario{Name: "peak", MonthlyRequests: 1_000_000, BusyHourShare: 0.1}, cap: Capacity{PerBoxRate: F(2), MaxBoxes: 1},
			wantBoxes: I(14), wantExceeds: true, wantCost: "42000", wantPer1000: strp("42")},
		{name: "several boxes within the plan", s: Scenario{Name: "peak", MonthlyRequests: 1_000_000, BusyHourShare: 0.1}, cap: Capacity{PerBoxRate: F(2), MaxBoxes: 20},
			wantBoxes: I(14), wantCost: "42000", wantPer1000: strp("42")},
		{name: "capacity unknown", s: Scenario{Name: "expected", MonthlyRequests: 72_000, BusyHourShare: 0.1}, cap: Capacity{MaxBoxes: 1},
			wantExceeds: true, wantCost: "3000", wantPer1000: strp("41.6666666666666667")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := CostScenario(tt.s, tt.cap, self, nil)
			if derefI(res.BoxesNeeded) != derefI(tt.wantBoxes) || res.ExceedsPlan != tt.wantExceeds {
				t.Errorf("boxes %v exceeds %v (%s); want %v %v", derefI(res.BoxesNeeded), res.ExceedsPlan, res.ExceedsReason, derefI(tt.wantBoxes), tt.wantExceeds)
			}
			o := res.Options[0]
			if !o.MonthlyCost.Exact.Equal(decimal.RequireFromString(tt.wantCost)) {
				t.Errorf("cost = %s, want %s", o.MonthlyCost.Exact, tt.wantCost)
			}
			switch {
			case tt.wantPer1000 == nil && o.CostPer1000 != nil:
				t.Errorf("cost per 1,000 = %s, want none", o.CostPer1000.Exact)
			case tt.wantPer1000 != nil && (o.CostPer1000 == nil || o.CostPer1000.Exact.String() != *tt.wantPer1000):
				t.Errorf("cost per 1,000 = %v, want %s", o.CostPer1000, *tt.wantPer1000)
			}
		})
	}
}

func TestFindCrossover(t *testing.T) {
	tests := []struct {
		name        string
		fixed, vl   string
		va          string
		cap         Capacity
		share       float64
		wantExists  bool
		wantN       string
		wantWithin  *bool
		wantStepped *int64
		wantText    string
	}{
		// Worked example: F_local 3,000, V_api 0.05, V_local 0.01 -> 75,000.
		{name: "worked example", fixed: "3000", vl: "0.01", va: "0.05", cap: bigCapacity(), share: 0.1,
			wantExists: true, wantN: "75000", wantWithin: boolp(true), wantStepped: i64(75001), wantText: "breaks even with api at 75,000 requests a month (2,466 a day)"},
		{name: "API cheaper per request: none", fixed: "3000", vl: "0.01", va: "0.005", cap: bigCapacity(), share: 0.1,
			wantText: "no demand above which self-hosting becomes cheaper"},
		{name: "beyond one box", fixed: "3000", vl: "0.01", va: "0.05", cap: Capacity{PerBoxRate: F(0.5), MaxBoxes: 4}, share: 0.1,
			wantExists: true, wantN: "75000", wantWithin: boolp(false), wantText: "beyond what one box serves within the objective (18,000 a month"},
		{name: "capacity unknown", fixed: "3000", vl: "0.01", va: "0.05", cap: Capacity{MaxBoxes: 1},
			wantExists: true, wantN: "75000", wantText: "stepped crossover cannot be computed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			self := SelfHostedMonthly(flatSelf(tt.fixed, tt.vl), nil)
			q := QuoteMonthly(flatQuote("api", tt.va), 256, 128, "contract")
			x := FindCrossover(self, q, tt.cap, tt.share)
			if x.Exists != tt.wantExists {
				t.Fatalf("exists = %v (%s)", x.Exists, x.Text)
			}
			if tt.wantN != "" && (x.N == nil || !x.N.Equal(decimal.RequireFromString(tt.wantN))) {
				t.Errorf("N = %v, want %s", x.N, tt.wantN)
			}
			if (x.WithinCapacity == nil) != (tt.wantWithin == nil) || (x.WithinCapacity != nil && *x.WithinCapacity != *tt.wantWithin) {
				t.Errorf("within capacity = %v, want %v", x.WithinCapacity, tt.wantWithin)
			}
			if tt.wantStepped != nil && (x.Stepped == nil || x.Stepped.Demand != *tt.wantStepped || x.Stepped.Boxes != 1) {
				t.Errorf("stepped = %+v, want demand %d on one box", x.Stepped, *tt.wantStepped)
			}
			if !strings.Contains(x.Text, tt.wantText) {
				t.Errorf("text = %q, want %q", x.Text, tt.wantText)
			}
		})
	}
}

func TestSteppedCrossoverWithSharedAPICharges(t *testing.T) {
	// The API's fixed charges (F_api 1,000) make two boxes worth it: one box
	// serves 18,000 a month; a single box never beats the API, but
	// with k boxes self - api = 3,000k - 1,000 - 0.04 D.
	got := steppedCrossover(decimal.NewFromInt(3000), decimal.NewFromInt(1000), decimal.RequireFromString("0.01"), decimal.RequireFromString("0.25"), 18_000, 4)
	// k=1: D > 2000/0.24 = 8333.3 -> 8334 within [0, 18000].
	if got == nil || got.Demand != 8334 || got.Boxes != 1 {
		t.Fatalf("stepped = %+v, want 8334 on one box", got)
	}
}

func TestCostValidation(t *testing.T) {
	tests := []struct {
		name      string
		mutate    func(*Inputs)
		wantField string
		wantMsg   string
	}{
		{"negative hosting", func(in *Inputs) { in.SelfHosted.Hosting = eur("-5") }, "self_hosted.hosting", "must not be negative"},
		{"labour missing", func(in *Inputs) { in.SelfHosted.LabourRate = nil }, "self_hosted.labour_rate", "operator labour must be typed"},
		{"PUE below 1", func(in *Inputs) { in.SelfHosted.PUE = Fig("0.8", "", "x", evDate) }, "self_hosted.pue", "at least 1"},
		{"zero depreciation", func(in *Inputs) {
			in.SelfHosted.EquipmentMode, in.SelfHosted.PurchasePrice = "purchase", Fig("1000", "EUR", "x", evDate)
		}, "self_hosted.depreciation_months", "at least 1"},
		{"retry rate as percent", func(in *Inputs) { in.Quotes[0].RetryRate = Fig("2", "fraction", "x", evDate) }, "quotes[0].retry_rate", "fraction below 1"},
		{"token price missing", func(in *Inputs) { in.Quotes[0].OutputPerMTokens = nil }, "quotes[0].output_per_m_tokens", "required"},
		{"busy-hour share above 1", func(in *Inputs) { in.Scenarios[0].BusyHourShare = 1.5 }, "scenarios[0].busy_hour_share", "at most 1"},
		{"negative demand", func(in *Inputs) { in.Scenarios[0].MonthlyRequests = -1 }, "scenarios[0].monthly_requests", "negative"},
		{"bad evidence date", func(in *Inputs) { in.SelfHosted.Hosting.EvidenceDate = "1/11/2026" }, "self_hosted.hosting.evidence_date", "YYYY-MM-DD"},
		{"override without reason", func(in *Inputs) { in.Admission.OverrideMaxInFlight = I(4) }, "admission.override_reason", "needs a reason"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := demoInputs()
			tt.mutate(&in)
			err := in.Validate()
			fes, _ := err.(FieldErrors)
			for _, fe := range fes {
				if fe.Field == tt.wantField && strings.Contains(fe.Message, tt.wantMsg) {
					return
				}
			}
			t.Errorf("Validate() = %v, want %s: ...%s", err, tt.wantField, tt.wantMsg)
		})
	}
	if err := demoInputs().Validate(); err != nil {
		t.Errorf("demo inputs refused: %v", err)
	}
}

func TestLabourTypedZero(t *testing.T) {
	got := SelfHostedMonthly(flatSelf("2000", "0"), nil)
	if !got.LabourTyped || !got.LabourTypedZero || !strings.Contains(strings.Join(got.Notes, ";"), "labour typed as zero") {
		t.Errorf("labour typed %v zero %v notes %q", got.LabourTyped, got.LabourTypedZero, got.Notes)
	}
	s := flatSelf("2000", "0")
	s.LabourHoursPerMonth = nil
	if got := SelfHostedMonthly(s, nil); got.LabourTyped || got.LabourTypedZero {
		t.Errorf("untyped labour reported as typed")
	}
}

func strp(s string) *string { return &s }
func i64(v int64) *int64    { return &v }
