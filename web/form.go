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
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		r.errs[name] = "must be a number, e.g. 12.5"
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
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		r.errs[name] = "must be a percentage, e.g. 12"
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
