package web

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

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

// saveAnswer is the common end of a section's save: on a conflict it
// re-renders the section (via again) with 409; on success an htmx request
// gets swap (the fresh report view), a plain post a redirect to anchor.
func (s *Server) saveAnswer(c echo.Context, r store.Report, err error, anchor string,
	again func(v reportView, f sectionForm) templ.Component, f sectionForm,
	swap func(v reportView) templ.Component) error {
	var ce *store.ConflictError
	if errors.As(err, &ce) {
		f.Conflict = ce
		return s.sectionAnswer(c, http.StatusConflict, anchor, again, f)
	}
	if err != nil {
		return userError(err)
	}
	if isPartial(c.Request()) {
		v, err := s.loadReport(c)
		if err != nil {
			return err
		}
		return s.render(c, http.StatusOK, nil, swap(v))
	}
	return redirect(c, fmt.Sprintf("/reports/%d#%s", r.ID, anchor))
}

// sectionAnswer renders a section with a form state (refusals, conflict)
// at status: the section for htmx, the whole report page otherwise.
func (s *Server) sectionAnswer(c echo.Context, status int, anchor string,
	section func(v reportView, f sectionForm) templ.Component, f sectionForm) error {
	v, err := s.loadReport(c)
	if err != nil {
		return err
	}
	return s.render(c, status, layout(s.page(c, v.R.Title), sectionPage(v, section(v, f))), section(v, f))
}

// historyEdit is s.edit with the change described field by field.
func (s *Server) historyEdit(c echo.Context, r store.Report, action, section string, before, after any) store.Edit {
	e := s.edit(c, r, action, section)
	e.Before, e.After = diffJSON(before, after)
	return e
}
