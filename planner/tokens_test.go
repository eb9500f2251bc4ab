package planner

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// TestFrontierComparableWorked: $1.30 a GPU-hour at 1,560 tok/s/GPU is
// 1.30 / (1,560 x 3,600 / 1e6) = 1.30 / 5.616 = 0.2315 per million
// tokens, shown 0.231 by the display rule (about $0.23).
func TestFrontierComparableWorked(t *testing.T) {
	m := FrontierPerM(dec("1.30"), 1560)
	if m == nil {
		t.Fatal("no figure")
	}
	want := dec("1.30").Div(dec("5.616"))
	if !m.Exact.Equal(want) {
		t.Errorf("exact %s, want %s", m.Exact, want)
	}
	if got := m.Exact.Round(4).String(); got != "0.2315" {
		t.Errorf("to 4 places %s, want 0.2315", got)
	}
	if got := m.Display(); got != "0.231" {
		t.Errorf("shown %q, want 0.231", got)
	}
	if FrontierPerM(dec("1.30"), 0) != nil {
		t.Error("a figure at no throughput")
	}
}

// TestPerMTokensCounts: input counts the input tokens only, output the
// output tokens only, blended both in the workload's mix. The demo's quote
// (0.20 / 0.60 per million, 2 % retries, 250 a month of charges) at
// 35,000 requests of 512 + 256 tokens costs 259.1392 a month: 14.46 per
// million input, 28.92 per million output, 9.64 per million blended. With
// no charges and no retries the blended figure is the quote's prices
// weighted by the mix: (512 x 0.20 + 256 x 0.60) / 768 = 0.333.
func TestPerMTokensCounts(t *testing.T) {
	monthly := dec("256").Div(dec("1000000")).Mul(dec("1.02")).Mul(dec("35000")).Add(dec("250"))
	if !monthly.Equal(dec("259.1392")) {
		t.Fatalf("monthly %s", monthly)
	}
	p := PerMTokens(monthly, 35000, 512, 256)
	for _, c := range []struct {
		name string
		got  Money
		want string
	}{{"input", p.Input, "14.46"}, {"output", p.Output, "28.92"}, {"blended", p.Blended, "9.64"}} {
		if c.got.Display() != c.want {
			t.Errorf("%s: %s, want %s", c.name, c.got.Display(), c.want)
		}
	}
	if !p.Input.Exact.Equal(dec("259.1392").Div(dec("17.92"))) {
		t.Errorf("input exact %s", p.Input.Exact)
	}
	plain := PerMTokens(dec("0.000256").Mul(dec("1000")), 1000, 512, 256)
	if plain.Blended.Display() != "0.333" || plain.Input.Display() != "0.500" || plain.Output.Display() != "1.00" {
		t.Errorf("plain quote: %s input, %s output, %s blended", plain.Input.Display(), plain.Output.Display(), plain.Blended.Display())
	}
	if PerMTokens(monthly, 0, 512, 256) != nil || PerMTokens(monthly, 10, 0, 256) != nil {
		t.Error("a figure without requests or tokens")
	}
}

func TestGPUsFromDevice(t *testing.T) {
	for dev, want := range map[string]int{"1x H100 SXM 80GB": 1, "8 x H200": 8, "H100 x4": 4, "2× B200": 2, "H100 SXM 80GB": 0, "": 0} {
		n, ok := GPUsFromDevice(dev)
		if n != want || ok != (want > 0) {
			t.Errorf("%q: %d %v, want %d", dev, n, ok, want)
		}
	}
}

// demoCosts are the demo report's self-hosted costs (web/reports).
func demoCosts() SelfHostedCosts {
	f := func(a, u string) *Figure { return Fig(a, u, "demo", "2026-11-01") }
	return SelfHostedCosts{
		EquipmentMode: "purchase", PurchasePrice: f("32000", "EUR"), DepreciationMonths: 36,
		PowerWatts: f("650", "W"), PowerPricePerKWh: f("0.24", "EUR/kWh"), PUE: f("1.4", "ratio"),
		Facilities: f("120", "EUR/month"), Hosting: f("180", "EUR/month"), Support: f("90", "EUR/month"),
		Software: f("0", "EUR/month"), Monitoring: f("40", "EUR/month"), Backup: f("25", "EUR/month"),
		LabourHoursPerMonth: f("10", "h/month"), LabourRate: f("85", "EUR/h"), DowntimeAllowance: f("60", "EUR/month"),
	}
}

