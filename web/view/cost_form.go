package view

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"capplan/planner"
)

// figureAttrs are a Figure amount input's attributes.
var figureAttrs = templ.Attributes{"inputmode": "decimal"}

// UnitFor fills the report's currency into a spec's unit.
func UnitFor(unit, currency string) string {
	return strings.ReplaceAll(unit, "CUR", currency)
}

// SelfHostedValues is the self-hosted form filled from stored inputs. A
// figure whose source or date is the section's shows it blank (it takes
// the section's), so a line shows only what it overrides.
func SelfHostedValues(v url.Values, s planner.SelfHostedCosts) {
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

func IsCurrencyCode(s string) bool {
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
