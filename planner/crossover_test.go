package planner

import (
	"regexp"
	"slices"
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
		!strings.Contains(ch.Notes[0], "beyond the plan's capacity (36,000 a month with 2 boxes)") {
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
	if len(plan) != 1 || plan[0].Demand != 36_000 || !strings.Contains(plan[0].Label, "2 boxes, 36,000 a month") {
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
	// Cents and 4 figures (2410.87 / 0.0002611 = 9,233,512.06) would not
	// give N (9,232,797.52..., up to 9,232,798), nor would 2410.868
	// (9,232,797.18): the figures are shown as far as they give the exact
	// N to the cent shown.
	if want := "= (2410.86809 - 0.00) / (0.00026112 - 0) = 9,232,797.52, rounded up to 9,232,798"; !strings.HasSuffix(x.FormulaRounded, want) {
		t.Errorf("rounded formula = %q, want it to end %q", x.FormulaRounded, want)
	}
	if !strings.Contains(x.Formula, "2410.868088888") {
		t.Errorf("exact formula = %q lost the exact value", x.Formula)
	}
}

// formulaTerms reads "(a - b) / (c - d) = q, rounded up to n" off a shown
// crossover formula.
var formulaTerms = regexp.MustCompile(`= \(([-0-9.]+) - ([-0-9.]+)\) / \(([-0-9.]+) - ([-0-9.]+)\) = ([0-9,.]+), rounded up to ([0-9,]+)$`)

// TestCrossoverFormulaReproducesN: the shown formula's figures, divided
// out and rounded up, are the N in the sentence and the box, for the
// worked example, the demo's figures and prices where rounding to cents
// and 4 figures would land elsewhere; N is always rounded up.
func TestCrossoverFormulaReproducesN(t *testing.T) {
	d := decimal.RequireFromString
	for _, tc := range []struct {
		fixed, vl, va string
		wantN         int64
	}{
		{"3000", "0.01", "0.05", 75_000},                    // worked example: exactly 75,000
		{"3000.01", "0.01", "0.05", 75_001},                 // 75,000.25: up, never to nearest
		{"2410.868088888", "0", "0.00026112", 9_232_798},    // cents and 4 figures give 9,233,513
		{"2160.868088888", "0.0000123456", "0.00026112", 0}, // N from the exact values
	} {
		self := SelfHostedMonthly(flatSelf(tc.fixed, tc.vl), nil)
		q := QuoteMonthly(flatQuote("api", tc.va), 256, 128, "contract")
		x := FindCrossover(self, q, Capacity{PerBoxRate: F(100), MaxBoxes: 1}, 0.1)
		if !x.Exists || x.NRounded == nil {
			t.Fatalf("%s: no crossover", tc.fixed)
		}
		want := RoundRequests(*x.N, Wanted)
		if tc.wantN != 0 && want != tc.wantN {
			t.Errorf("%s: N rounded = %d, want %d", tc.fixed, want, tc.wantN)
		}
		if *x.NRounded != want || !strings.Contains(x.Text, DisplayCount(want)+" requests a month") {
			t.Errorf("%s: box %d, text %q: not N rounded up (%d)", tc.fixed, *x.NRounded, x.Text, want)
		}
		m := formulaTerms.FindStringSubmatch(x.FormulaRounded)
		if m == nil {
			t.Fatalf("%s: formula %q", tc.fixed, x.FormulaRounded)
		}
		n := d(m[1]).Sub(d(m[2])).Div(d(m[3]).Sub(d(m[4])))
		if got := RoundRequests(n, Wanted); got != want || m[6] != DisplayCount(want) {
			t.Errorf("%s: the shown formula %q gives %d, ends %s; N is %d", tc.fixed, x.FormulaRounded, got, m[6], want)
		}
		// The quotient shown is the shown figures' and the exact N's alike.
		if m[5] != quotientText(n) || m[5] != quotientText(*x.N) {
			t.Errorf("%s: the shown formula %q says %s; its figures give %s, the exact N is %s", tc.fixed, x.FormulaRounded, m[5], n, x.N)
		}
	}
}

func TestChartNumberText(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{groupInt(66666.7), "66,667"}, {groupInt(999), "999"}, {groupInt(1234567), "1,234,567"},
		{compactCount(8_275_383), "8.28 million"}, {compactCount(30e6), "30 million"}, {compactCount(43_245), "43,245"},
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

func TestSteppedCrossoverRanges(t *testing.T) {
	d := decimal.RequireFromString
	tests := []struct {
		name           string
		fl, fa, vl, va string
		perBox         float64
		maxBoxes       int
		want           []SteppedRange // nil: no stepped crossover
		wantText       string
	}{
		{
			// One box serves 72,000 a month. One box beats the API from
			// 1,690 / 0.03 = 56,333.3; the second box's 1,690 hands the
			// win back to the API until 3,380 / 0.03 = 112,666.7.
			name: "a second box makes the API cheaper again", fl: "1690", fa: "0", vl: "0", va: "0.03", perBox: 72_000, maxBoxes: 2,
			want: []SteppedRange{{56_334, 72_000, 1, 1}, {112_667, 144_000, 2, 2}},
			wantText: "self-hosting is cheaper from 56,334 to 72,000 requests a month (1 box); " +
				"above that a second box makes the API cheaper again, up to 112,666 requests a month; " +
				"self-hosting is cheaper again from 112,667 to 144,000 requests a month (2 boxes); " +
				"above 144,000 requests a month demand exceeds the plan's 2 boxes",
		},
		{
			name: "the plan's last box hands the win back", fl: "1690", fa: "0", vl: "0", va: "0.03", perBox: 72_000, maxBoxes: 3,
			want: []SteppedRange{{56_334, 72_000, 1, 1}, {112_667, 144_000, 2, 2}, {169_001, 216_000, 3, 3}},
			wantText: "; above that a third box makes the API cheaper again, up to 169,000 requests a month; " +
				"self-hosting is cheaper again from 169,001 to 216,000 requests a month (3 boxes); above 216,000 requests a month demand exceeds the plan's 3 boxes",
		},
		{
			// Each box pays for itself long before it is full: one range.
			name: "cheaper across the steps", fl: "100", fa: "0", vl: "0", va: "0.03", perBox: 72_000, maxBoxes: 3,
			want:     []SteppedRange{{3_334, 216_000, 1, 3}},
			wantText: "self-hosting is cheaper from 3,334 to 216,000 requests a month (1 to 3 boxes); above 216,000 requests a month demand exceeds the plan's 3 boxes",
		},
		{
			name: "one box", fl: "100", fa: "0", vl: "0", va: "0.03", perBox: 72_000, maxBoxes: 1,
			want:     []SteppedRange{{3_334, 72_000, 1, 1}},
			wantText: "self-hosting is cheaper from 3,334 to 72,000 requests a month (1 box); above 72,000 requests a month demand exceeds the plan's 1 box",
		},
		{
			// The API is cheaper per request but has a large fixed charge:
			// self-hosting wins at low demand only.
			name: "API cheaper per request, dearer fixed", fl: "1000", fa: "1500", vl: "0.02", va: "0.01", perBox: 72_000, maxBoxes: 2,
			want: []SteppedRange{{0, 49_999, 1, 1}},
			wantText: "self-hosting is cheaper up to 49,999 requests a month (1 box); above that the API is cheaper, up to 144,000 requests a month; " +
				"above 144,000 requests a month demand exceeds the plan's 2 boxes",
		},
		{
			name: "never cheaper", fl: "3000", fa: "0", vl: "0.01", va: "0.05", perBox: 18_000, maxBoxes: 4,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := steppedCrossover(d(tt.fl), d(tt.fa), d(tt.vl), d(tt.va), tt.perBox, tt.maxBoxes)
			if tt.want == nil {
				if got != nil {
					t.Fatalf("stepped = %+v, want none", got)
				}
				return
			}
			if got == nil {
				t.Fatal("no stepped crossover")
			}
			if !slices.Equal(got.Ranges, tt.want) {
				t.Errorf("ranges = %+v, want %+v", got.Ranges, tt.want)
			}
			if got.Demand != tt.want[0].From || got.Boxes != tt.want[0].MinBoxes {
				t.Errorf("first = %d with %d, want %d with %d", got.Demand, got.Boxes, tt.want[0].From, tt.want[0].MinBoxes)
			}
			if !strings.Contains(got.Text, tt.wantText) {
				t.Errorf("text = %q\nwant it to contain %q", got.Text, tt.wantText)
			}
			if strings.Contains(got.Text, "box(es)") {
				t.Errorf("text = %q", got.Text)
			}
		})
	}
}

func TestCrossoverTextSaysTheSteppedAnswer(t *testing.T) {
	// N = 56,333.3 (rounded up: 56,334) lies within one box, but the expected 80,000 needs two
	// boxes, where the API is cheaper: the text must say so.
	self := SelfHostedMonthly(flatSelf("1690", "0"), nil)
	q := QuoteMonthly(flatQuote("api", "0.03"), 256, 128, "contract")
	x := FindCrossover(self, q, Capacity{PerBoxRate: F(2), MaxBoxes: 2}, 0.1) // 2 x 3600 / 0.1 = 72,000 a month a box
	for _, want := range []string{"breaks even with api at 56,334 requests a month (1,853 a day)", "a second box makes the API cheaper again, up to 112,666", "exceeds the plan's 2 boxes"} {
		if !strings.Contains(x.Text, want) {
			t.Errorf("text = %q, want %q", x.Text, want)
		}
	}
	for _, tc := range []struct {
		n    int
		want string
	}{{2, "second"}, {10, "tenth"}, {11, "11th"}, {21, "21st"}, {22, "22nd"}, {23, "23rd"}, {112, "112th"}} {
		if got := ordinal(tc.n); got != tc.want {
			t.Errorf("ordinal(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

// Where self-hosting breaks even only beyond what a box serves and no
// count of whole boxes is ever cheaper, the stepped answer is that
// sentence, not a blank; without a box's capacity, what it lacks.
func TestSteppedNoteSaysWhyNoRange(t *testing.T) {
	self := SelfHostedMonthly(flatSelf("3000", "0.01"), nil)
	q := QuoteMonthly(flatQuote("api", "0.0101"), 256, 128, "contract")
	x := FindCrossover(self, q, Capacity{PerBoxRate: F(0.5), MaxBoxes: 2}, 0.1)
	if x.Stepped != nil || !strings.Contains(x.SteppedNote, "self-hosting is never cheaper") || !strings.Contains(x.Text, x.SteppedNote) {
		t.Errorf("stepped %+v, note %q, text %q", x.Stepped, x.SteppedNote, x.Text)
	}
	x = FindCrossover(self, q, Capacity{MaxBoxes: 2}, 0.1)
	if x.Stepped != nil || !strings.Contains(x.SteppedNote, "the stepped crossover cannot be computed") {
		t.Errorf("no capacity: stepped %+v, note %q", x.Stepped, x.SteppedNote)
	}
}
