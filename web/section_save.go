package web

import (
	"context"
	"errors"
	"net/http"
	"net/url"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/store"
	"capplan/web/view"
)

// sectionSave is one post of a report section's form. Every section of a
// report is saved through it, by saveSection: the handler decodes the form
// and has planner validate it (Errs, by field); saveSection then skips a
// save that changes nothing, saves through Save (Store.Update: the
// section's version check and its history entry) and answers. A refusal
// (422) shows the form again as typed with its errors, a stale save (409)
// as typed with what changed in the section meanwhile; both come as the
// section alone for htmx, else as a page with the section and a way back
// to the report. A success swaps the updated sections in for htmx, else
// redirects to the section. Every htmx answer to a change carries, out of
// band, the rest of the page computed from the report (answerChange).
type sectionSave struct {
	Anchor string          // the section's id on the report page
	Key    string          // which of the section's forms: a row or candidate id, "new"; "" when it has one
	Form   url.Values      // the form as posted
	Errs   view.FormErrors // what decoding and planner validation refused, by field

	Edit       store.Edit // the change: section, action and base version (see Server.edit)
	Prev, Next any        // the section before and after, for the history; alike means nothing to save
	Changed    bool       // save even when Prev and Next print alike (or there are none)
	// HistoryKey is the section's key among the planner's inputs, which
	// labels the history's lines (view.DiffJSON); "" means Doc, and a key
	// ending in "[]" reads Prev's and Next's map keys as list items
	// ("routes[]": a route by its name).
	HistoryKey string

	// Save stores the change; when it is nil, Next is stored whole as the
	// report section named Doc.
	Save func(ctx context.Context, e store.Edit) error
	Doc  string

	// Again is the section showing a refused or stale form; nil is its
	// section's Form (sectionHandlers).
	Again func(v view.Report, f view.SectionForm) templ.Component
	// Partial, when set, is what htmx gets instead of Again: a smaller part
	// (a row's form); nil ok means Again.
	Partial func(v view.Report, f view.SectionForm) (templ.Component, bool)
	// Page, when set, is the full page of a refusal instead of the report's
	// section page (the contract has a page of its own).
	Page func(v view.Report, f view.SectionForm) templ.Component
	// Swap is what htmx gets after a save; nil ok redirects instead. When
	// nil, its section's Swap (sectionHandlers), if any.
	Swap func(v view.Report) (templ.Component, bool)
	// Redirect answers a save with a redirect to the section even for
	// htmx, whatever its section's Swap (a save made from another
	// section's form, with a message to carry).
	Redirect bool
	// Flash, when set, is the message a redirect after a save carries.
	Flash string
	// ReplaceURL is the address htmx shows after a save in place of the
	// form's ("" keeps it): Back then goes to the page before the form,
	// not to the form as it was posted.
	ReplaceURL string
}

// saveSection runs the pipeline for one section save of report r.
func (s *Server) saveSection(c echo.Context, r store.Report, ss sectionSave) error {
	ss = ss.withSection()
	f := view.SectionForm{Key: ss.Key, Form: ss.Form, Errs: ss.Errs}
	if f.Form == nil {
		f.Form = url.Values{}
	}
	if len(ss.Errs) > 0 {
		return s.sectionRefused(c, http.StatusUnprocessableEntity, ss, f)
	}
	e := ss.Edit
	if ss.Prev != nil || ss.Next != nil {
		e.Before, e.After = view.DiffJSON(ss.historyKey(), ss.Prev, ss.Next)
		if e.Before == "" && e.After == "" && !ss.Changed {
			return s.sectionSaved(c, r, ss) // nothing changed: nothing to save
		}
	}
	save := ss.Save
	if save == nil {
		save = func(ctx context.Context, e store.Edit) error { return s.store.SaveSection(ctx, e, ss.Doc, ss.Next) }
	}
	err := save(c.Request().Context(), e)
	var ce *store.ConflictError
	switch {
	case errors.As(err, &ce):
		f.Conflict = ce
		return s.sectionRefused(c, http.StatusConflict, ss, f)
	case err != nil:
		if errs := fieldErrorsOf(err); errs != nil {
			f.Errs = errs
			return s.sectionRefused(c, http.StatusUnprocessableEntity, ss, f)
		}
		return err
	}
	return s.sectionSaved(c, r, ss)
}

