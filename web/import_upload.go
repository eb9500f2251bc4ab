package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"capplan/web/store"
	"capplan/web/view"
)

// importUpload takes one or many result files from the browser's upload
// form, streamed part by part, and imports them all or none. An htmx-style
// request gets the imports section's inside back with the outcome; a plain
// form post is redirected (or shown the report with the refusal).
func (s *Server) importUpload(c echo.Context) error {
	r, err := s.editableReport(c)
	if err != nil {
		return err
	}
	batch := s.newBatch()
	defer batch.Close()
	version, err := receiveMultipart(c, batch)
	var ims []store.Import
	if err == nil {
		if version == 0 {
			version = r.Version
		}
		ims, err = batch.Commit(c.Request().Context(), s.store, store.Edit{ReportID: r.ID, BaseVersion: version, UserID: currentUser(c).ID})
	}
	if err != nil {
		drainUpload(c.Request())
		status, msg, dup := importFailure(err)
		if status >= 500 {
			return err
		}
		return s.renderImports(c, status, &view.ImportOutcome{Err: msg, Dup: dup})
	}
	if !isPartial(c.Request()) {
		return redirectFlash(c, view.SectionURL(r.ID, "imports"), importedSummary(ims))
	}
	return s.renderImports(c, http.StatusCreated, &view.ImportOutcome{OK: importedSummary(ims)})
}

// renderImports shows the imports section with an outcome box: its inside
// for the upload script, else the whole report page.
func (s *Server) renderImports(c echo.Context, status int, out *view.ImportOutcome) error {
	v, err := s.loadReport(c)
	if err != nil {
		return err
	}
	v.Imports.Outcome = out
	if out != nil && out.Err == "" && isPartial(c.Request()) {
		return s.answerChange(c, status, v, "imports", view.ImportsChanged(v))
	}
	return s.render(c, status, layout(s.page(c, v.R.Title), stepComponent(v, "results")), view.ImportsBody(v.Imports))
}
