package web

import (
	"errors"
	"net/url"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/shopspring/decimal"

	"capplan/planner"
	"capplan/web/reports"
)

// readFields reads a record's registry fields from a form: a Figure from
// key, key.unit, key.source and key.evidence_date (nil when no amount was
// typed), a whole number, or a choice. What cannot be parsed goes to errs
// under the field's key; the planner checks the rest.
func readFields[T any](f url.Values, rec *T, fields []planner.InputField[T], currency string, errs formErrors) {
	for _, fd := range fields {
		key := fd.Key()
		switch {
		case fd.Figure != nil:
			*fd.Figure(rec) = readFigure(f, key, unitFor(fd.Unit, currency), errs)
		case fd.Int != nil:
			if m := strings.TrimSpace(f.Get(key)); m != "" {
				n, err := strconv.Atoi(m)
				if err != nil {
					errs[key] = "must be a whole number"
					if fd.Kind == planner.KindMonths {
						errs[key] += " of months"
					}
				}
				*fd.Int(rec) = n
			}
		case fd.Text != nil:
			*fd.Text(rec) = strings.TrimSpace(f.Get(key))
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

// readFigure reads one Figure from the form fields field, field.unit,
// field.source and field.evidence_date; nil when no amount was typed.
func readFigure(f url.Values, field, defUnit string, errs formErrors) *planner.Figure {
	a := normalNumber(f.Get(field))
	if a == "" {
		return nil
	}
	d, err := decimal.NewFromString(a)
	if err != nil {
		errs[field] = "must be a number (" + numberHint + "); got " + strconv.Quote(f.Get(field))
		return nil
	}
	unit := strings.TrimSpace(f.Get(field + ".unit"))
	if unit == "" {
		unit = defUnit
	}
	return &planner.Figure{Amount: d, Unit: unit, Source: strings.TrimSpace(f.Get(field + ".source")),
		EvidenceDate: strings.TrimSpace(f.Get(field + ".evidence_date"))}
}

// putFigure writes a Figure into form values under field (the reverse of
// readFigure).
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
	errs := formErrors{}
	var s planner.SelfHostedCosts
	readFields(f, &s, planner.SelfHostedFields, currency, errs)
	for _, l := range planner.TaxLines {
		key := "self_hosted.taxes." + l.Category
		rate := readFigure(f, key+".rate", "fraction", errs)
		rec := f.Get(key+".recoverable") != ""
		if rate == nil {
			if rec {
				errs[key+".rate"] = "required when the tax is marked recoverable: 0.19 = 19 %"
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
	s.Source = strings.TrimSpace(f.Get("self_hosted.source"))
	s.EvidenceDate = strings.TrimSpace(f.Get("self_hosted.evidence_date"))
	for _, fig := range selfHostedFigures(&s) {
		if fig.Source == "" {
			fig.Source = s.Source
		}
		if fig.EvidenceDate == "" {
			fig.EvidenceDate = s.EvidenceDate
		}
	}
	mergeFieldErrors(errs, s.Validate(), "")
	return s, errs
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
	errs := formErrors{}
	s := reports.Settings{
		Currency:   strings.ToUpper(strings.TrimSpace(f.Get("currency"))),
		TokenBasis: strings.TrimSpace(f.Get("token_basis")),
	}
	whole := func(name string) int {
		v := strings.TrimSpace(f.Get(name))
		if v == "" {
			return 0
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			errs[name] = "must be a whole number"
		}
		return n
	}
	s.MaxBoxes, s.StaleAfterDays = whole("max_boxes"), whole("stale_after_days")
	s.TaxBasis = strings.TrimSpace(f.Get("tax_basis"))
	report := s.Currency
	if report == "" {
		report = "EUR"
	}
	s.ExchangeRates = readRates(f, report, errs)
	in := planner.Inputs{Currency: s.Currency, TokenBasis: s.TokenBasis, MaxBoxes: s.MaxBoxes, StaleAfterDays: s.StaleAfterDays,
		ExchangeRates: s.ExchangeRates, TaxBasis: s.TaxBasis}
	mergeFieldErrors(errs, in.Validate(), "currency", "token_basis", "max_boxes", "stale_after_days", "exchange_rates", "tax_basis")
	if s.Currency != "" && !isCurrencyCode(s.Currency) {
		errs["currency"] = "a three-letter currency code, e.g. EUR; got " + strconv.Quote(s.Currency)
	}
	return s, errs
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

// mergeFieldErrors adds the planner's field errors to errs (a parse error
// already there wins). With prefixes, only fields equal to one of them or
// below it are kept.
func mergeFieldErrors(errs formErrors, err error, prefixes ...string) {
	if err == nil {
		return
	}
	var fes planner.FieldErrors
	if !errors.As(err, &fes) {
		errs["form"] = err.Error()
		return
	}
	for _, fe := range fes {
		keep := len(prefixes) == 0
		for _, p := range prefixes {
			if p == "" || fe.Field == p || strings.HasPrefix(fe.Field, p+".") || strings.HasPrefix(fe.Field, p+"[") {
				keep = true
			}
		}
		if _, seen := errs[fe.Field]; keep && !seen {
			errs[fe.Field] = fe.Message
		}
	}
}
