package planner

import (
	"strings"
	"testing"
)

// A cost typed with a unit naming another currency than the report's is
// that currency's: converted at a dated rate with a line saying so, or,
// without a rate, refused at save in words and never added up as the
// report's currency.
func TestUnitNamingAnotherCurrency(t *testing.T) {
	if got := []string{UnitCurrency("EUR/h"), UnitCurrency("usd / month"), UnitCurrency("GBP"), UnitCurrency("W"), UnitCurrency("h/month")}; strings.Join(got, ",") != "EUR,USD,GBP,," {
		t.Errorf("UnitCurrency: %q", got)
	}
	s := SelfHostedCosts{Hosting: Fig("100", "EUR/month", "colocation invoice", "2026-11-01")}
	err := s.CheckCurrencies("USD", nil)
	if err == nil || !strings.Contains(err.Error(), `Hosting: the unit "EUR/month" names EUR, but the report is in USD and has no dated USD/EUR exchange rate: type the amount in USD, or enter a EUR rate under exchange rates first`) {
		t.Errorf("no rate: %v", err)
	}
	// The report's own currency, or no currency at all, passes.
	if err := (SelfHostedCosts{Hosting: Fig("100", "USD/month", "colocation invoice", "2026-11-01"), PowerWatts: Fig("640", "W", "meter", "2026-11-01")}).CheckCurrencies("USD", nil); err != nil {
		t.Errorf("USD in a USD report: %v", err)
	}
	rates := []ExchangeRate{{Currency: "EUR", Rate: Fig("1.08", "USD/EUR", "ECB reference rate", "2026-11-01")}}
	if err := s.CheckCurrencies("USD", rates); err != nil {
		t.Errorf("with a EUR rate: %v", err)
	}
	// Computed: 100 EUR x 1.08 = 108 USD, the line naming the original and
	// the rate; without a rate, zero and said so, never 100 USD.
	line := func(conv *converter) CostLine {
		for _, l := range selfHostedMonthly(s, nil, conv, TaxNet, nil).Lines {
			if l.Category == "hosting" {
				return l
			}
		}
		t.Fatal("no hosting line")
		return CostLine{}
	}
	l := line(newConverter("USD", rates))
	if l.Monthly.Display() != "108.00" || len(l.Conversions) != 1 || l.Conversions[0].Currency != "EUR" || l.Conversions[0].RateDate != "2026-11-01" {
		t.Errorf("converted: %s %+v", l.Monthly.Display(), l.Conversions)
	}
	conv := newConverter("USD", nil)
	l = line(conv)
	if !l.Monthly.Exact.IsZero() || !strings.Contains(l.Basis, "no exchange rate for EUR") {
		t.Errorf("without a rate: %s (%s)", l.Monthly.Display(), l.Basis)
	}
	if ps := conv.problems(); len(ps) != 1 || !strings.Contains(ps[0].Message, "EUR is used") {
		t.Errorf("problems: %v", ps)
	}
}

// A quote's price whose unit names another currency than the quote's is
// refused at save; the quote's own currency passes.
func TestQuoteUnitNamingAnotherCurrency(t *testing.T) {
	q := Quote{Name: "q", InputPerMTokens: Fig("3", "USD/1M tokens", "price page", "2026-11-01"), OutputPerMTokens: Fig("15", "EUR/1M tokens", "price page", "2026-11-01")}
	err := q.CheckUnitCurrencies("EUR")
	if err == nil || !strings.Contains(err.Error(), `the unit "USD/1M tokens" names USD, but the quote is in EUR`) || strings.Contains(err.Error(), `"EUR/1M tokens"`) {
		t.Errorf("EUR quote: %v", err)
	}
	q.InputPerMTokens.Unit = "EUR/1M tokens"
	if err := q.CheckUnitCurrencies("eur"); err != nil {
		t.Errorf("all in EUR: %v", err)
	}
}
