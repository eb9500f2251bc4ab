package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/store"
	"capplan/web/view"
)

// apiImport is one stored import as the API reports it.
type apiImport struct {
	ID            int64        `json:"id"`
	File          string       `json:"file"`
	SHA256        string       `json:"sha256"`
	Format        string       `json:"format"`
	FormatVersion string       `json:"format_version"`
	Rows          int          `json:"rows"`
	Warnings      []apiWarning `json:"warnings"`
}

// apiWarning is a file warning, or a row's when Row is set (the row's
// index in the file).
type apiWarning struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	// Text is the warning in a sentence (planner.WarningSentence).
	Text string `json:"text"`
	Row  *int   `json:"row,omitempty"`
}

// apiResults imports result files sent with a personal API token: either
// multipart/form-data with one or many "files", or the raw file as the
// body with ?name=FILE. All files or none, as in the browser.
func (s *Server) apiResults(c echo.Context) error {
	r, err := s.reportParam(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if !r.CanEdit(*currentUser(c)) {
		return echo.NewHTTPError(http.StatusForbidden, "your account may not edit this report")
	}
	batch := s.newBatch()
	defer batch.Close()
	if isMultipart(c.Request()) {
		_, err = receiveMultipart(c, batch)
	} else {
		err = receiveRaw(c, batch)
	}
	files := batch.Files()
	var ims []store.Import
	if err == nil {
		// A client that states the version it based its upload on gets
		// 409 when the report has moved on since; without one, the upload
		// waits its turn among concurrent ones and lands.
		if v := c.QueryParam("version"); v != "" {
			base, perr := strconv.Atoi(v)
			if perr != nil || base < 1 {
				return echo.NewHTTPError(http.StatusBadRequest, "version: "+strconv.Quote(v)+" is not a report version. Nothing was imported.")
			}
			ims, err = batch.Commit(ctx, s.store, store.Edit{ReportID: r.ID, BaseVersion: base, UserID: currentUser(c).ID})
			var ce *store.ConflictError
			if errors.As(err, &ce) {
				return echo.NewHTTPError(http.StatusConflict, fmt.Sprintf("the report is at version %d, not the version %d this upload is based on. Nothing was imported.", ce.Current, base))
			}
		} else {
			ims, err = reports.CommitLatest(ctx, s.store, batch, r.ID, currentUser(c).ID)
		}
	}
	if err != nil {
		drainUpload(c.Request())
		status, msg, dup := importFailure(err)
		if status >= 500 {
			return err
		}
		if dup != nil {
			msg += " (" + view.SectionURL(r.ID, fmt.Sprintf("import-%d", dup.ID)) + ")"
		}
		return echo.NewHTTPError(status, nothingImported(msg))
	}
	out := struct {
		Imports []apiImport `json:"imports"`
	}{Imports: []apiImport{}}
	// The rows' warnings as the report judges them: the file's own and
	// the checks against the contract.
	judged := map[string][]planner.Warning{}
	if rep, err := s.svc.Load(ctx, r.ID); err == nil {
		judged = rep.RowWarnings()
	}
	for i, f := range files {
		im := ims[i]
		a := apiImport{ID: im.ID, File: im.FileName, SHA256: im.SHA256, Format: im.Format, FormatVersion: im.FormatVersion, Rows: im.Rows, Warnings: []apiWarning{}}
		a.Warnings = appendWarnings(a.Warnings, f.Warnings, nil)
		for _, row := range f.Rows {
			ws, ok := judged[reports.WarningsKey(im.SHA256, row.Index)]
			if !ok || im.CandidateID != 0 {
				ws = row.Warnings
			}
			a.Warnings = appendWarnings(a.Warnings, ws, &row.Index)
		}
		out.Imports = append(out.Imports, a)
	}
	return c.JSON(http.StatusCreated, out)
}

func appendWarnings(dst []apiWarning, ws []planner.Warning, row *int) []apiWarning {
	for _, w := range ws {
		dst = append(dst, apiWarning{Code: w.Code, Message: w.Message, Text: planner.WarningSentence(w), Row: row})
	}
	return dst
}