// TestFrontierGapWorked: the same box, $1.30 a GPU-hour at 1,560
// tok/s/GPU (one GPU, 512 + 256 tokens a request: 2.03125 successful
// req/s, 96 % of them in objective), with the demo's costs and its
// expected 35,000 requests a month (26.88 M tokens). All-in: 2,413.32 a
// month / 26.88 = 89.78 per million tokens. From 0.2315:
//
//	out-of-objective  0.2315 / 0.96 - 0.2315             = +0.00965
//	utilisation       1.30 x 730 / 26.88 - 0.2411        = +35.06
//	own equipment     (888.89 + 159.43 - 949) / 26.88    = +3.69
//	labour            850 / 26.88                        = +31.62
//	facilities/other  455 / 26.88                        = +16.93
//	failures          60 / 26.88                         = +2.23
//
// and the steps sum exactly to 89.78 - 0.2315.
func TestFrontierGapWorked(t *testing.T) {
	costs := demoCosts()
	costs.GPUHourPrice = Fig("1.30", "EUR/GPU-h", "neocloud list price", "2026-11-01")
	self := SelfHostedMonthly(costs, nil)
	if got := self.FixedPerBox.Display(); got != "2,413.32" {
		t.Fatalf("fixed per box %s", got)
	}
	rate := 1560.0 / 768
	capacity := Capacity{CeilingRate: F(rate), PerBoxRate: F(rate * 0.96), InObjectiveShare: F(0.96), MaxBoxes: 1}
	sc := CostScenario(Scenario{Name: "expected", MonthlyRequests: 35_000, BusyHourKind: BusyDayShare, BusyHourShare: 0.11}, capacity, self, nil)
	ss := []ScenarioResult{sc}
	tokenCosts(ss, 512, 256)
	f := BuildFrontier(costs, "1x H100 SXM 80GB", self, capacity, ss, 512, 256, nil)
	if f.Reason != "" || f.PerMTokens == nil {
		t.Fatalf("no frontier: %s", f.Reason)
	}
	if f.GPUs != 1 || !strings.Contains(f.GPUsSource, "device") || !f.PriceTyped {
		t.Errorf("GPUs %v (%s), typed %v", f.GPUs, f.GPUsSource, f.PriceTyped)
	}
	if got := f.PerMTokens.Exact.Round(4).String(); got != "0.2315" {
		t.Errorf("frontier-comparable %s, want 0.2315", got)
	}
	if got := DisplayNumber(*f.TokensPerSecondPerGPU, 1); got != "1,560.0" {
		t.Errorf("tok/s/GPU %s", got)
	}
	if len(f.Gaps) != 1 {
		t.Fatalf("gaps %d", len(f.Gaps))
	}
	g := f.Gaps[0]
	want := map[string]string{"out_of_objective": "0.00965", "utilisation": "35.06", "equipment_power": "3.69", "labour": "31.62", "facilities_other": "16.93", "failures": "2.23"}
	sum := decimal.Zero
	var keys []string
	for _, s := range g.Steps {
		keys = append(keys, s.Key)
		sum = sum.Add(s.Amount.Exact)
		if got := s.Amount.Display(); got != want[s.Key] {
			t.Errorf("%s: %s, want %s", s.Key, got, want[s.Key])
		}
	}
	if strings.Join(keys, ",") != "out_of_objective,utilisation,equipment_power,labour,facilities_other,failures" {
		t.Errorf("steps %v", keys)
	}
	if got := g.AllIn.Display(); got != "89.78" {
		t.Errorf("all-in %s, want 89.78", got)
	}
	if !g.AllIn.Exact.Equal(ss[0].Options[0].PerMTokens.Blended.Exact) {
		t.Errorf("all-in %s is not the option's blended %s", g.AllIn.Exact, ss[0].Options[0].PerMTokens.Blended.Exact)
	}
	if !sum.Equal(g.AllIn.Exact.Sub(g.Frontier.Exact)) || !sum.Equal(g.Gap.Exact) {
		t.Errorf("steps sum to %s, gap %s", sum, g.AllIn.Exact.Sub(g.Frontier.Exact))
	}
	if !strings.HasPrefix(g.Text, "from 0.231 frontier-comparable to 89.78 all-in: +0.00965 out-of-objective requests, +35.06 utilisation") {
		t.Errorf("text %q", g.Text)
	}

	// Without a typed price the GPU-hour is the box's equipment and power
	// over 730 h (1,048.32 / 730 = 1.436 a GPU-hour), there is no step
	// for it, and the steps still sum exactly to the gap.
	costs.GPUHourPrice = nil
	f = BuildFrontier(costs, "1x H100 SXM 80GB", self, capacity, ss, 512, 256, nil)
	if f.PriceTyped || f.GPUHourPrice.Display() != "1.44" {
		t.Errorf("derived price %s typed %v", f.GPUHourPrice.Display(), f.PriceTyped)
	}
	g = f.Gaps[0]
	sum = decimal.Zero
	for _, s := range g.Steps {
		if s.Key == "equipment_power" {
			t.Error("an equipment step without a typed price")
		}
		sum = sum.Add(s.Amount.Exact)
	}
	if !sum.Equal(g.AllIn.Exact.Sub(g.Frontier.Exact)) || g.AllIn.Display() != "89.78" {
		t.Errorf("derived: steps sum %s, all-in %s, frontier %s", sum, g.AllIn.Exact, g.Frontier.Exact)
	}
	// Four GPUs typed: the price and throughput are per GPU, the
	// frontier figure the same.
	costs.GPUsPerBox = Fig("4", "GPUs", "spec sheet", "2026-11-01")
	f4 := BuildFrontier(costs, "1x H100 SXM 80GB", self, capacity, ss, 512, 256, nil)
	if f4.GPUs != 4 || f4.GPUsSource != "typed" || !f4.PerMTokens.Exact.Round(12).Equal(f.PerMTokens.Exact.Round(12)) {
		t.Errorf("4 GPUs: %v %s %s vs %s", f4.GPUs, f4.GPUsSource, f4.PerMTokens.Exact, f.PerMTokens.Exact)
	}
	// No capacity: no figure, said why.
	if f := BuildFrontier(costs, "", self, Capacity{Reason: "no envelope"}, ss, 512, 256, nil); f.PerMTokens != nil || !strings.Contains(f.Reason, "no capacity") {
		t.Errorf("no capacity: %+v", f)
	}
}
