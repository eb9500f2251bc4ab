package planner

import (
	"errors"
	"strings"
	"testing"
)

// Seed figures of a six-hour soak sold as a token API: 11.3 req/s of
// measured capacity, 1,700 input and 420 output tokens a request at 0.06
// and 0.25 per 1M, 62 % of capacity sold over 6 selling hours, 25.74 of rent
// for them. Modelled: 0.000207 a request x 11.3 x 3,600 x 6 = 244,080
// requests at capacity, x 62 % = 31.33, margin 5.59 = 17.8 %. The ledger
// billed 30.71: margin 30.71 - 25.74 = 4.97, 16.2 % of billed revenue.
func TestProviderBilledRevenue(t *testing.T) {
	p := ProviderInputs{
		InputPerMTokens: Fig("0.06", "USD/1M tokens", "test config", "2026-11-20"), OutputPerMTokens: Fig("0.25", "USD/1M tokens", "test config", "2026-11-20"),
		ExpectedUtilisation: Fig("0.62", "fraction", "soak", "2026-11-20"), CapacityRate: Fig("11.3", "req/s", "bench", "2026-11-20"),
		InputTokens: Fig("1700", "tokens", "soak", "2026-11-20"), OutputTokens: Fig("420", "tokens", "soak", "2026-11-20"),
		HoursPerMonth: Fig("6", "h", "soak", "2026-11-20"),
	}
	self := SelfHostedCost{FixedPerBox: NewMoney(dec("25.74"))}
	v := ProviderMonthly(p, self, Capacity{}, 0, 0, "")
	if v.BilledRevenue != nil || strings.Contains(v.Text, "ledger") {
		t.Errorf("billed revenue without a ledger total: %+v", v.BilledRevenue)
	}
	wantDec(t, "modelled revenue", v.RevenueAtExpected.Rounded, "31.33")
	if got := DisplayShare(*v.MarginAtExpectedUtilisation); got != "17.8 %" {
		t.Errorf("modelled margin = %s", got)
	}

	p.BilledRevenue = Fig("30.71", "USD", "gateway billing ledger", "2026-11-20")
	v = ProviderMonthly(p, self, Capacity{}, 0, 0, "")
	wantDec(t, "billed revenue", v.BilledRevenue.Rounded, "30.71")
	wantDec(t, "billed cost", v.BilledCost.Rounded, "25.74")
	wantDec(t, "billed margin", v.BilledMargin.Rounded, "4.97")
	if got := DisplayShare(*v.BilledMarginShare); got != "16.2 %" {
		t.Errorf("billed margin = %s", got)
	}
	for _, want := range []string{"the ledger billed 30.71 (gateway billing ledger, 2026-11-20) against 25.74 of cost: a margin of 4.97, 16.2 % of billed revenue, beside the modelled 31.33 (17.8 %)"} {
		if !strings.Contains(v.Text, want) {
			t.Errorf("text %q lacks %q", v.Text, want)
		}
	}
	// The ledger total is evidence with its own date.
	found := false
	for _, e := range providerEvidence(&p) {
		found = found || e.Field == "provider.billed_revenue" && e.Source == "gateway billing ledger" && e.EvidenceDate == "2026-11-20"
	}
	if !found {
		t.Errorf("billed revenue not in the evidence: %+v", providerEvidence(&p))
	}
}

// A ledger total keeps its own source and date, and is refused without
// them: the shared source of the selling prices does not describe it.
func TestProviderBilledRevenueNeedsItsLedger(t *testing.T) {
	p := ProviderInputs{
		InputPerMTokens:  Fig("0.06", "USD/1M tokens", "test config", "2026-11-20"),
		OutputPerMTokens: Fig("0.25", "USD/1M tokens", "test config", "2026-11-20"),
		BilledRevenue:    &Figure{Amount: dec("30.71"), Unit: "USD"},
	}
	var es FieldErrors
	if !errors.As(p.Validate(), &es) || len(es) != 2 || es[0].Field != "provider.billed_revenue.source" || es[1].Field != "provider.billed_revenue.evidence_date" {
		t.Errorf("Validate() = %v, want the ledger's source and date refused", es)
	}
	p.BilledRevenue.Source, p.BilledRevenue.EvidenceDate = "gateway billing ledger", "2026-11-20"
	if err := p.Validate(); err != nil {
		t.Errorf("Validate() = %v", err)
	}
}
