package xlsx

import (
	"bytes"
	"testing"

	"capplan/planner"
)

// financeInputs is the worked example with its quote priced in USD at a
// dated rate, a tokenizer counting 10 % more, half the input tokens from
// the cache at 1 USD per million, 100 USD platform charges and 20 % tax
// that is not recoverable; and a provider view selling tokens at 12 / 45
// EUR per million at 60 % utilisation.
func financeInputs() planner.Inputs {
	in := workedInputs()
	in.ExchangeRates = []planner.ExchangeRate{{Currency: "USD", Rate: planner.Fig("0.9", "EUR/USD", "ECB reference rate", "2026-11-28")}}
	q := &in.Quotes[0]
	q.Currency = "USD"
	q.TokenMultiplier = planner.Fig("1.1", "ratio", "tokenizer test", "2026-11-20")
	q.CacheHitShare = planner.Fig("0.5", "fraction", "traffic estimate", "2026-11-20")
	q.CachedInputPerMTokens = planner.Fig("1", "USD/1M tokens", "price page", "2026-11-20")
	q.Platform = planner.Fig("100", "USD/month", "price page", "2026-11-20")
	q.Tax = &planner.Tax{Rate: planner.Fig("0.2", "fraction", "tax office", "2026-11-20")}
	in.Provider = &planner.ProviderInputs{
		InputPerMTokens: planner.Fig("12", "EUR/1M tokens", "price list", "2026-11-20"), OutputPerMTokens: planner.Fig("45", "EUR/1M tokens", "price list", "2026-11-20"),
		ExpectedUtilisation: planner.Fig("0.6", "fraction", "sales plan", "2026-11-20"),
	}
	return in
}

// financePromises are the provider view's and the rates' figures.
func financePromises(t *testing.T, r Report) []promise {
	f := openBook(t, writeBook(t, r))
	pv := r.Result.Provider
	if pv == nil || pv.BreakEvenUtilisation == nil || pv.MarginAtExpectedUtilisation == nil {
		t.Fatalf("provider view = %+v", pv)
	}
	cent := 0.005
	return []promise{
		{"quote rate", namedCell(t, f, "Quote1_Rate"), 0.9, 1e-12},
		{"revenue per request", namedCell(t, f, "Provider_Revenue_Per_Request"), money(pv.RevenuePerRequest), 1e-9},
		{"revenue at capacity a month", namedCell(t, f, "Provider_Revenue_Capacity_Monthly"), money(*pv.RevenueAtCapacityMonthly), cent},
		{"monthly cost", namedCell(t, f, "Provider_Monthly_Cost"), money(pv.MonthlyCost), cent},
		{"break-even utilisation", namedCell(t, f, "Provider_Break_Even_Utilisation"), *pv.BreakEvenUtilisation, 1e-6},
		{"margin a month", namedCell(t, f, "Provider_Margin_Monthly"), money(*pv.MarginAtExpected), cent},
		{"margin share", namedCell(t, f, "Provider_Margin_Share"), *pv.MarginAtExpectedUtilisation, 1e-6},
		{"break-even a month", namedCell(t, f, "Provider_Break_Even_Monthly"), float64(*pv.BreakEvenMonthly), 0},
	}
}

func TestFinanceSheetCachedValues(t *testing.T) {
	r := testReport(financeInputs())
	// The USD quote: 1,100 input tokens, 550 at 10 and 550 cached at 1,
	// 550 output at 40: 28,050 per M = 0.02805 USD, x 1.2 tax x 0.9 =
	// 0.030294 EUR a request; 100 USD x 1.2 x 0.9 = 108 EUR a month.
	if got := r.Result.Quotes[0].PerRequest.Exact.String(); got != "0.030294" {
		t.Fatalf("V_api = %s, want 0.030294", got)
	}
	if got := r.Result.Quotes[0].Fixed.Exact.String(); got != "108" {
		t.Fatalf("F_api = %s, want 108", got)
	}
	f := openBook(t, writeBook(t, r))
	for _, p := range financePromises(t, r) {
		if formula(t, f, p.at) == "" && p.what != "margin share" {
			t.Errorf("%s: no formula", p.what)
		}
		if got := raw(t, f, p.at); !near(got, p.want, p.tol) {
			t.Errorf("%s at %s!%s: cached %q, want %v", p.what, p.at.sheet, p.at.name(), got, p.want)
		}
	}
}

// TestFinanceInputsRecalculate changes the exchange rate and the expected
// utilisation in the workbook, as finance would, and checks LibreOffice's
// figures against the planner's for the same inputs.
func TestFinanceInputsRecalculate(t *testing.T) {
	in := financeInputs()
	data := writeBook(t, testReport(in))
	f := openBook(t, data)
	set := func(name string, val any) {
		c := namedCell(t, f, name)
		if err := f.SetCellValue(c.sheet, c.name(), val); err != nil {
			t.Fatal(err)
		}
	}
	set("Rate_USD", 0.8)
	in.ExchangeRates[0].Rate = planner.Fig("0.8", "EUR/USD", "ECB reference rate", "2026-11-28")
	set("Provider_Expected_Utilisation", 0.75)
	in.Provider.ExpectedUtilisation = planner.Fig("0.75", "fraction", "sales plan", "2026-11-20")
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	want := testReport(in)
	checkRecalculated(t, buf.Bytes(), want.Result)
	sheets := recalc(t, buf.Bytes())
	for _, p := range financePromises(t, want) {
		if p.what == "quote rate" {
			p.want = 0.8
		}
		if got := at(sheets, p.at); !near(got, p.want, p.tol) {
			t.Errorf("%s at %s!%s: LibreOffice computed %q, the planner %v", p.what, p.at.sheet, p.at.name(), got, p.want)
		}
	}
}
