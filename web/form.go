package web

import (
	"errors"
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/shopspring/decimal"

	"capplan/planner"
	"capplan/web/view"
)

// formReader is the one way a posted form is read. Each getter returns the
// field's value, typed; a field whose text does not parse is noted in errs
// under its name, worded one way (refusal: what the field must be, then
// what was typed), and reads as absent. The planner's refusals of the
// values read are added by domain. What a form shows after a refusal is a
// view.SectionForm.
type formReader struct {
	f    url.Values
	errs view.FormErrors
}

func newFormReader(f url.Values) *formReader { return &formReader{f: f, errs: view.FormErrors{}} }

// refusal is how every field that does not parse is refused: "must be a
// whole number; got "1.5"".
func refusal(want, typed string) string { return "must be " + want + "; got " + strconv.Quote(typed) }

// What a field must be, for refusal.
const (
	wantNumber   = "a number (" + numberHint + ")"
	wantWhole    = "a whole number"
	wantPercent  = "a percentage, e.g. 12 or 12,5"
	wantDate     = "a date, YYYY-MM-DD"
	wantCurrency = "a three-letter currency code, e.g. EUR"
)

// refuse notes msg for the field name, unless the field was refused
// already (the first refusal of a field is the one shown).
func (r *formReader) refuse(name, msg string) { r.errs.Refuse(name, msg) }

// failed reports whether the field name was refused.
func (r *formReader) failed(name string) bool {
	_, bad := r.errs[name]
	return bad
}

func (r *formReader) str(name string) string { return strings.TrimSpace(r.f.Get(name)) }

// raw is a field as posted, spaces kept (a password, a text compared
// with what the page showed).
func (r *formReader) raw(name string) string { return r.f.Get(name) }

func (r *formReader) check(name string) bool { return r.f.Get(name) != "" }

// float reads an optional number; "" is nil.
func (r *formReader) float(name string) *float64 { return r.floatAs(name, wantNumber) }

// floatAs is float with what the field must be said as want ("a request
// rate in req/s, e.g. 0.5").
func (r *formReader) floatAs(name, want string) *float64 { return r.number(name, r.str(name), want) }

