package planner

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// chartCase costs one self-hosted box (3,000 a month + 0.01 a request)
// against one quote at va a request, with a peak scenario of 30,000 a month
// at a 10 % busy-hour share, and builds the chart.
func chartCase(t *testing.T, va string, capacity Capacity) CostChart {
	t.Helper()
	self := SelfHostedMonthly(flatSelf("3000", "0.01"), nil)
	quotes := []QuoteCost{QuoteMonthly(flatQuote("api", va), 256, 128, "contract")}
	const share = 0.1
	xs := []Crossover{FindCrossover(self, quotes[0], capacity, share)}
	scen := []ScenarioResult{CostScenario(Scenario{Name: "peak", MonthlyRequests: 30_000, BusyHourShare: share}, capacity, self, quotes)}
	return BuildChart("EUR", self, quotes, xs, scen, capacity, share)
}

func markersOf(ch CostChart, kind string) []ChartMarker {
	var ms []ChartMarker
	for _, m := range ch.Markers {
		if m.Kind == kind {
			ms = append(ms, m)
		}
	}
	return ms
}

func lastDemand(s ChartSeries) float64 { return s.Points[len(s.Points)-1].Demand }

func TestBuildChartCrossoverFarBeyondThePlan(t *testing.T) {
	// One box serves 0.5 req/s x 3600 / 0.1 = 18,000 a month; the plan's
	// two boxes 36,000. The crossover, 3,000 / 0.0001 = 30 million a month,
	// is far beyond: the axis stops at a round number above 36,000 and a
	// note says where the crossover is.
	ch := chartCase(t, "0.0101", Capacity{PerBoxRate: F(0.5), MaxBoxes: 2})
	if ch.XMax != 40_000 {
		t.Errorf("x max = %g, want 40000", ch.XMax)
	}
	if got := markersOf(ch, "crossover"); len(got) != 0 {
		t.Errorf("crossover drawn at %+v, want it only in the notes", got)
	}
	if len(ch.Notes) != 1 || !strings.Contains(ch.Notes[0], "30 million requests a month") ||
		!strings.Contains(ch.Notes[0], "beyond the plan's capacity (36,000 a month with 2 box(es))") {
		t.Errorf("notes = %q", ch.Notes)
	}
	self := ch.Series[0]
	if self.Kind != "self-hosted" || len(self.Points) != 4 || lastDemand(self) != 36_000 {
		t.Errorf("self-hosted points = %+v, want two boxes' steps ending at 36,000", self.Points)
	}
	if self.Points[3].Cost != 6000+0.01*36_000 {
		t.Errorf("two boxes at 36,000 cost %g", self.Points[3].Cost)
	}
	plan := markersOf(ch, "plan")
	if len(plan) != 1 || plan[0].Demand != 36_000 || !strings.Contains(plan[0].Label, "2 box(es), 36,000 a month") {
		t.Errorf("plan marker = %+v", plan)
	}
	if api := ch.Series[1]; lastDemand(api) != ch.XMax {
		t.Errorf("API line ends at %g, want the axis end %g", lastDemand(api), ch.XMax)
	}
	if sc := markersOf(ch, "scenario"); len(sc) != 1 || sc[0].Demand != 30_000 {
		t.Errorf("scenario markers = %+v", sc)
	}
}

func TestBuildChartCrossoverWithinReach(t *testing.T) {
	// N = 3,000 / 0.04 = 75,000, within three times the plan's 36,000: the
	// axis reaches it, self-hosting still stops at the plan's capacity.
	ch := chartCase(t, "0.05", Capacity{PerBoxRate: F(0.5), MaxBoxes: 2})
	if ch.XMax != 100_000 {
		t.Errorf("x max = %g, want 100000 (round number above 75,000 x 1.1)", ch.XMax)
	}
	x := markersOf(ch, "crossover")
	if len(x) != 1 || x[0].Demand != 75_000 || x[0].Series != "api" || x[0].Label != "crossover 75,000/month" {
		t.Errorf("crossover markers = %+v", x)
	}
	if len(ch.Notes) != 0 {
		t.Errorf("notes = %q, want none", ch.Notes)
	}
	if got := lastDemand(ch.Series[0]); got != 36_000 {
		t.Errorf("self-hosted ends at %g, want the plan's 36,000", got)
	}
}

func TestBuildChartCapacityUnknown(t *testing.T) {
	// Without a per-box capacity the peak scenario sets the range; the
	// crossover (75,000) is within three times it; self-hosting is one
	// box across the whole axis and there is no plan marker.
	ch := chartCase(t, "0.05", Capacity{MaxBoxes: 1})
	if ch.XMax != 100_000 {
		t.Errorf("x max = %g, want 100000", ch.XMax)
	}
	if got := lastDemand(ch.Series[0]); got != ch.XMax || len(ch.Series[0].Points) != 2 {
		t.Errorf("self-hosted = %+v, want one segment across the axis", ch.Series[0].Points)
	}
	if len(markersOf(ch, "plan")) != 0 || len(markersOf(ch, "crossover")) != 1 {
		t.Errorf("markers = %+v", ch.Markers)
	}
}

func TestCrossoverFormulaRounded(t *testing.T) {
	self := SelfHostedMonthly(flatSelf("2410.868088888", "0"), nil)
	q := QuoteMonthly(flatQuote("api", "0.00026112"), 256, 128, "contract")
	x := FindCrossover(self, q, Capacity{PerBoxRate: F(0.961), MaxBoxes: 2}, 0.08)
	if want := "= (2410.87 - 0.00) / (0.0002611 - 0)"; !strings.HasSuffix(x.FormulaRounded, want) {
		t.Errorf("rounded formula = %q, want it to end %q", x.FormulaRounded, want)
	}
	if !strings.Contains(x.Formula, "2410.868088888") {
		t.Errorf("exact formula = %q lost the exact value", x.Formula)
	}
}

func TestChartNumberText(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{groupInt(66666.7), "66,667"}, {groupInt(999), "999"}, {groupInt(1234567), "1,234,567"},
		{compactCount(8_275_383), "8.3 million"}, {compactCount(30e6), "30 million"}, {compactCount(43_245), "43,245"},
		{sigDigits(decimal.RequireFromString("0.00026112"), 4), "0.0002611"},
		{sigDigits(decimal.RequireFromString("2410.8680888"), 4), "2411"},
		{sigDigits(decimal.Zero, 4), "0"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	for _, tc := range []struct{ in, want float64 }{{95_139, 100_000}, {39_600, 40_000}, {82_500, 100_000}, {1, 1}, {1.2, 1.5}} {
		if got := niceCeil(tc.in); got != tc.want {
			t.Errorf("niceCeil(%g) = %g, want %g", tc.in, got, tc.want)
		}
	}
}
