package web

import (
	"net/url"
	"strings"

	"capplan/planner"
	"capplan/web/store"
	"capplan/web/view"
)

// readQuoteForm reads the quote form. The quote's source and evidence date are
// those of every price in it; the planner checks the amounts.
func readQuoteForm(f url.Values) (store.Quote, view.FormErrors) {
	r := newFormReader(f)
	q := store.Quote{
		Q:            planner.Quote{Name: r.str("quote.name"), Provider: r.str("quote.provider"), Model: r.str("quote.model")},
		Region:       r.str("region"),
		Currency:     strings.ToUpper(r.str("currency")),
		Terms:        r.str("terms"),
		Source:       r.str("source"),
		EvidenceDate: r.date("evidence_date"),
	}
	if q.Currency == "" {
		r.refuse("currency", "required, e.g. EUR")
	} else if !view.IsCurrencyCode(q.Currency) {
		r.refuse("currency", refusal(wantCurrency, q.Currency))
	}
	if q.Source == "" {
		r.refuse("source", "required: name the offer, e.g. the provider's price page or the signed quote")
	}
	if q.EvidenceDate == "" {
		r.refuse("evidence_date", "required (YYYY-MM-DD): the date of the quote")
	}
	readFields(r, &q.Q, planner.QuoteFields, q.Currency)
	for _, fd := range planner.QuoteFields {
		if fig := *fd.Figure(&q.Q); fig != nil {
			fig.Source, fig.EvidenceDate = q.Source, q.EvidenceDate
		}
	}
	readQuoteTiersAndTax(r, &q.Q, q.Currency, q.Source, q.EvidenceDate)
	// A price's unit naming another currency than the quote's is refused.
	r.domainIn(q.Q.CheckUnitCurrencies(q.Currency))
	if err := q.Q.Validate(); err != nil {
		fe := view.FormErrors{}
		mergeFieldErrors(fe, err)
		for k, msg := range fe {
			if !strings.HasSuffix(k, ".evidence_date") { // the quote's own date, refused above
				r.refuse(k, msg)
			}
		}
	}
	return q, r.errs
}

// quoteValues fills the quote form from a stored quote.
func quoteValues(q store.Quote) url.Values {
	v := url.Values{}
	v.Set("quote.name", q.Q.Name)
	v.Set("quote.provider", q.Q.Provider)
	v.Set("quote.model", q.Q.Model)
	v.Set("region", q.Region)
	v.Set("currency", q.Currency)
	v.Set("terms", q.Terms)
	v.Set("source", q.Source)
	v.Set("evidence_date", q.EvidenceDate)
	for _, fd := range planner.QuoteFields {
		if fig := *fd.Figure(&q.Q); fig != nil {
			v.Set(fd.Key(), fig.Amount.String())
		}
	}
	quoteTiersAndTaxValues(v, q.Q)
	return v
}
