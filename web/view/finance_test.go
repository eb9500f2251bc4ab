package view

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"capplan/planner"
	"capplan/web/store"
)

// figure is amount in unit with its evidence.
func figure(amount, unit string) *planner.Figure {
	return &planner.Figure{Amount: decimal.RequireFromString(amount), Unit: unit, Source: "price page", EvidenceDate: "2026-12-01"}
}

// A quote in USD in the demo's EUR report: without a dated rate it is
// left out and says why; with one it is compared, each converted amount
// shown with its original and the rate.
func TestMixedCurrencyQuoteOnThePage(t *testing.T) {
	v := demoReport(t)
	q := planner.Quote{Name: "Tiered USD API", Provider: "Provider X", Model: "model-y", Currency: "USD",
		InputPerMTokens: figure("10", "USD/1M tokens"), OutputPerMTokens: figure("40", "USD/1M tokens"), RetryRate: figure("0", "fraction"),
		Tax: &planner.Tax{Rate: figure("0.2", "fraction"), Recoverable: true}}
	// Attached from the library: the report's inputs and the library's
	// record beside them (its currency column, region, source).
	v.In.Quotes = append(v.In.Quotes, q)
	v.Quotes = append(v.Quotes, store.Quote{ID: 99, Q: q, Region: "eu-west", Currency: "USD", Source: "price page", EvidenceDate: "2026-12-01"})
	v.In.ExchangeRates = nil
	page := stepPageOf(t, withInputs(v, v.In), PrintStep)
	if !strings.Contains(page, `data-testid="quote-excluded"`) || !strings.Contains(page, `data-testid="currency-mismatch"`) {
		t.Errorf("a USD quote without a rate is not marked as left out")
	}

	v.In.ExchangeRates = []planner.ExchangeRate{{Currency: "USD", Rate: figure("0.5", "EUR/USD")}}
	page = stepPageOf(t, withInputs(v, v.In), PrintStep)
	if strings.Contains(page, `data-testid="quote-excluded"`) || !strings.Contains(page, `data-testid="currency-converted"`) {
		t.Errorf("with a rate the USD quote is still left out")
	}
	if !strings.Contains(page, "USD at 0.5") {
		t.Errorf("converted amounts do not show their original and rate")
	}
}

// The provider's view with selling prices and a typed expected
// utilisation of 70 %: the break-even utilisation as a percentage and the
// margin at 70 % as a share of revenue.
func TestProviderViewOnThePage(t *testing.T) {
	v := demoReport(t)
	v.In.Provider = &planner.ProviderInputs{InputPerMTokens: figure("1.40", "EUR/1M tokens"), OutputPerMTokens: figure("5.50", "EUR/1M tokens"),
		ExpectedUtilisation: figure("0.7", "fraction")}
	page := stepPageOf(t, withInputs(v, v.In), PrintStep)
	if be := testid(page, "break-even"); !strings.HasSuffix(be, "%") {
		t.Errorf("break-even %q", be)
	}
	if !strings.Contains(page, "Margin at 70") || !strings.Contains(testid(page, "provider-margin"), "of revenue") {
		t.Errorf("margin not at the typed 70 %%: %q", testid(page, "provider-margin"))
	}
}

// A tax on one cost line, 20 % recoverable VAT on hosting, is shown on
// its line and, on the net basis, not counted.
func TestLineTaxOnThePage(t *testing.T) {
	v := demoReport(t)
	v.In.SelfHosted.Taxes = map[string]*planner.Tax{"hosting": {Rate: figure("0.2", "fraction"), Recoverable: true}}
	page := stepPageOf(t, withInputs(v, v.In), PrintStep)
	if !strings.Contains(page, "+ 20 % tax (recoverable: not counted)") {
		t.Errorf("the hosting line does not show its recoverable tax")
	}
	if strings.Contains(stepPageOf(t, demoReport(t), PrintStep), "+ 20 % tax") {
		t.Error("the demo without the tax shows one")
	}
}
