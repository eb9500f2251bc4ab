package web

import (
	"net/url"
	"strings"

	"capplan/planner"
	"capplan/web/store"
)

// quoteForm reads the quote form. The quote's source and evidence date are
// those of every price in it; the planner checks the amounts.
func readQuoteForm(f url.Values) (store.Quote, formErrors) {
	errs := formErrors{}
	str := func(name string) string { return strings.TrimSpace(f.Get(name)) }
	q := store.Quote{
		Q:            planner.Quote{Name: str("quote.name"), Provider: str("quote.provider"), Model: str("quote.model")},
		Region:       str("region"),
		Currency:     strings.ToUpper(str("currency")),
		Terms:        str("terms"),
		Source:       str("source"),
		EvidenceDate: str("evidence_date"),
	}
	if q.Currency == "" {
		errs["currency"] = "required, e.g. EUR"
	} else if !isCurrencyCode(q.Currency) {
		errs["currency"] = "a three-letter currency code, e.g. EUR"
	}
	if q.Source == "" {
		errs["source"] = "required: name the offer, e.g. the provider's price page or the signed quote"
	}
	if q.EvidenceDate == "" {
		errs["evidence_date"] = "required (YYYY-MM-DD): the date of the quote"
	} else if !isDate(q.EvidenceDate) {
		errs["evidence_date"] = "must be a date, YYYY-MM-DD"
	}
	readFields(f, &q.Q, planner.QuoteFields, q.Currency, errs)
	for _, fd := range planner.QuoteFields {
		if fig := *fd.Figure(&q.Q); fig != nil {
			fig.Source, fig.EvidenceDate = q.Source, q.EvidenceDate
		}
	}
	readQuoteTiersAndTax(f, &q.Q, q.Currency, q.Source, q.EvidenceDate, errs)
	// A price's unit naming another currency than the quote's is refused.
	mergeFieldErrors(errs, q.Q.CheckUnitCurrencies(q.Currency))
	if err := q.Q.Validate(); err != nil {
		fe := formErrors{}
		mergeFieldErrors(fe, err)
		for k, msg := range fe {
			if strings.HasSuffix(k, ".evidence_date") {
				continue // the quote's own date, reported above
			}
			if _, seen := errs[k]; !seen {
				errs[k] = msg
			}
		}
	}
	return q, errs
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

// figureAmount shows a Figure's amount, "—" when not typed.
func figureAmount(f *planner.Figure) string {
	if f == nil {
		return "—"
	}
	return groupDigits(f.Amount.String())
}

// quoteUnit is a quote price's unit for its label: in the typed currency
// when that is a currency code ("EUR/1M tokens"), else without one ("per
// 1M tokens") rather than a dash or whatever was typed.
func quoteUnit(unit, typed string) string {
	if cur := strings.ToUpper(strings.TrimSpace(typed)); isCurrencyCode(cur) {
		return unitFor(unit, cur)
	}
	if rest, ok := strings.CutPrefix(unit, "CUR/"); ok {
		return "per " + rest
	}
	return unitFor(unit, "")
}
