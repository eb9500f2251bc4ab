package web

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"capplan/planner"
	"capplan/web/reports"
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
			*fd.Figure(rec) = r.figure(key, unitFor(fd.Unit, currency))
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

// fieldValues fills a form's values from a record's registry fields (the
// reverse of readFields).
func fieldValues[T any](v url.Values, rec *T, fields []planner.InputField[T]) {
	for _, fd := range fields {
		key := fd.Key()
		switch {
		case fd.Figure != nil:
			putFigure(v, key, *fd.Figure(rec))
		case fd.Int != nil:
			if n := *fd.Int(rec); n != 0 {
				v.Set(key, strconv.Itoa(n))
			}
		case fd.Text != nil:
			v.Set(key, *fd.Text(rec))
		}
	}
}

// figureAttrs are a Figure amount input's attributes.
var figureAttrs = templ.Attributes{"inputmode": "decimal"}

// unitFor fills the report's currency into a spec's unit.
func unitFor(unit, currency string) string {
	return strings.ReplaceAll(unit, "CUR", currency)
}

// putFigure writes a Figure into form values under field (the reverse of
// formReader.figure).
func putFigure(v url.Values, field string, fig *planner.Figure) {
	if fig == nil {
		return
	}
	v.Set(field, fig.Amount.String())
	v.Set(field+".unit", fig.Unit)
	v.Set(field+".source", fig.Source)
	v.Set(field+".evidence_date", fig.EvidenceDate)
}

// readSelfHostedForm reads the self-hosted cost form and checks it with the
// planner's rules; errors are keyed by the planner's field names.
func readSelfHostedForm(f url.Values, currency string) (planner.SelfHostedCosts, formErrors) {
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

// selfHostedValues is the self-hosted form filled from stored inputs. A
// figure whose source or date is the section's shows it blank (it takes
// the section's), so a line shows only what it overrides.
func selfHostedValues(v url.Values, s planner.SelfHostedCosts) {
	fieldValues(v, &s, planner.SelfHostedFields)
	for cat, t := range s.Taxes {
		if t == nil {
			continue
		}
		putFigure(v, "self_hosted.taxes."+cat+".rate", t.Rate)
		if t.Recoverable {
			v.Set("self_hosted.taxes."+cat+".recoverable", "on")
		}
	}
	v.Set("self_hosted.source", s.Source)
	v.Set("self_hosted.evidence_date", s.EvidenceDate)
	for key := range v {
		if !strings.HasPrefix(key, "self_hosted.") {
			continue
		}
		switch {
		case s.Source != "" && strings.HasSuffix(key, ".source") && key != "self_hosted.source" && v.Get(key) == s.Source:
			v.Set(key, "")
		case s.EvidenceDate != "" && strings.HasSuffix(key, ".evidence_date") && key != "self_hosted.evidence_date" && v.Get(key) == s.EvidenceDate:
			v.Set(key, "")
		}
	}
}

// settingsForm reads the report settings form.
func settingsForm(f url.Values) (reports.Settings, formErrors) {
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
	if s.Currency != "" && !isCurrencyCode(s.Currency) {
		r.errs["currency"] = refusal(wantCurrency, s.Currency)
	}
	return s, r.errs
}

func isCurrencyCode(s string) bool {
	if len(s) != 3 {
		return false
	}
	for _, r := range s {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}

func settingsValues(v url.Values, in planner.Inputs) {
	v.Set("currency", in.Currency)
	v.Set("token_basis", in.TokenBasis)
	if in.MaxBoxes != 0 {
		v.Set("max_boxes", strconv.Itoa(in.MaxBoxes))
	}
	if in.StaleAfterDays != 0 {
		v.Set("stale_after_days", strconv.Itoa(in.StaleAfterDays))
	}
	v.Set("tax_basis", in.TaxBasis)
	ratesValues(v, in.ExchangeRates)
}
