package planner

import "testing"

// Dated evidence (docs/method.md, "Dated evidence"): an exchange rate, a
// quote's price or a cost dated after the test date, or after the report's
// date, or older than the staleness limit, fails the evidence item, which
// names the input and its date; evidence of the test's day and before
// passes. The demo's test date is 2026-11-01 and its date 2026-11-29.
func TestDatedEvidence(t *testing.T) {
	mustItem(t, Compute(demoInputs()), "evidence_dates", true, "none after the test date")
	for _, tc := range []struct {
		name   string
		edit   func(*Inputs)
		detail string
	}{
		{"a rate from after the test", func(in *Inputs) {
			in.ExchangeRates = []ExchangeRate{{Currency: "USD", Rate: Fig("0.92", "EUR/USD", "ECB reference rate", "2026-11-20")}}
		}, "Exchange rate USD: rate, dated 2026-11-20: dated after the test date 2026-11-01"},
		{"a quote from after the test", func(in *Inputs) {
			in.Quotes[0].OutputPerMTokens.EvidenceDate = "2026-11-02"
		}, "dated 2026-11-02: dated after the test date 2026-11-01"},
		{"a cost from after the test", func(in *Inputs) {
			in.SelfHosted.LabourRate.EvidenceDate = "2026-11-15"
		}, "Operator labour loaded rate, dated 2026-11-15: dated after the test date 2026-11-01"},
		{"a cost from after the report date", func(in *Inputs) {
			in.Contract.TestDate = "" // judged against the report date alone
			in.SelfHosted.LabourRate.EvidenceDate = "2026-12-24"
		}, "Operator labour loaded rate, dated 2026-12-24: dated after the report date 2026-11-29"},
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
	// The test's own day passes.
	in := demoInputs()
	in.ExchangeRates = []ExchangeRate{{Currency: "USD", Rate: Fig("0.92", "EUR/USD", "ECB reference rate", "2026-11-01")}}
	mustItem(t, Compute(in), "evidence_dates", true, "")
}
