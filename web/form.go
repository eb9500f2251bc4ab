package web

import (
	"errors"
	"math"
	"net/url"
	"strconv"
	"strings"

	"capplan/planner"
)

// formReader reads typed fields of a form, noting each that does not parse.
type formReader struct {
	f    url.Values
	errs formErrors
}

func newFormReader(f url.Values) *formReader { return &formReader{f: f, errs: formErrors{}} }

func (r *formReader) str(name string) string { return strings.TrimSpace(r.f.Get(name)) }

func (r *formReader) check(name string) bool { return r.f.Get(name) != "" }

// float reads an optional number; "" is nil.
func (r *formReader) float(name string) *float64 {
	s := r.str(name)
	if s == "" {
		return nil
	}
	v, err := strconv.ParseFloat(normalNumber(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		r.errs[name] = "must be a number: " + numberHint
		return nil
	}
	return &v
}

// integer reads an optional whole number; "" is nil.
func (r *formReader) integer(name string) *int {
	s := r.str(name)
	if s == "" {
		return nil
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		r.errs[name] = "must be a whole number"
		return nil
	}
	return &v
}

// percent reads "12" or "12 %" as the fraction 0.12; "" is nil.
func (r *formReader) percent(name string) *float64 {
	s := strings.TrimSpace(strings.TrimSuffix(r.str(name), "%"))
	if s == "" {
		return nil
	}
	v, err := strconv.ParseFloat(normalNumber(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		r.errs[name] = "must be a percentage, e.g. 12 or 12,5"
		return nil
	}
	v /= 100
	return &v
}

// domain adds the planner's refusals of a value, renaming each field with
// rename (nil keeps the name); a field that already failed to parse keeps
// that message.
func (r *formReader) domain(err error, rename func(string) string) {
	if err == nil {
		return
	}
	var fes planner.FieldErrors
	if !errors.As(err, &fes) {
		r.errs["form"] = err.Error()
		return
	}
	for _, fe := range fes {
		name := fe.Field
		if rename != nil {
			name = rename(name)
		}
		if _, seen := r.errs[name]; !seen {
			r.errs[name] = fe.Message
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
