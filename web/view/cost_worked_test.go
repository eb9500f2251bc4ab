package view

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"capplan/planner"
)

// workedInputs is the worked example of docs/method.md as the costs,
// settings and scenarios forms store it and the quote library attaches
// it: self-hosted inputs adding up to EUR 2,000 a month (24,000 over 24
// months, 500 W x 730 h x 0.40 /kWh, 54 + 100 + 50 + 25 + 15 + 10, 8 h x
// 75 /h labour), each line with its own invoice dated date; 80,000
// requests in the expected month; an API quote at 10 and 40 per million
// input and output tokens (0.03 a request of 1,000 + 500 tokens).
func workedInputs(date string) planner.Inputs {
	fig := func(field, amount, unit string) *planner.Figure {
		return &planner.Figure{Amount: decimal.RequireFromString(amount), Unit: unit, Source: "invoice " + field, EvidenceDate: date}
	}
	in := blankReport().In
	in.Contract = planner.Contract{Workload: planner.Workload{PromptTokens: 1000, OutputTokens: 500}}
	in.TokenBasis, in.MaxBoxes = "contract", 1
	in.SelfHosted = planner.SelfHostedCosts{
		EquipmentMode: "purchase", DepreciationMonths: 24,
		PurchasePrice: fig("purchase_price", "24000", "EUR"), PowerWatts: fig("power_watts", "500", "W"),
		PowerPricePerKWh: fig("power_price_per_kwh", "0.40", "EUR/kWh"),
		Facilities:       fig("facilities", "54", "EUR/month"), Hosting: fig("hosting", "100", "EUR/month"),
		Support: fig("support", "50", "EUR/month"), Software: fig("software", "25", "EUR/month"),
		Monitoring: fig("monitoring", "15", "EUR/month"), Backup: fig("backup", "10", "EUR/month"),
		LabourHoursPerMonth: fig("labour_hours_per_month", "8", "h/month"), LabourRate: fig("labour_rate", "75", "EUR/h"),
		DowntimeAllowance: fig("downtime_allowance", "0", "EUR/month"),
	}
	in.Scenarios = []planner.Scenario{{Name: "expected", MonthlyRequests: 80_000, BusyHourKind: planner.BusyDayShare, BusyHourShare: 0.3}}
	price := func(amount string) *planner.Figure {
		return &planner.Figure{Amount: decimal.RequireFromString(amount), Unit: "EUR/1M tokens", Source: "price page", EvidenceDate: date}
	}
	in.Quotes = []planner.Quote{{Name: "API X", Provider: "Provider X", Model: "model-y", Currency: "EUR",
		InputPerMTokens: price("10"), OutputPerMTokens: price("40"),
		RetryRate: &planner.Figure{Amount: decimal.Zero, Unit: "fraction", Source: "price page", EvidenceDate: date}}}
	return in
}

// The worked example's figures on the page: the box's monthly cost, the
// quote's price of a request, the cost per 1,000 of each option, the
// crossover, and the sections and charts they sit in.
func TestCostWorkedExampleOnPage(t *testing.T) {
	page := stepPageOf(t, withInputs(Report{}, workedInputs("2026-12-01")), PrintStep)
	for tid, want := range map[string]string{
		"fixed-per-box":                "2,000.00",
		"quote-per-request":            "0.03",
		"per1000-expected-self-hosted": "25.00",
		"per1000-expected-API X":       "30.00",
		"crossover-n":                  "66,667",
	} {
		if got := testid(page, tid); got != want {
			t.Errorf("page %s = %q, want %q", tid, got, want)
		}
	}
	for _, id := range []string{"costs", "scenarios", "crossover", "recommendation", "cost-chart", "per1000-chart"} {
		if !strings.Contains(page, `data-testid="`+id+`"`) {
			t.Errorf("page lacks %s", id)
		}
	}
}

// Labour typed as zero is marked so and left out of the box's cost;
// evidence older than the report's limit is marked stale where it is
// shown (the breakdown and the evidence table), and only that.
func TestCostLabourZeroAndStaleEvidence(t *testing.T) {
	in := workedInputs("2026-12-01")
	in.SelfHosted.LabourHoursPerMonth.Amount = decimal.Zero
	in.SelfHosted.LabourRate.Amount = decimal.Zero
	in.SelfHosted.Hosting.EvidenceDate = "2020-01-01"
	page := stepPageOf(t, withInputs(Report{}, in), PrintStep)
	if got := testid(page, "labour-zero"); got != "typed as zero" {
		t.Errorf("labour zero badge = %q", got)
	}
	if got := testid(page, "fixed-per-box"); got != "1,400.00" {
		t.Errorf("fixed per box = %q, want 1,400.00 (2,000 less the labour)", got)
	}
	if !regexp.MustCompile(`data-testid="stale">stale: \d+ days old, older than 90 days`).MatchString(page) {
		t.Errorf("the 2020 hosting evidence is not marked stale")
	}
	if n := strings.Count(page, `data-testid="stale"`); n != 2 { // in the breakdown and in the evidence table
		t.Errorf("%d stale marks, want 2 (only hosting)", n)
	}
}

// The busiest hour as a share of the day, as a peak rate and as a share
// of the month: each shown with its peak-to-average ratio, given back to
// the form as typed with its kind; a month share above a day's requests
// warns.
func TestScenarioBusyHourKinds(t *testing.T) {
	in := blankReport().In
	in.Contract = planner.Contract{Workload: planner.Workload{PromptTokens: 1000, OutputTokens: 500}}
	in.Scenarios = []planner.Scenario{
		// 36,500 a month is 1,200 a day: 10 % of it in the busiest hour is 2.4 times the average rate.
		{Name: "low", MonthlyRequests: 36_500, BusyHourKind: planner.BusyDayShare, BusyHourShare: 0.1},
		{Name: "expected", MonthlyRequests: 36_500, BusyHourKind: planner.BusyPeakRate, PeakRate: 0.05},
		// 8 % of the month in one hour: 2,920 requests, more than an average day's 1,200.
		{Name: "peak", MonthlyRequests: 36_500, BusyHourKind: planner.BusyMonthShare, BusyHourShare: 0.08},
	}
	page := stepPageOf(t, withInputs(Report{}, in), PrintStep)
	for id, want := range map[string]string{
		"peak-ratio-low": "2.40×", "busy-hour-low": "10 % of a day's requests",
		"peak-ratio-expected": "3.60×", "busy-hour-expected": "0.05 req/s at peak",
		"peak-ratio-peak": "58.4×",
	} {
		if got := html.UnescapeString(testid(page, id)); got != want {
			t.Errorf("%s = %q, want %q", id, got, want)
		}
	}
	if w := html.UnescapeString(testid(page, "busy-hour-warning-peak")); !strings.Contains(w, "more than an average day's 1,200") {
		t.Errorf("peak warning %q", w)
	}
	if w := testid(page, "busy-hour-warning-low"); w != "" {
		t.Errorf("plausible busy hour warned: %q", w)
	}
	for _, want := range []string{`name="scenarios[1].busy_hour" value="0.05"`, `<option value="peak_rate" selected`} {
		if !strings.Contains(page, want) {
			t.Errorf("form lacks %s", want)
		}
	}
}
