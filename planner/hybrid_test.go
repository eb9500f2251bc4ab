package planner

import (
	"strings"
	"testing"
)

// The hybrid plan by hand (docs/method.md, "The hybrid plan"): a box
// serves 1 req/s and costs 15,000 a month; the API charges 0.01 a request.
// A day of 86,400 requests runs 8 hours at 2 req/s (7,200 an hour) and 16
// at 0.5 req/s (1,800 an hour): 2,628,000 requests a month (x 365 / 12).
//   - n = 0: all to the API, 26,280.00 (10.00 per 1,000).
//   - n = 1: the 8 busy hours overflow by 1 req/s, 28,800 a day, 876,000 a
//     month to the API (8,760.00): 15,000 + 8,760 = 23,760.00 (9.04).
//   - n = 2: every hour served: 30,000.00 (11.42).
//
// The best is one box and the peaks bought.
func TestHybridByHand(t *testing.T) {
	day := make([]float64, 24)
	for h := range day {
		day[h] = 1800.0 / 86400
		if h >= 9 && h < 17 {
			day[h] = 7200.0 / 86400
		}
	}
	s := Scenario{Name: "expected", MonthlyRequests: 2_628_000, BusyHourKind: BusyPeakRate, PeakRate: 2, DayProfile: day}
	capa := Capacity{PerBoxRate: F(1), MaxBoxes: 2}
	self := SelfHostedMonthly(flatSelf("15000", "0"), nil)
	q := QuoteMonthly(flatQuote("api", "0.01"), 256, 128, "contract")
	res := CostScenario(s, capa, self, []QuoteCost{q})
	if *res.BoxesNeeded != 2 {
		t.Fatalf("boxes needed %d, want 2", *res.BoxesNeeded)
	}
	h := BuildHybrid(s, capa, self, []QuoteCost{q}, nil, *res.BoxesNeeded)
	if h == nil || h.Shape != ShapeTyped || len(h.Options) != 3 {
		t.Fatalf("hybrid %+v", h)
	}
	for i, want := range []struct {
		overflow       int64
		monthly, per1k string
	}{{2_628_000, "26,280.00", "10.00"}, {876_000, "23,760.00", "9.04"}, {0, "30,000.00", "11.42"}} {
		o := h.Options[i]
		if o.Overflow != want.overflow || o.Monthly.Display() != want.monthly || o.CostPer1000.Display() != want.per1k {
			t.Errorf("n = %d: overflow %d, monthly %s, per 1,000 %s; want %d, %s, %s", i, o.Overflow, o.Monthly.Display(), o.CostPer1000.Display(), want.overflow, want.monthly, want.per1k)
		}
	}
	if h.Best != 1 || !h.Wins || h.Text != "own 1 box and buy the peaks: 9.04 per 1,000 (876,000 overflow requests a month to api)" {
		t.Errorf("best %d, wins %v, %q", h.Best, h.Wins, h.Text)
	}
	// Without a profile the busy hour's share alone gives flat plus peak,
	// and says so.
	s.DayProfile = nil
	if h := BuildHybrid(s, capa, self, []QuoteCost{q}, nil, 2); h.Shape != ShapeFlatPeak || !strings.Contains(h.ShapeText, "flat plus peak") {
		t.Errorf("no profile: %s %q", h.Shape, h.ShapeText)
	}
}
