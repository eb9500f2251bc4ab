package web

import (
	"fmt"
	"net/url"
	"strings"

	"capplan/planner"
)

// rateSlots is how many exchange rates the settings form offers.
const rateSlots = 3

// readRates reads the exchange rates of the settings form: rows
// exchange_rates[i].currency, .rate, .rate.source and .rate.evidence_date;
// a blank row is skipped. Field names are the planner's, so its
// validation marks the fields.
func readRates(r *formReader, report string) []planner.ExchangeRate {
	var out []planner.ExchangeRate
	for i := 0; i < rateSlots; i++ {
		p := fmt.Sprintf("exchange_rates[%d]", i)
		cur := strings.ToUpper(r.str(p + ".currency"))
		if cur == "" && r.str(p+".rate") == "" && r.str(p+".rate.source") == "" && r.str(p+".rate.evidence_date") == "" {
			continue
		}
		x := planner.ExchangeRate{Currency: cur}
		x.Rate = r.figure(p+".rate", report+"/"+cur)
		if r.failed(p + ".rate") {
			continue
		}
		if x.Rate != nil {
			x.Rate.Unit = report + "/" + cur // the pair's, whatever unit was posted
		}
		out = append(out, x)
	}
	return out
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

// rateName is the form name of field of the settings form's i-th rate row.
func rateName(i int, field string) string { return fmt.Sprintf("exchange_rates[%d].%s", i, field) }

// hasTaxes reports whether any self-hosted line has a tax typed.
func hasTaxes(s planner.SelfHostedCosts) bool { return len(s.Taxes) > 0 }

// hasTaxErrors reports whether a per-line tax field was refused.
func hasTaxErrors(errs formErrors) bool {
	for k := range errs {
		if strings.HasPrefix(k, "self_hosted.taxes.") {
			return true
		}
	}
	return false
}
