package web

import (
	"fmt"
	"strings"

	"capplan/planner"
	"capplan/web/view"
)

// readRates reads the exchange rates of the settings form: rows
// exchange_rates[i].currency, .rate, .rate.source and .rate.evidence_date;
// a blank row is skipped. Field names are the planner's, so its
// validation marks the fields.
func readRates(r *formReader, report string) []planner.ExchangeRate {
	var out []planner.ExchangeRate
	for i := 0; i < view.RateSlots; i++ {
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
