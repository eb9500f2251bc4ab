package web

import (
	"net/url"

	"capplan/web/store"
)

// sectionForm is the one state of a form shown again: the values as typed,
// the refusals by field, with the form's own refusal (one naming no field)
// under formWide, and a stale-save conflict. Key says which form it
// belongs to (a row or candidate id, "new"; the review bar's step,
// "approve"); the zero sectionForm shows the stored values. Every form of
// the app is shown from it: a report section's, the review bar's, the
// quote library's, the users' and the new report's. It is passed to the
// component that shows the form, never through the request's context.
type sectionForm struct {
	Key      string
	Form     url.Values
	Errs     formErrors
	Conflict *store.ConflictError
	// Saved marks the form with Key as just saved (shown open, with a note).
	Saved bool
}

// formWide is the key of the form's own refusal among Errs: one that names
// no field ("the objective changed while you read it").
const formWide = "form"

// refusedForm is form state with the form as typed and its refusal msg
// naming no field.
func refusedForm(key string, form url.Values, msg string) sectionForm {
	f := sectionForm{Key: key, Form: form}
	if msg != "" {
		f.Errs = formErrors{formWide: msg}
	}
	return f
}

// open reports whether the form with key is shown open: re-shown after a
// refusal or conflict, or just saved.
func (f sectionForm) open(key string) bool { return f.is(key) || (f.Key == key && f.Saved) }

// is reports whether the state belongs to the form with key.
func (f sectionForm) is(key string) bool { return f.Key == key && (f.Form != nil || f.Conflict != nil) }

// val is the value a field shows: as typed when the form is re-shown,
// otherwise the stored value.
func (f sectionForm) val(key, name, stored string) string {
	if f.Key == key && f.Form != nil {
		return f.Form.Get(name)
	}
	return stored
}

// checked is val for a checkbox.
func (f sectionForm) checked(key, name string, stored bool) bool {
	if f.Key == key && f.Form != nil {
		return f.Form.Get(name) != ""
	}
	return stored
}

// errs are the refusals of the form with key.
func (f sectionForm) errs(key string) formErrors {
	if f.Key == key {
		return f.Errs
	}
	return nil
}

// refusal is the form's own refusal, naming no field ("" when none).
func (f sectionForm) refusal() string { return f.Errs[formWide] }

// refuse notes msg for the field name, unless it was refused already.
func (e formErrors) refuse(name, msg string) {
	if _, seen := e[name]; !seen {
		e[name] = msg
	}
}

// money is the form state as the money sections' forms read it: every
// value in one url.Values (see withStoredValues).
func (f sectionForm) money() moneyForm { return moneyForm{f} }

// moneyForm is a sectionForm as the money sections' forms (costs,
// scenarios, recommendation, a quote) read it: their values, typed or
// stored, are all in Form (withStoredValues), so a field's value is read
// by its name alone. It adds no state of its own.
type moneyForm struct{ sectionForm }

// val returns the shown value of a field.
func (fs moneyForm) val(name string) string { return fs.Form.Get(name) }

// withStoredValues fills fs.Form with the stored inputs of the money
// sections wherever the form did not bring a value.
func withStoredValues(v reportView, fs moneyForm) moneyForm {
	stored := url.Values{}
	settingsValues(stored, v.In)
	selfHostedValues(stored, v.In.SelfHosted)
	scenarioValues(stored, v.In.Scenarios)
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
