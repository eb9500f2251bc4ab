package planner

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// TestRegistryCoversEveryInput holds the registry to the records: every
// field of SelfHostedCosts and every price or charge of a Quote has exactly
// one registry entry, whose accessor reaches that field and whose name is
// the field's JSON name (the key stored and used by the forms). Left out:
// a quote's identity, catalogue and currency, the self-hosted section's
// source and date (each figure carries its own), and the inputs made of
// several values (taxes, volume bands), which are not one field each.
func TestRegistryCoversEveryInput(t *testing.T) {
	checkCovers(t, SelfHostedFields, []string{"taxes", "source", "evidence_date"})
	checkCovers(t, QuoteFields, []string{"name", "provider", "model", "catalogue", "currency", "tiers", "tax"})
}

func checkCovers[T any](t *testing.T, fields []InputField[T], identity []string) {
	t.Helper()
	var rec T
	typ := reflect.TypeOf(rec)
	byName := map[string]InputField[T]{}
	sheets := map[string]bool{}
	labels := map[string]bool{}
	for _, f := range fields {
		if _, dup := byName[f.Name]; dup {
			t.Errorf("%s: %s registered twice", typ, f.Name)
		}
		byName[f.Name] = f
		if f.Label == "" || labels[f.Label] || f.Sheet == "" || sheets[f.Sheet] || f.Kind == "" {
			t.Errorf("%s: %s needs a label and a named range of its own and a kind: %+v", typ, f.Name, f.Field)
		}
		labels[f.Label], sheets[f.Sheet] = true, true
		n := 0
		for _, set := range []bool{f.Figure != nil, f.Int != nil, f.Text != nil} {
			if set {
				n++
			}
		}
		if n != 1 || (f.Figure != nil) != f.Kind.IsFigure() {
			t.Errorf("%s: %s has %d accessors for kind %s", typ, f.Name, n, f.Kind)
		}
		if got := FieldLabel(f.Key()); got != f.Label {
			t.Errorf("FieldLabel(%q) = %q, want the registry's %q", f.Key(), got, f.Label)
		}
	}
	for i := range typ.NumField() {
		sf := typ.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if slices.Contains(identity, name) {
			continue
		}
		f, ok := byName[name]
		if !ok {
			t.Errorf("%s.%s (%s) has no registry entry", typ, sf.Name, name)
			continue
		}
		// The accessor reaches this very field.
		v := reflect.ValueOf(&rec).Elem().Field(i)
		var got uintptr
		switch {
		case f.Figure != nil:
			got = reflect.ValueOf(f.Figure(&rec)).Pointer()
		case f.Int != nil:
			got = reflect.ValueOf(f.Int(&rec)).Pointer()
		case f.Text != nil:
			got = reflect.ValueOf(f.Text(&rec)).Pointer()
		}
		if got != v.Addr().Pointer() {
			t.Errorf("%s: the accessor of %s reaches another field than %s", typ, name, sf.Name)
		}
		delete(byName, name)
	}
	for name := range byName {
		t.Errorf("%s: registry entry %s names no field", typ, name)
	}
}

// TestRegistryDrivesValidation refuses, field by field, what the registry
// says is out of bounds (or missing, or not among the options) and checks
// the refusal names that field; and accepts an amount within the bounds.
func TestRegistryDrivesValidation(t *testing.T) {
	validRecord := func() SelfHostedCosts {
		s := SelfHostedCosts{}
		for _, f := range SelfHostedFields {
			if f.Required != "" {
				*f.Figure(&s) = Fig("0", f.Unit, "x", "2026-01-01")
			}
		}
		return s
	}
	if err := (SelfHostedCosts{}).Validate(); err == nil {
		t.Fatal("an empty self-hosted record passes: labour is required")
	}
	if err := validRecord().Validate(); err != nil {
		t.Fatalf("a record with only the required fields is refused: %v", err)
	}
	for _, f := range SelfHostedFields {
		for _, bad := range badValues(f.Field) {
			s := validRecord()
			switch {
			case f.Figure != nil:
				*f.Figure(&s) = bad.fig
			case f.Int != nil:
				*f.Int(&s) = bad.n
			case f.Text != nil:
				*f.Text(&s) = bad.text
			}
			if !refuses(s.Validate(), f.Key()) {
				t.Errorf("%s = %s passes validation", f.Key(), bad.what)
			}
		}
	}
	for _, f := range QuoteFields {
		for _, bad := range badValues(f.Field) {
			q := Quote{Name: "Q", InputPerMTokens: Fig("1", "", "", ""), OutputPerMTokens: Fig("1", "", "", "")}
			*f.Figure(&q) = bad.fig
			if !refuses(q.Validate(), f.Key()) {
				t.Errorf("%s = %s passes validation", f.Key(), bad.what)
			}
			// The same rule holds a quote inside the report's inputs.
			in := Inputs{Currency: "EUR", Quotes: []Quote{q}}
			if !refuses(in.Validate(), "quotes[0]."+f.Name) {
				t.Errorf("quotes[0].%s = %s passes the report's validation", f.Name, bad.what)
			}
		}
	}
}

type badValue struct {
	what string
	fig  *Figure
	n    int
	text string
}

// badValues are values the field's registry entry refuses.
func badValues(f Field) []badValue {
	fig := func(a string) *Figure { return Fig(a, f.Unit, "x", "2026-01-01") }
	var out []badValue
	switch {
	case f.Kind.IsFigure():
		lo := "-1"
		if f.Min != nil {
			lo = f.Min.Value.Sub(decimal.NewFromFloat(0.5)).String()
		}
		out = append(out, badValue{what: lo, fig: fig(lo)})
		if f.Max != nil {
			hi := f.Max.Value.Add(decimal.NewFromInt(1)).String()
			out = append(out, badValue{what: hi, fig: fig(hi)})
		}
		out = append(out, badValue{what: "a malformed evidence date", fig: Fig("1", f.Unit, "x", "yesterday")})
		if f.Required != "" {
			out = append(out, badValue{what: "nothing (required)"})
		}
	case f.Kind == KindChoice:
		out = append(out, badValue{what: "an unknown choice", text: "neither"})
	case f.Kind == KindMonths:
		out = append(out, badValue{what: "-1 months", n: -1})
	}
	return out
}

func refuses(err error, key string) bool {
	fes, _ := err.(FieldErrors)
	for _, fe := range fes {
		if fe.Field == key || strings.HasPrefix(fe.Field, key+".") {
			return true
		}
	}
	return false
}