// number reads text, typed in the field name with a unit after it
// stripped, as a number; "" is nil, and a text that does not parse is
// refused under name, saying what the field must be (want).
func (r *formReader) number(name, text, want string) *float64 {
	s := strings.TrimSpace(text)
	if s == "" {
		return nil
	}
	v, err := strconv.ParseFloat(normalNumber(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		r.refuse(name, refusal(want, s))
		return nil
	}
	return &v
}

// integer reads an optional whole number ("80,000" is 80000); "" is nil.
func (r *formReader) integer(name string) *int { return r.integerAs(name, wantWhole) }

// integerAs is integer with what the field must be said as want.
func (r *formReader) integerAs(name, want string) *int {
	s := r.str(name)
	if s == "" {
		return nil
	}
	v, err := strconv.Atoi(normalNumber(s))
	if err != nil {
		r.refuse(name, refusal(want, s))
		return nil
	}
	return &v
}

// percent reads "12" or "12 %" as the fraction 0.12; "" is nil.
func (r *formReader) percent(name string) *float64 {
	v := r.number(name, strings.TrimSuffix(r.str(name), "%"), wantPercent)
	if v != nil {
		*v /= 100
	}
	return v
}

// decimal reads an optional exact amount; ok is false when none was
// typed or it does not parse.
func (r *formReader) decimal(name string) (d decimal.Decimal, ok bool) {
	s := r.str(name)
	if s == "" {
		return decimal.Zero, false
	}
	d, err := decimal.NewFromString(normalNumber(s))
	if err != nil {
		r.refuse(name, refusal(wantNumber, s))
		return decimal.Zero, false
	}
	return d, true
}

// figure reads one Figure from the fields name, name.unit, name.source and
// name.evidence_date (the unit defUnit when none is typed); nil when no
// amount was typed.
func (r *formReader) figure(name, defUnit string) *planner.Figure {
	d, ok := r.decimal(name)
	if !ok {
		return nil
	}
	unit := r.str(name + ".unit")
	if unit == "" {
		unit = defUnit
	}
	return &planner.Figure{Amount: d, Unit: unit, Source: r.str(name + ".source"), EvidenceDate: r.str(name + ".evidence_date")}
}

// date reads an optional YYYY-MM-DD date, as typed; "" when none was typed.
func (r *formReader) date(name string) string {
	s := r.str(name)
	if s != "" && !isDate(s) {
		r.refuse(name, refusal(wantDate, s))
	}
	return s
}

// domain adds the planner's refusals of a value, renaming each field with
// rename (nil keeps the name; a field renamed "" is not this form's and is
// left out); a field that already failed to parse keeps that message, and
// an error that names no field is the form's own (view.FormWide).
func (r *formReader) domain(err error, rename func(string) string) {
	if err == nil {
		return
	}
	var fes planner.FieldErrors
	if !errors.As(err, &fes) {
		r.refuse(view.FormWide, err.Error())
		return
	}
	for _, fe := range fes {
		name := fe.Field
		if rename != nil {
			name = rename(name)
		}
		if name != "" {
			r.refuse(name, fe.Message)
		}
	}
}

// domainIn is domain for the fields equal to one of prefixes or below it
// (every field when none is given), names kept.
func (r *formReader) domainIn(err error, prefixes ...string) {
	mergeFieldErrors(r.errs, err, prefixes...)
}

// mergeFieldErrors adds the planner's field errors to errs (a parse error
// already there wins). With prefixes, only fields equal to one of them or
// below it are kept.
func mergeFieldErrors(errs view.FormErrors, err error, prefixes ...string) {
	if err == nil {
		return
	}
	var fes planner.FieldErrors
	if !errors.As(err, &fes) {
		errs.Refuse(view.FormWide, err.Error())
		return
	}
	for _, fe := range fes {
		keep := len(prefixes) == 0
		for _, p := range prefixes {
			if p == "" || fe.Field == p || strings.HasPrefix(fe.Field, p+".") || strings.HasPrefix(fe.Field, p+"[") {
				keep = true
			}
		}
		if keep {
			errs.Refuse(fe.Field, fe.Message)
		}
	}
}

// numberHint is how a number is typed, for error messages.
const numberHint = "type it like 1250.50 or 1,250.50; a decimal comma works too (0,86 or 1.250,50)"

// normalNumber turns a typed number into the plain form decimal and
// strconv read: "1,250.50" and "1.250,50" are 1250.50, "0,86" and "12,5"
// are 0.86 and 12.5 (a lone comma not followed by exactly three digits is
// a decimal comma), "80,000" is 80000 (commas grouping thousands). Spaces
// and underscores between digits are dropped. A string it cannot make
// sense of is returned as it is, for the parser to refuse.
func normalNumber(raw string) string {
	s := strings.NewReplacer(" ", "", "_", "", "\u00a0", "", "\u202f", "").Replace(strings.TrimSpace(raw))
	dot, comma := strings.LastIndexByte(s, '.'), strings.LastIndexByte(s, ',')
	switch {
	case comma < 0:
		return s
	case dot >= 0 && dot > comma: // 1,250.50: commas group thousands
		return strings.ReplaceAll(s, ",", "")
	case dot >= 0: // 1.250,50: dots group thousands, the comma is the decimal mark
		return strings.ReplaceAll(strings.ReplaceAll(s, ".", ""), ",", ".")
	case strings.Count(s, ",") == 1 && len(s)-comma-1 != 3: // 0,86
		return strings.Replace(s, ",", ".", 1)
	}
	return strings.ReplaceAll(s, ",", "") // 80,000
}

// readForm is the reader of a request's form as posted.
func readForm(c echo.Context) (*formReader, error) {
	f, err := c.FormParams()
	if err != nil {
		return nil, err
	}
	return newFormReader(f), nil
}

// formVersion is the report version a form was opened at (its hidden
// field "version"); ok is false when it carries none.
func formVersion(f url.Values) (int, bool) {
	v, err := strconv.Atoi(strings.TrimSpace(f.Get("version")))
	return v, err == nil
}
