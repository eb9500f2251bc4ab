package planner

import (
	"errors"
	"strings"
	"testing"
)

// Dated evidence (docs/method.md, "Dated evidence"): prices, quotes,
// exchange rates and typed costs are evidence of today's cost, judged
// against the report's date: one dated after it, or older than the
// staleness limit on it, fails the evidence item, which names the input
// and its date. A quote retrieved today and a rate dated today pass for a
// report tested 10 days (or more) ago. The demo's test date is 2026-11-01
// and its date 2026-11-29.
func TestDatedEvidence(t *testing.T) {
	mustItem(t, Compute(demoInputs()), "evidence_dates", true, "none after the report date")
	for _, tc := range []struct {
		name   string
		edit   func(*Inputs)
		detail string
	}{
		{"a cost from after the report date", func(in *Inputs) {
			in.SelfHosted.LabourRate.EvidenceDate = "2026-12-24"
		}, "Operator labour loaded rate, dated 2026-12-24: dated after the report date 2026-11-29"},
		{"a rate from after the report date", func(in *Inputs) {
			in.ExchangeRates = []ExchangeRate{{Currency: "USD", Rate: Fig("0.92", "EUR/USD", "ECB reference rate", "2026-11-30")}}
		}, "Exchange rate USD: rate, dated 2026-11-30: dated after the report date 2026-11-29"},
		{"a stale rate", func(in *Inputs) {
			in.ExchangeRates = []ExchangeRate{{Currency: "USD", Rate: Fig("0.92", "EUR/USD", "ECB reference rate", "2026-06-01")}}
		}, "Exchange rate USD: rate, dated 2026-06-01: 181 days old, older than 90 days"},
		{"a stale quote under a shorter limit", func(in *Inputs) {
			in.StaleAfterDays = 20
		}, "dated 2026-11-01: 28 days old, older than 20 days"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := demoInputs()
			tc.edit(&in)
			r := Compute(in)
			mustItem(t, r, "evidence_dates", false, tc.detail)
			if r.Stale == 0 {
				t.Error("no evidence counted stale")
			}
		})
	}
	// A quote retrieved today and a rate dated today pass for a report
	// tested 10 days before: prices are judged against today, not the test.
	in := demoInputs()
	in.Contract.TestDate = "2026-11-19"
	in.ExchangeRates = []ExchangeRate{{Currency: "USD", Rate: Fig("0.92", "EUR/USD", "ECB reference rate", "2026-11-29")}}
	in.Quotes[0].OutputPerMTokens.EvidenceDate = "2026-11-29"
	in.Quotes[0].InputPerMTokens.EvidenceDate = "2026-11-29"
	mustItem(t, Compute(in), "evidence_dates", true, "")
}

func TestFutureEvidenceRefused(t *testing.T) {
	err := FutureEvidence("2026-12-03", RatesEvidence([]ExchangeRate{
		{Currency: "USD", Rate: Fig("0.92", "EUR/USD", "ECB", "2026-12-04")},
		{Currency: "GBP", Rate: Fig("1.15", "EUR/GBP", "ECB", "2026-12-03")},
	}))
	var fes FieldErrors
	if !errors.As(err, &fes) || len(fes) != 1 || fes[0].Field != "exchange_rates[0].rate.evidence_date" ||
		!strings.Contains(fes[0].Message, "dated 2026-12-04, after today (2026-12-03)") {
		t.Fatalf("err = %v", err)
	}
}
