package web

import (
	"net/url"
	"strings"

	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/view"
)

// readFields reads a record's registry fields from a form: a Figure from
// key, key.unit, key.source and key.evidence_date (nil when no amount was
// typed), a whole number, or a choice. What cannot be parsed is refused
// under the field's key; the planner checks the rest.
func readFields[T any](r *formReader, rec *T, fields []planner.InputField[T], currency string) {
	for _, fd := range fields {
		key := fd.Key()
		switch {
		case fd.Figure != nil:
			*fd.Figure(rec) = r.figure(key, view.UnitFor(fd.Unit, currency))
		case fd.Int != nil:
			want := wantWhole
			if fd.Kind == planner.KindMonths {
				want += " of months"
			}
			*fd.Int(rec) = deref(r.integerAs(key, want))
		case fd.Text != nil:
			*fd.Text(rec) = r.str(key)
		}
	}
}

// readSelfHostedForm reads the self-hosted cost form and checks it with the
// planner's rules; errors are keyed by the planner's field names.
func readSelfHostedForm(f url.Values, currency string) (planner.SelfHostedCosts, view.FormErrors) {
	r := newFormReader(f)
	var s planner.SelfHostedCosts
	readFields(r, &s, planner.SelfHostedFields, currency)
	for _, l := range planner.TaxLines {
		key := "self_hosted.taxes." + l.Category
		rate := r.figure(key+".rate", "fraction")
		rec := r.check(key + ".recoverable")
		if rate == nil {
			if rec && !r.failed(key+".rate") {
				r.refuse(key+".rate", "required when the tax is marked recoverable: 0.19 = 19 %")
			}
			continue
		}
		if s.Taxes == nil {
			s.Taxes = map[string]*planner.Tax{}
		}
		s.Taxes[l.Category] = &planner.Tax{Rate: rate, Recoverable: rec}
	}
	// One source and one date for the section: every figure typed without
	// its own takes them, so each figure keeps its evidence.
	s.Source = r.str("self_hosted.source")
	s.EvidenceDate = r.str("self_hosted.evidence_date")
	for _, fig := range selfHostedFigures(&s) {
		if fig.Source == "" {
			fig.Source = s.Source
		}
		if fig.EvidenceDate == "" {
			fig.EvidenceDate = s.EvidenceDate
		}
	}
	r.domainIn(s.Validate())
	return s, r.errs
}

// selfHostedFigures are the typed figures of the self-hosted costs: the
// registry's and the tax rates.
func selfHostedFigures(s *planner.SelfHostedCosts) []*planner.Figure {
	var out []*planner.Figure
	for _, fd := range planner.SelfHostedFields {
		if fd.Figure != nil && *fd.Figure(s) != nil {
			out = append(out, *fd.Figure(s))
		}
	}
	for _, l := range planner.TaxLines {
		if t := s.Taxes[l.Category]; t != nil && t.Rate != nil {
			out = append(out, t.Rate)
		}
	}
	return out
}

// settingsForm reads the report settings form.
func settingsForm(f url.Values) (reports.Settings, view.FormErrors) {
	r := newFormReader(f)
	s := reports.Settings{
		Currency:       strings.ToUpper(r.str("currency")),
		TokenBasis:     r.str("token_basis"),
		MaxBoxes:       deref(r.integer("max_boxes")),
		StaleAfterDays: deref(r.integer("stale_after_days")),
		TaxBasis:       r.str("tax_basis"),
	}
	report := s.Currency
	if report == "" {
		report = "EUR"
	}
	s.ExchangeRates = readRates(r, report)
	in := planner.Inputs{Currency: s.Currency, TokenBasis: s.TokenBasis, MaxBoxes: s.MaxBoxes, StaleAfterDays: s.StaleAfterDays,
		ExchangeRates: s.ExchangeRates, TaxBasis: s.TaxBasis}
	r.domainIn(in.Validate(), "currency", "token_basis", "max_boxes", "stale_after_days", "exchange_rates", "tax_basis")
	if s.Currency != "" && !view.IsCurrencyCode(s.Currency) {
		r.errs["currency"] = refusal(wantCurrency, s.Currency)
	}
	return s, r.errs
}
