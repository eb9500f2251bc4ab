package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/store"
)

// rowIDIn is the stored id of a judged row of the report's matrix (cid 0)
// or of candidate cid's (found among the imports attached to it by the
// file's sha256 and the row's position in it), 0 when it has none.
func (v reportView) rowIDIn(rr planner.RowResult, cid int64) int64 {
	for _, im := range v.Imports.Imports {
		if im.SHA256 != rr.Source.SHA256 || im.CandidateID != cid {
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

// judgedRow finds the stored row rid among the judged rows: the report's
// matrix, or the matrix of the candidate it was imported into (cid).
func (v reportView) judgedRow(rid int64) (rr planner.RowResult, cid int64, ok bool) {
	for _, rr := range v.Result.Matrix {
		if v.rowIDIn(rr, 0) == rid {
			return rr, 0, true
		}
	}
	for _, cd := range v.Candidates {
		if cr := v.candidateResult(cd.Name); cr != nil {
			for _, rr := range cr.Matrix {
				if v.rowIDIn(rr, cd.ID) == rid {
					return rr, cd.ID, true
				}
			}
		}
	}
	return planner.RowResult{}, 0, false
}

// observedForm reads the typed-in figures of one row; headroom is typed
// as a percentage.
func observedForm(r *formReader) planner.Observed {
	o := planner.Observed{
		PeakMemoryGiB: r.float("peak_memory_gib"),
		Headroom:      r.percent("headroom"),
		OOM:           r.check("oom"),
		Restart:       r.check("restart"),
		OOMChecked:    r.check("oom_checked"),
		PowerWatts:    r.float("power_watts"),
		Stopped:       r.check("stopped"),
		StopReason:    r.str("stop_reason"),
	}
	r.domain(o.Validate(), nil)
	return o
}

// rowObserved saves what the lead typed in about one row, of the report's
// matrix or of a candidate's. Verdicts, the envelope and the admission
// limit change with it; an htmx request gets the row's form back and the
// judged parts of the page out of band (rowSavedSwap), so what is typed
// in other rows' forms stays.
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
		return s.rowFormAnswer(c, http.StatusUnprocessableEntity, rid, prev.CandidateID, f)
	}
	load := "row " + key
	if l, ok := prev.Row.LoadValue(); ok {
		load = "load " + strconv.FormatFloat(l, 'f', -1, 64)
	}
	e := s.historyEdit(c, r, fmt.Sprintf("observed figures of %s (%s)", load, prev.Row.Source.File), "matrix", prev.Row.Observed, o)
	err = s.store.SetObserved(ctx, e, rid, o)
	var ce *store.ConflictError
	switch {
	case errors.As(err, &ce):
		f.Conflict = ce
		return s.rowFormAnswer(c, http.StatusConflict, rid, prev.CandidateID, f)
	case err != nil:
		return userError(err)
	}
	anchor := rowAnchor(prev.CandidateID)
	if !isPartial(c.Request()) {
		return redirect(c, fmt.Sprintf("/reports/%d#%s", r.ID, anchor))
	}
	v, err := s.loadReport(c)
	if err != nil {
		return err
	}
	rr, _, ok := v.judgedRow(rid)
	if !ok { // the row is in no matrix shown: reload the page
		return redirect(c, fmt.Sprintf("/reports/%d#%s", r.ID, anchor))
	}
	return s.render(c, http.StatusOK, nil, rowSavedSwap(v, rr, key))
}

// rowFormAnswer shows a row's form again with its refusals or conflict:
// the form alone for htmx, else the page with the section the row is in.
func (s *Server) rowFormAnswer(c echo.Context, status int, rid, cid int64, f sectionForm) error {
	v, err := s.loadReport(c)
	if err != nil {
		return err
	}
	section := matrixSection(v, f, false)
	if cid != 0 {
		section = candidatesSection(v, f, false)
	}
	page := layout(s.page(c, v.R.Title), sectionPage(v, section))
	rr, _, ok := v.judgedRow(rid)
	if !ok {
		return s.render(c, status, page, section)
	}
	return s.render(c, status, page, observedRowForm(v, f, rr, f.Key))
}

// rowAnchor is where a row of the report's matrix (cid 0) or of
// candidate cid is on the report page.
func rowAnchor(cid int64) string {
	if cid == 0 {
		return "matrix"
	}
	return fmt.Sprintf("candidate-%d", cid)
}

// backAnchor is the section the sources page of a row links back to.
func backAnchor(cid int64) string {
	if cid == 0 {
		return "matrix"
	}
	return "candidates"
}
