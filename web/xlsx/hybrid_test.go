package xlsx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"capplan/planner"
)

// handHybridInputs is the hybrid plan worked by hand (docs/method.md,
// "The hybrid plan"; planner TestHybridByHand) on the worked report: a box
// costs 15,000 a month (540,000 over 36 months, nothing else), the API
// 0.01 a request (no token price), and the expected month is 2,628,000
// requests, each day 8 hours at 2 req/s and 16 at 0.5 req/s, typed as a
// day profile.
func handHybridInputs() planner.Inputs {
	in := workedInputs()
	fig := func(a, unit string) *planner.Figure { return planner.Fig(a, unit, "test invoice", "2026-11-01") }
	sh := &in.SelfHosted
	sh.PurchasePrice, sh.Hosting, sh.LabourHoursPerMonth = fig("540000", "EUR"), fig("0", "EUR/month"), fig("0", "h/month")
	q := &in.Quotes[0]
	q.InputPerMTokens, q.OutputPerMTokens, q.PerRequestPrice = fig("0", "EUR/1M tokens"), fig("0", "EUR/1M tokens"), fig("0.01", "EUR")
	day, _ := planner.ParseDayProfile("9-17 at 7200, rest at 1800")
	in.Scenarios = []planner.Scenario{{Name: "expected", MonthlyRequests: 2_628_000, BusyHourKind: planner.BusyPeakRate, PeakRate: 2, DayProfile: day}}
	return in
}

// TestHybridByHandOnEverySurface: the hand-worked hybrid plan read from
// the planner's result as the page shows it, from the result's JSON as
// the API serves it, and from the workbook recalculated by LibreOffice
// with the box rate set to the example's 1 req/s (a changed input the
// Hybrid plan sheet must follow): overflow 2,628,000 / 876,000 / 0,
// monthly 26,280.00 / 23,760.00 / 30,000.00, per 1,000 10.00 / 9.04 /
// 11.42, own 1 box.
func TestHybridByHandOnEverySurface(t *testing.T) {
	r := testReport(handHybridInputs())
	res := &r.Result
	if res.SelfHosted.FixedPerBox.Display() != "15,000.00" || !res.SelfHosted.PerRequest.Exact.IsZero() || !res.Quotes[0].PerRequest.Exact.Equal(decimal.RequireFromString("0.01")) {
		t.Fatalf("F_local %s, V_local %s, V_api %s", res.SelfHosted.FixedPerBox.Display(), res.SelfHosted.PerRequest.Exact, res.Quotes[0].PerRequest.Display())
	}
	// The worked rows' box rate is not the example's 1 req/s: the
	// planner's hybrid for the example, as Compute builds it, with 1.
	res.Capacity.PerBoxRate, res.Capacity.Fleet = planner.F(1), nil
	sr := &res.Scenarios[0]
	sr.Hybrid = planner.BuildHybrid(sr.Scenario, res.Capacity, res.SelfHosted, res.Quotes, nil, 2)
	want := []struct {
		overflow       int64
		monthly, per1k string
	}{{2_628_000, "26,280.00", "10.00"}, {876_000, "23,760.00", "9.04"}, {0, "30,000.00", "11.42"}}

	// The page's figures: ScenarioResult.Hybrid.
	h := sr.Hybrid
	if h == nil || len(h.Options) != 3 || h.Best != 1 || !h.Wins || h.Shape != planner.ShapeTyped {
		t.Fatalf("hybrid %+v", h)
	}
	for n, w := range want {
		o := h.Options[n]
		if o.Overflow != w.overflow || o.Monthly.Display() != w.monthly || o.CostPer1000.Display() != w.per1k {
			t.Errorf("page, n = %d: %d, %s, %s; want %d, %s, %s", n, o.Overflow, o.Monthly.Display(), o.CostPer1000.Display(), w.overflow, w.monthly, w.per1k)
		}
	}

	// The API's: the result's JSON, scenarios[0].hybrid.
	raw, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var api struct {
		Scenarios []struct {
			Hybrid struct {
				Best    int  `json:"best"`
				Wins    bool `json:"wins"`
				Options []struct {
					Boxes       int   `json:"boxes"`
					Overflow    int64 `json:"overflow"`
					Monthly     struct{ Display string }
					CostPer1000 struct{ Display string } `json:"cost_per_1000"`
				} `json:"options"`
			} `json:"hybrid"`
		} `json:"scenarios"`
	}
	if err := json.Unmarshal(raw, &api); err != nil {
		t.Fatal(err)
	}
	ah := api.Scenarios[0].Hybrid
	if ah.Best != 1 || !ah.Wins || len(ah.Options) != 3 {
		t.Fatalf("API hybrid: best %d, wins %v, %d options", ah.Best, ah.Wins, len(ah.Options))
	}
	for n, w := range want {
		o := ah.Options[n]
		if o.Boxes != n || o.Overflow != w.overflow || o.Monthly.Display != w.monthly || o.CostPer1000.Display != w.per1k {
			t.Errorf("API, n = %d: %+v; want %d, %s, %s", n, o, w.overflow, w.monthly, w.per1k)
		}
	}

	// The workbook's, recalculated with the box rate typed as 1 req/s.
	data := writeBook(t, r)
	f := openBook(t, data)
	box := namedCell(t, f, "Capacity_Per_Box_Rate")
	if err := f.SetCellValue(box.sheet, box.name(), 1); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	sheets := recalc(t, buf.Bytes())
	base := scenarioBase(*sr)
	if got := at(sheets, namedCell(t, f, base+"_Hybrid_Best")); got != "1" {
		t.Errorf("workbook best n %q, want 1", got)
	}
	for n, w := range want {
		p := fmt.Sprintf("%s_Hybrid_%d_", base, n)
		if got := at(sheets, namedCell(t, f, p+"Overflow")); !near(got, float64(w.overflow), 0) {
			t.Errorf("workbook n = %d: overflow %q, want %d", n, got, w.overflow)
		}
		for _, c := range []struct{ name, want string }{{"Monthly", w.monthly}, {"Per_1000", w.per1k}} {
			got := strings.TrimSpace(at(sheets, namedCell(t, f, p+c.name)))
			if shown := displayOf(t, got); shown != c.want {
				t.Errorf("workbook n = %d: %s %q shows %s, want %s", n, c.name, got, shown, c.want)
			}
		}
	}
	// The best column is marked.
	best := namedCell(t, f, base+"_Hybrid_Best")
	if got := at(sheets, cell{best.sheet, best.col + 3, best.row}); got != "best" {
		t.Errorf("workbook: the one-box column reads %q, want best", got)
	}
}

// displayOf is a recalculated amount as the page shows it.
func displayOf(t *testing.T, got string) string {
	t.Helper()
	d, err := decimal.NewFromString(got)
	if err != nil {
		return "not a number: " + got
	}
	return planner.DisplayMoney(d)
}
