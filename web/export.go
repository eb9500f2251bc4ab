package web

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"capplan/web/store"
	"capplan/web/xlsx"
)

// writeXLSX writes the workbook; a variable so a test can make it fail.
var writeXLSX = xlsx.Write

// xlsxType is the media type of an .xlsx workbook.
const xlsxType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

// reportExportXLSX answers the report as one workbook. It is built whole in
// memory first: a failure is an error page, never half a file.
func (s *Server) reportExportXLSX(c echo.Context) error {
	v, err := s.loadReport(c)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := writeXLSX(&buf, s.exportData(c.Request().Context(), v)); err != nil {
		return fmt.Errorf("export report %d: %w", v.R.ID, err)
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="%s"`, exportName(v.R, "xlsx")))
	return c.Blob(http.StatusOK, xlsxType, buf.Bytes())
}

// exportData gathers what the workbook is written from.
func (s *Server) exportData(ctx context.Context, v reportView) xlsx.Report {
	d := xlsx.Report{ID: v.R.ID, Title: v.R.Title, Owner: v.R.Owner, State: v.Review.State.Label(), Version: v.R.Version,
		FrozenAt: v.R.FrozenAt, FrozenBy: v.R.FrozenBy, Predecessor: v.Review.PredecessorID, Generated: s.cfg.Now(),
		Inputs: v.In, Result: v.Result}
	if ims, err := s.store.Imports(ctx, v.R.ID); err == nil {
		for _, im := range ims {
			d.Sources = append(d.Sources, xlsx.Source{File: im.FileName, SHA256: im.SHA256, Format: im.Format, FormatVersion: im.FormatVersion,
				ToolVersion: im.ToolVersion, Model: im.Model, SizeBytes: im.SizeBytes, Rows: im.Rows, ImportedBy: im.User, ImportedAt: im.At})
		}
	}
	for _, h := range v.History {
		d.History = append(d.History, xlsx.Change{At: h.At, User: h.User, Action: h.Action, Section: h.Section, Before: h.Before, After: h.After})
	}
	return d
}

// ExportXLSX writes report id of st as a workbook to w, computed as of now
// (the command line's export).
func ExportXLSX(ctx context.Context, st *store.Store, id int64, now time.Time, w io.Writer) error {
	s := &Server{store: st, cfg: Config{Now: func() time.Time { return now }}}
	r, err := st.Report(ctx, id)
	if err != nil {
		return fmt.Errorf("report %d: %w", id, err)
	}
	v := reportView{R: r}
	if v.In, v.Result, err = s.compute(ctx, r); err != nil {
		return err
	}
	if v.Review, err = st.Review(ctx, id); err != nil {
		return err
	}
	if v.History, err = st.History(ctx, id); err != nil {
		return err
	}
	return writeXLSX(w, s.exportData(ctx, v))
}

// exportName is the download's file name: report-7-v12.xlsx.
func exportName(r store.Report, ext string) string {
	return fmt.Sprintf("report-%d-v%d.%s", r.ID, r.Version, ext)
}
