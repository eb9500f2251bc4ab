package web

import (
	"net/url"

	"capplan/web/store"
)

// sectionForm is what a section's edit form shows after a refused post:
// the values as typed, the refusals by field, a stale-save conflict. Key
// says which of a section's forms it belongs to (a row or candidate id,
// "new"); the zero sectionForm shows the stored values.
type sectionForm struct {
	Key      string
	Form     url.Values
	Errs     formErrors
	Conflict *store.ConflictError
	// Saved marks the form with Key as just saved (shown open, with a note).
	Saved bool
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

// money is the form state as the money sections' forms read it (every
// value in one url.Values, see withStoredValues).
func (f sectionForm) money() moneyForm {
	return moneyForm{Vals: f.Form, Errs: f.Errs, Conflict: f.Conflict}
}

// moneyForm is what a report section's forms show: the values (typed by
// the user when re-shown after a refusal, else the stored ones), the
// refused fields and a save conflict.
type moneyForm struct {
	Vals     url.Values
	Errs     formErrors
	Conflict *store.ConflictError
}

// val returns the shown value of a field.
func (fs moneyForm) val(name string) string { return fs.Vals.Get(name) }

// withStoredValues fills fs.Vals with the stored inputs of the money
// sections wherever the form did not bring a value.
func withStoredValues(v reportView, fs moneyForm) moneyForm {
	stored := url.Values{}
	settingsValues(stored, v.In)
	selfHostedValues(stored, v.In.SelfHosted)
	scenarioValues(stored, v.In.Scenarios)
	recommendationValues(stored, v.In.Recommendation)
	if fs.Vals == nil {
		fs.Vals = stored
		return fs
	}
	merged := url.Values{}
	for k, vs := range stored {
		merged[k] = vs
	}
	for k, vs := range fs.Vals {
		merged[k] = vs
	}
	fs.Vals = merged
	return fs
}
