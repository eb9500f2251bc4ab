package web

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"capplan/planner"
)

// rateSlots is how many exchange rates the settings form offers.
const rateSlots = 3

// readRates reads the exchange rates of the settings form: rows
// exchange_rates[i].currency, .rate, .rate.source and .rate.evidence_date;
// a blank row is skipped. Field names are the planner's, so its
// validation marks the fields.
func readRates(f url.Values, report string, errs formErrors) []planner.ExchangeRate {
	var out []planner.ExchangeRate
	for i := 0; i < rateSlots; i++ {
		p := fmt.Sprintf("exchange_rates[%d]", i)
		cur := strings.ToUpper(strings.TrimSpace(f.Get(p + ".currency")))
		raw := strings.TrimSpace(f.Get(p + ".rate"))
		src, date := strings.TrimSpace(f.Get(p+".rate.source")), strings.TrimSpace(f.Get(p+".rate.evidence_date"))
		if cur == "" && raw == "" && src == "" && date == "" {
			continue
		}
		x := planner.ExchangeRate{Currency: cur}
		if raw != "" {
			d, err := decimal.NewFromString(normalNumber(raw))
			if err != nil {
				errs[p+".rate"] = "must be a number (" + numberHint + "); got " + strconv.Quote(raw)
				continue
			}
			x.Rate = &planner.Figure{Amount: d, Unit: report + "/" + cur, Source: src, EvidenceDate: date}
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
