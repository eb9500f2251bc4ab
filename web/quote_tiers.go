package web

import (
	"net/url"

	"capplan/planner"
	"capplan/web/view"
)

// readQuoteTiersAndTax reads the quote form's volume bands (a blank band is
// skipped) and the invoice tax into q; prices are in the quote's currency
// and carry its source and date. The planner checks the bands' order.
func readQuoteTiersAndTax(r *formReader, q *planner.Quote, currency, source, date string) {
	fig := func(name, unit string) *planner.Figure {
		d, ok := r.decimal(name)
		if !ok {
			return nil
		}
		return &planner.Figure{Amount: d, Unit: unit, Source: source, EvidenceDate: date}
	}
	q.Tiers = nil
	for i := range view.TierSlots {
		from, hasFrom := r.decimal(view.TierName(i, "from_m_tokens"))
		t := planner.PriceTier{FromMTokens: from,
			InputPerMTokens:  fig(view.TierName(i, "input_per_m_tokens"), currency+"/1M tokens"),
			OutputPerMTokens: fig(view.TierName(i, "output_per_m_tokens"), currency+"/1M tokens")}
		if !hasFrom && t.InputPerMTokens == nil && t.OutputPerMTokens == nil {
			continue
		}
		q.Tiers = append(q.Tiers, t)
	}
	q.Tax = nil
	if rate := fig("quote.tax.rate", "fraction"); rate != nil {
		q.Tax = &planner.Tax{Rate: rate, Recoverable: r.check("quote.tax.recoverable")}
	} else if r.check("quote.tax.recoverable") {
		r.refuse("quote.tax.rate", "required when the tax is marked recoverable: 0.19 = 19 %")
	}
}

// quoteTiersAndTaxValues fills the bands and the tax from a stored quote.
func quoteTiersAndTaxValues(v url.Values, q planner.Quote) {
	for i, t := range q.Tiers {
		v.Set(view.TierName(i, "from_m_tokens"), t.FromMTokens.String())
		if t.InputPerMTokens != nil {
			v.Set(view.TierName(i, "input_per_m_tokens"), t.InputPerMTokens.Amount.String())
		}
		if t.OutputPerMTokens != nil {
			v.Set(view.TierName(i, "output_per_m_tokens"), t.OutputPerMTokens.Amount.String())
		}
	}
	if q.Tax != nil && q.Tax.Rate != nil {
		v.Set("quote.tax.rate", q.Tax.Rate.Amount.String())
		if q.Tax.Recoverable {
			v.Set("quote.tax.recoverable", "on")
		}
	}
}
