package view

import (
	"net/url"

	"capplan/web/store"
)

// SectionForm is the one state of a form shown again: the values as typed,
// the refusals by field, with the form's own refusal (one naming no field)
// under FormWide, and a stale-save conflict. Key says which form it
// belongs to (a row or candidate id, "new"; the review bar's step,
// "approve"); the zero SectionForm shows the stored values. Every form of
// the app is shown from it: a report section's, the review bar's, the
// quote library's, the users' and the new report's. It is passed to the
// component that shows the form, never through the request's context.
type SectionForm struct {
	Key      string
	Form     url.Values
	Errs     FormErrors
	Conflict *store.ConflictError
	// Saved marks the form with Key as just saved (shown open, with a note).
	Saved bool
}

// FormWide is the key of the form's own refusal among Errs: one that names
// no field ("the objective changed while you read it").
const FormWide = "form"

// RefusedForm is form state with the form as typed and its refusal msg
// naming no field.
func RefusedForm(key string, form url.Values, msg string) SectionForm {
	f := SectionForm{Key: key, Form: form}
	if msg != "" {
		f.Errs = FormErrors{FormWide: msg}
	}
	return f
}

// open reports whether the form with key is shown open: re-shown after a
// Refusal or conflict, or just saved.
func (f SectionForm) open(key string) bool { return f.is(key) || (f.Key == key && f.Saved) }

// is reports whether the state belongs to the form with key.
func (f SectionForm) is(key string) bool { return f.Key == key && (f.Form != nil || f.Conflict != nil) }

// Val is the value a field shows: as typed when the form is re-shown,
// otherwise the stored value.
func (f SectionForm) Val(key, name, stored string) string {
	if f.Key == key && f.Form != nil {
		return f.Form.Get(name)
	}
	return stored
}

// checked is val for a checkbox.
func (f SectionForm) checked(key, name string, stored bool) bool {
	if f.Key == key && f.Form != nil {
		return f.Form.Get(name) != ""
	}
	return stored
}

// errs are the refusals of the form with key.
func (f SectionForm) errs(key string) FormErrors {
	if f.Key == key {
		return f.Errs
	}
	return nil
}

// Refusal is the form's own refusal, naming no field ("" when none).
func (f SectionForm) Refusal() string { return f.Errs[FormWide] }

// Refuse notes msg for the field name, unless it was refused already.
func (e FormErrors) Refuse(name, msg string) {
	if _, seen := e[name]; !seen {
		e[name] = msg
	}
}

// Money is the form state as the money sections' forms read it: every
// value in one url.Values (see WithStoredValues).
func (f SectionForm) Money() MoneyForm { return MoneyForm{f} }

// MoneyForm is a SectionForm as the money sections' forms (costs,
// scenarios, recommendation, a quote) read it: their values, typed or
// stored, are all in Form (WithStoredValues), so a field's value is read
// by its name alone. It adds no state of its own.
type MoneyForm struct{ SectionForm }

// Val returns the shown value of a field.
func (fs MoneyForm) Val(name string) string { return fs.Form.Get(name) }

// WithStoredValues fills fs.Form with the stored inputs of the money
// sections wherever the form did not bring a value.
func WithStoredValues(v Report, fs MoneyForm) MoneyForm {
	stored := url.Values{}
	settingsValues(stored, v.In)
	SelfHostedValues(stored, v.In.SelfHosted)
	ScenarioValues(stored, v.In.Scenarios)
	recommendationValues(stored, v.In.Recommendation)
	if fs.Form == nil {
		fs.Form = stored
		return fs
	}
	merged := url.Values{}
	for k, vs := range stored {
		merged[k] = vs
	}
	for k, vs := range fs.Form {
		merged[k] = vs
	}
	fs.Form = merged
	return fs
}
