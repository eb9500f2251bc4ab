package web

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/store"
)

// rowID is the stored id of a matrix row (found among the imports by the
// file's sha256 and the row's position in it), 0 when it has none.
func (v reportView) rowID(rr planner.RowResult) int64 {
	for _, im := range v.Imports.Imports {
		if im.SHA256 != rr.Source.SHA256 {
			continue
		}
		for _, ir := range im.Table {
			if ir.Row.Index == rr.Row.Index {
				return ir.ID
			}
		}
	}
	return 0
}

// observedForm reads the typed-in figures of one row; headroom is typed
// as a percentage.
func observedForm(r *formReader) planner.Observed {
	o := planner.Observed{
		PeakMemoryGiB: r.float("peak_memory_gib"),
		Headroom:      r.percent("headroom"),
		OOM:           r.check("oom"),
		Restart:       r.check("restart"),
		PowerWatts:    r.float("power_watts"),
		Stopped:       r.check("stopped"),
		StopReason:    r.str("stop_reason"),
	}
	r.domain(o.Validate(), nil)
	return o
}

// rowObserved saves what the lead typed in about one row. Verdicts, the
// envelope and the admission limit change with it, so an htmx request gets
// the matrix, and the envelope, candidates and history out of band.
func (s *Server) rowObserved(c echo.Context) error {
	r, err := s.editableReport(c)
	if err != nil {
		return err
	}
	rid, err := idParam(c, "rid")
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	rows, err := s.store.Rows(ctx, r.ID)
	if err != nil {
		return err
	}
	var prev *store.StoredRow
	for i := range rows {
		if rows[i].ID == rid {
			prev = &rows[i]
		}
	}
	if prev == nil {
		return echo.NewHTTPError(http.StatusNotFound, "No such row in this report.")
	}
	form, err := c.FormParams()
	if err != nil {
		return err
	}
	fr := newFormReader(form)
	o := observedForm(fr)
	key := itoa64(rid)
	f := sectionForm{Key: key, Form: form, Errs: fr.errs}
	if len(fr.errs) > 0 {
		return s.sectionAnswer(c, http.StatusUnprocessableEntity, "matrix", matrixFor, f)
	}
	load := "row " + key
	if l, ok := prev.Row.LoadValue(); ok {
		load = "load " + strconv.FormatFloat(l, 'f', -1, 64)
	}
	e := s.historyEdit(c, r, fmt.Sprintf("observed figures of %s (%s)", load, prev.Row.Source.File), "matrix", prev.Row.Observed, o)
	err = s.store.SetObserved(ctx, e, rid, o)
	return s.saveAnswer(c, r, err, "matrix", matrixFor, f, matrixSwap)
}

// matrixFor is the matrix section with a form state.
func matrixFor(v reportView, f sectionForm) templ.Component { return matrixSection(v, f, false) }