// sectionRefused shows the section's form again with f at status.
func (s *Server) sectionRefused(c echo.Context, status int, ss sectionSave, f view.SectionForm) error {
	v, err := s.loadReport(c)
	if err != nil {
		return err
	}
	section := ss.Again(v, f)
	partial := section
	if ss.Partial != nil {
		if p, ok := ss.Partial(v, f); ok {
			partial = p
		}
	}
	page := view.SectionPage(v, section)
	if ss.Page != nil {
		page = ss.Page(v, f)
	}
	return s.render(c, status, layout(s.page(c, v.R.Title), page), partial)
}

// sectionSaved answers a save: the updated sections for htmx, else a
// redirect to the section.
func (s *Server) sectionSaved(c echo.Context, r store.Report, ss sectionSave) error {
	to := view.SectionURL(r.ID, ss.Anchor)
	if !isPartial(c.Request()) || ss.Swap == nil {
		if ss.Flash != "" {
			return redirectFlash(c, to, ss.Flash)
		}
		return redirect(c, to)
	}
	v, err := s.loadReport(c)
	if err != nil {
		return err
	}
	swap, ok := ss.Swap(v)
	if !ok {
		return redirect(c, to)
	}
	if ss.ReplaceURL != "" {
		c.Response().Header().Set("HX-Replace-Url", ss.ReplaceURL)
	}
	return s.answerChange(c, http.StatusOK, v, ss.Anchor, swap)
}

// answerChange is the htmx answer to any change of report v that the page
// made (a section saved, an import, an import removed): swap, the part the
// request targets, and out of band every other part of the page computed
// from the report (view.Refreshed), all rendered from v, one fresh load after
// the change. own is the anchor of the part swap holds.
func (s *Server) answerChange(c echo.Context, status int, v view.Report, own string, swap templ.Component) error {
	c.Set(refreshedKey, true)
	v.PageOf(c.Request().Header.Get("HX-Current-URL"))
	return s.render(c, status, nil, templ.Join(swap, view.Refreshed(v, own)))
}

// refreshedKey marks an answer that carries the refreshed sections, so
// the exit check need not fetch itself again (setVersionHeader).
const refreshedKey = "capplan.refreshed"

// swapOf is a Swap that always swaps comp.
func swapOf(comp func(v view.Report) templ.Component) func(v view.Report) (templ.Component, bool) {
	return func(v view.Report) (templ.Component, bool) { return comp(v), true }
}

// fieldErrorsOf is a refusal of the store or the planner as errors by
// field (planner.FieldErrors, a *planner.FieldError, a *store.InputError),
// or nil when err names no field.
func fieldErrorsOf(err error) view.FormErrors {
	var fes planner.FieldErrors
	var fe *planner.FieldError
	var ie *store.InputError
	var ro *store.ReadOnlyError
	switch {
	case errors.As(err, &ro):
		return nil // not about a field: the error page says it
	case errors.As(err, &fes):
		out := view.FormErrors{}
		for _, e := range fes {
			if _, seen := out[e.Field]; !seen {
				out[e.Field] = e.Message
			}
		}
		return out
	case errors.As(err, &fe):
		return view.FormErrors{fe.Field: fe.Message}
	case errors.As(err, &ie):
		return view.FormErrors{ie.Field: ie.Msg}
	}
	return nil
}

// edit starts the history record of a change by the current user, based
// on the version the form was opened at (or the report's, when absent).
func (s *Server) edit(c echo.Context, r store.Report, action, section string) store.Edit {
	base := r.Version
	if f, err := c.FormParams(); err == nil {
		if v, ok := formVersion(f); ok {
			base = v
		}
	}
	return store.Edit{ReportID: r.ID, BaseVersion: base, UserID: currentUser(c).ID, Action: action, Section: section}
}

// withSection fills what the save leaves unset from its section's entry
// in sectionHandlers: the form shown again, and the swap after a save.
func (ss sectionSave) withSection() sectionSave {
	sec, ok := sectionByName(ss.Anchor)
	if !ok {
		return ss
	}
	if ss.Again == nil {
		ss.Again = sec.Form
	}
	if ss.Swap == nil && sec.Swap != nil && !ss.Redirect {
		ss.Swap = swapOf(sec.Swap)
	}
	return ss
}

// historyKey is the key that labels the section's history lines.
func (ss sectionSave) historyKey() string {
	switch {
	case ss.HistoryKey != "":
		return ss.HistoryKey
	case ss.Doc == reports.SecSettings: // its fields are the inputs' own
		return ""
	}
	return ss.Doc
}
