package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"capplan/importers"
	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/store"
	"capplan/web/view"
)

// Reference rows (docs/method.md, "Reference rows"): the public frontier
// imported from an InferenceX file or typed, kept in the report section
// reports.SecReference and never among the rows the matrix judges.

// referenceSave imports InferenceX files as reference rows: POST
// /reports/:id/reference, one file or several. Each file's rows replace the
// rows of a file of the same name and join the others; a file that cannot
// be read, or a result file, changes nothing (the files before it in the
// same upload included) and is named in the answer.
func (s *Server) referenceSave(c echo.Context) error {
	r, err := s.editableReport(c)
	if err != nil {
		return err
	}
	rep, err := s.svc.Load(c.Request().Context(), r.ID)
	if err != nil {
		return err
	}
	prev := rep.In.Reference
	next := prev
	var imported []string
	fields, err := receiveFiles(c, true, func(up evidenceUpload, file io.Reader) error {
		n, added, err := reports.AddReferenceFile(next, up.name, file, reports.ReferenceOptions{
			Source: up.fields.Get("reference.source"), Date: up.fields.Get("reference.date"), MaxBytes: s.cfg.MaxUploadBytes})
		if err != nil {
			return err
		}
		next = n
		imported = append(imported, fmt.Sprintf("%s: %d reference rows imported", added.File, added.Rows))
		return nil
	})
	summary := ""
	if len(imported) > 0 {
		summary = strings.Join(imported, "; ") + " (public frontier, not evidence)"
	}
	errs := view.FormErrors{}
	if err != nil {
		drainUpload(c.Request())
		var ie *importers.Error
		var bu *badUploadError
		if !errors.As(err, &ie) && !errors.As(err, &bu) && !errors.Is(err, importers.ErrTooLarge) && !reports.IsUserError(err) {
			return err
		}
		msg := err.Error()
		if fe := new(store.InputError); errors.As(err, &fe) {
			msg = fe.Msg
		}
		errs["file"] = msg
	}
	e := store.Edit{ReportID: r.ID, BaseVersion: r.Version, UserID: currentUser(c).ID, Action: "reference rows imported", Section: reports.SecReference}
	if v, ok := formVersion(fields); ok {
		e.BaseVersion = v
	}
	return s.saveSection(c, r, sectionSave{
		Anchor: "reference", Key: "import", Form: fields, Errs: errs,
		Edit: referenceEdit(e, prev, next), Changed: true,
		Save: saveReference(s, r.ID, next), Doc: reports.SecReference,
		Flash: summary,
	})
}

// referenceRowSave adds one typed reference row: POST
// /reports/:id/reference/row.
func (s *Server) referenceRowSave(c echo.Context) error {
	r, err := s.editableReport(c)
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return err
	}
	rep, err := s.svc.Load(c.Request().Context(), r.ID)
	if err != nil {
		return err
	}
	rr, errs := readReferenceRow(form)
	prev := rep.In.Reference
	next := reports.WithReferenceRows(prev, "", []planner.ReferenceRow{rr})
	if len(next.Rows) > planner.MaxReferenceRows {
		errs["form"] = fmt.Sprintf("the report keeps at most %d reference rows: remove a file first", planner.MaxReferenceRows)
	}
	return s.saveSection(c, r, sectionSave{
		Anchor: "reference", Key: "row", Form: form, Errs: errs,
		Edit: referenceEdit(s.edit(c, r, "reference row typed", reports.SecReference), prev, next), Changed: true,
		Save: saveReference(s, r.ID, next), Doc: reports.SecReference,
		Flash: "reference row added (public frontier, not evidence)",
	})
}

// referenceRemove drops the reference rows of one file or source ("group"
// as the section lists them), or all of them when no group is named:
// POST /reports/:id/reference/remove.
func (s *Server) referenceRemove(c echo.Context) error {
	r, err := s.editableReport(c)
	if err != nil {
		return err
	}
	rep, err := s.svc.Load(c.Request().Context(), r.ID)
	if err != nil {
		return err
	}
	fr, err := readForm(c)
	if err != nil {
		return err
	}
	group := fr.str("group")
	prev := rep.In.Reference
	var next *planner.ReferenceInput
	if prev != nil && group != "" {
		next = &planner.ReferenceInput{Rows: []planner.ReferenceRow{}}
		for _, rr := range prev.Rows {
			if planner.ReferenceGroup(rr) != group {
				next.Rows = append(next.Rows, rr)
			}
		}
		if len(next.Rows) == 0 {
			next = nil
		}
	}
	return s.saveSection(c, r, sectionSave{
		Anchor: "reference", Edit: referenceEdit(s.edit(c, r, "reference rows removed", reports.SecReference), prev, next), Changed: true,
		Save: saveReference(s, r.ID, next), Doc: reports.SecReference,
		Flash: "reference rows removed",
	})
}

// saveReference stores next as the report's reference section.
func saveReference(s *Server, reportID int64, next *planner.ReferenceInput) func(ctx context.Context, e store.Edit) error {
	return func(ctx context.Context, e store.Edit) error {
		return s.store.SaveSection(ctx, e, reports.SecReference, next)
	}
}

// referenceEdit is e with the history's lines of a change of reference
// rows from prev to next, as the API and the command line write them
// (reports.ReferenceHistory).
func referenceEdit(e store.Edit, prev, next *planner.ReferenceInput) store.Edit {
	e.Before, e.After = reports.ReferenceHistory(prev, next)
	return e
}

// readReferenceRow reads the typed reference row's form; planner checks it.
func readReferenceRow(f url.Values) (planner.ReferenceRow, view.FormErrors) {
	r := newFormReader(f)
	get := func(k string) string { return r.str("reference." + k) }
	rr := planner.ReferenceRow{Format: "typed", Source: get("source"), Date: get("date"), GPU: get("gpu"), Model: get("model"),
		Precision: get("precision"), Framework: get("framework"),
		ISL: deref(r.integer("reference.isl")), OSL: deref(r.integer("reference.osl")),
		Interactivity: deref(r.float("reference.intvty")), OutputPerGPU: deref(r.float("reference.output_tput_per_gpu"))}
	r.domainIn(rr.Validate(), "reference")
	return rr, r.errs
}

// referenceFor is the reference section with a form state.
func referenceFor(v view.Report, f view.SectionForm) templ.Component {
	return view.ReferenceSection(v, f, false)
}
