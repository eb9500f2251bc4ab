package view

import (
	"fmt"
	"net/url"
	"strings"

	"capplan/planner"
)

// RateSlots is how many exchange rates the settings form offers.
const RateSlots = 3

// rateName is the form name of field of the settings form's i-th rate row.
func rateName(i int, field string) string { return fmt.Sprintf("exchange_rates[%d].%s", i, field) }

// hasTaxes reports whether any self-hosted line has a tax typed.
func hasTaxes(s planner.SelfHostedCosts) bool { return len(s.Taxes) > 0 }

// hasTaxErrors reports whether a per-line tax field was refused.
func hasTaxErrors(errs FormErrors) bool {
	for k := range errs {
		if strings.HasPrefix(k, "self_hosted.taxes.") {
			return true
		}
	}
	return false
}

// ratesValues fills the rate rows from the stored rates.
func ratesValues(v url.Values, rates []planner.ExchangeRate) {
	for i, x := range rates {
		p := fmt.Sprintf("exchange_rates[%d]", i)
		v.Set(p+".currency", x.Currency)
		if x.Rate != nil {
			v.Set(p+".rate", x.Rate.Amount.String())
			v.Set(p+".rate.source", x.Rate.Source)
			v.Set(p+".rate.evidence_date", x.Rate.EvidenceDate)
		}
	}
}
