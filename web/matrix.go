package web

import (
	"context"
	"fmt"
	"net/http"
	"strconv"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/store"
	"capplan/web/view"
)

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
		Model:         r.str("model"),
		Replicas:      r.integer("replicas"),
	}
	r.domain(o.Validate(), nil)
	return o
}

// rowObserved saves what the lead typed in about one row, of the report's
// matrix or of a candidate's. Verdicts, the envelope and the admission
// limit change with it; an htmx request gets the row's form back and the
// judged parts of the page out of band (view.RowSavedSwap), so what is typed
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
	key := strconv.FormatInt(rid, 10)
	load := "row " + key
	if l, ok := prev.Row.LoadValue(); ok {
		load = "load " + strconv.FormatFloat(l, 'f', -1, 64)
	}
	cid := prev.CandidateID
	section := "matrix"
	if cid != 0 {
		section = "candidates"
	}
	return s.saveSection(c, r, sectionSave{
		Anchor: rowAnchor(cid), Key: key, Form: form, Errs: fr.errs, Prev: prev.Row.Observed, Next: o, HistoryKey: "observed",
		Edit: s.edit(c, r, fmt.Sprintf("observed figures of %s (%s)", load, prev.Row.Source.File), section),
		Save: func(ctx context.Context, e store.Edit) error { return s.store.SetObserved(ctx, e, rid, o) },
		// A refused or stale row: the section the row is in, for htmx the
		// row's form alone.
		Again: func(v view.Report, f view.SectionForm) templ.Component {
			if cid != 0 {
				return view.CandidatesSection(v, f, false)
			}
			return view.MatrixSection(v, f, false)
		},
		Partial: func(v view.Report, f view.SectionForm) (templ.Component, bool) {
			rr, _, ok := v.JudgedRow(rid)
			return view.ObservedRowForm(v, f, rr, key), ok
		},
		// Saved: the row's form, the judged parts out of band; other rows'
		// forms keep what is typed in them. A row in no matrix shown
		// reloads the page.
		Swap: func(v view.Report) (templ.Component, bool) {
			rr, _, ok := v.JudgedRow(rid)
			return view.RowSavedSwap(v, rr, key), ok
		},
	})
}

// rowAnchor is where a row of the report's matrix (cid 0) or of
// candidate cid is on the report page.
func rowAnchor(cid int64) string {
	if cid == 0 {
		return "matrix"
	}
	return fmt.Sprintf("candidate-%d", cid)
}
