package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/store"
)

// loadReview adds the review state, the comments and what the current user
// may do in the workflow to v. An approved report is read-only, so nobody
// may edit it.
func (s *Server) loadReview(c echo.Context, v *reportView) error {
	ctx := c.Request().Context()
	var err error
	if v.Review, err = s.store.Review(ctx, v.R.ID); err != nil {
		return err
	}
	if v.Comments, err = s.store.Comments(ctx, v.R.ID); err != nil {
		return err
	}
	u := currentUser(c)
	v.CanReview = u.Role == store.RoleReviewer || u.Role == store.RoleAdmin
	v.CanRevise = v.CanEdit && v.Review.Approved() && len(v.Review.Successors) == 0
	if v.Review.Approved() {
		v.CanEdit, v.CanEditCosts = false, false
	}
	return nil
}

// readOnly refuses a change to an approved report with the reason.
func (s *Server) readOnly(ctx context.Context, reportID int64) error {
	rv, err := s.store.Review(ctx, reportID)
	if err != nil {
		return err
	}
	if rv.Approved() {
		e := &store.ReadOnlyError{ReportID: reportID, ApprovedBy: rv.ApprovedBy, ApprovedAt: rv.ApprovedAt}
		return echo.NewHTTPError(http.StatusConflict, capitalize(e.Error())+".")
	}
	return nil
}

// reportSubmit sends a draft for review (editors).
func (s *Server) reportSubmit(c echo.Context) error {
	r, err := s.editableReport(c)
	if err != nil {
		return err
	}
	e := s.edit(c, r, "submitted for review", "review")
	e.Before, e.After = store.StateDraft.Label(), store.StateInReview.Label()
	if err := s.store.Transition(c.Request().Context(), e, store.StateInReview, ""); err != nil {
		return userError(err)
	}
	return redirect(c, flashURL(r.ID, "Submitted for review.", "review"))
}

// reportApprove approves a report in review (reviewers, admins); refused
// while any exit-check item fails.
func (s *Server) reportApprove(c echo.Context) error {
	v, err := s.loadReport(c)
	if err != nil {
		return err
	}
	if v.Review.Approved() {
		return s.readOnly(c.Request().Context(), v.R.ID)
	}
	if failing := failingItems(v.Result.ExitCheck); len(failing) > 0 {
		return echo.NewHTTPError(http.StatusUnprocessableEntity,
			"The report cannot be approved while exit-check items fail: "+strings.Join(failing, "; ")+".")
	}
	e := s.edit(c, v.R, "approved", "review")
	e.Before, e.After = store.StateInReview.Label(), store.StateApproved.Label()
	if err := s.store.Transition(c.Request().Context(), e, store.StateApproved, ""); err != nil {
		return userError(err)
	}
	return redirect(c, flashURL(v.R.ID, "Approved. The report is now read-only.", "review"))
}

// reportSendBack returns a report in review to its authors with a comment
// (reviewers, admins).
func (s *Server) reportSendBack(c echo.Context) error {
	id, err := idParam(c, "id")
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	r, err := s.store.Report(ctx, id)
	if err != nil {
		return err
	}
	if err := s.readOnly(ctx, r.ID); err != nil {
		return err
	}
	comment := strings.TrimSpace(c.FormValue("comment"))
	if comment == "" {
		return echo.NewHTTPError(http.StatusUnprocessableEntity, "Comment: required when sending a report back; say what must change before it can be approved.")
	}
	e := s.edit(c, r, "sent back", "review")
	e.Before, e.After = store.StateInReview.Label(), store.StateDraft.Label()+": "+comment
	if err := s.store.Transition(ctx, e, store.StateDraft, comment); err != nil {
		return userError(err)
	}
	return redirect(c, flashURL(r.ID, "Sent back to the authors.", "review"))
}

// reportRevise starts a new revision of an approved report (its editors).
func (s *Server) reportRevise(c echo.Context) error {
	id, err := idParam(c, "id")
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	r, err := s.store.Report(ctx, id)
	if err != nil {
		return err
	}
	u := currentUser(c)
	if !r.CanEdit(*u) {
		return errForbidden
	}
	next, err := s.store.Revise(ctx, *u, r.ID)
	if err != nil {
		return userError(err)
	}
	return redirect(c, flashURL(next, fmt.Sprintf("Revision started from report %d.", r.ID), "review"))
}

// commentSections are the sections a comment may be about.
var commentSections = []string{"general", "contract", "matrix", "envelope", "admission", "overload", "candidates", "residency",
	"costs", "quotes", "scenarios", "crossover", "recommendation", "exitcheck"}

// reportComment adds a comment on a section (anyone who can read).
func (s *Server) reportComment(c echo.Context) error {
	id, err := idParam(c, "id")
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	section := strings.TrimSpace(c.FormValue("section"))
	if section == "" {
		section = "general"
	}
	known := false
	for _, sec := range commentSections {
		known = known || sec == section
	}
	if !known {
		return echo.NewHTTPError(http.StatusUnprocessableEntity, "Section: unknown section "+section)
	}
	if _, err := s.store.Report(ctx, id); err != nil {
		return err
	}
	if err := s.store.AddComment(ctx, id, currentUser(c).ID, section, c.FormValue("comment")); err != nil {
		return userError(err)
	}
	if isPartial(c.Request()) {
		v, err := s.loadReport(c)
		if err != nil {
			return err
		}
		return s.render(c, http.StatusOK, nil, commentsWithHistory(v))
	}
	return redirect(c, fmt.Sprintf("/reports/%d#comments", id))
}

// failingItems names each failing exit-check item with what is missing.
func failingItems(items []planner.ExitItem) []string {
	var out []string
	for _, it := range items {
		if !it.Pass {
			out = append(out, it.Label+" ("+it.Detail+")")
		}
	}
	return out
}

func flashURL(id int64, msg, anchor string) string {
	return fmt.Sprintf("/reports/%d?flash=%s#%s", id, url.QueryEscape(msg), anchor)
}

// reviewJSON is the review state as the API shows it.
func reviewJSON(rv store.Review, res planner.Result) apiReview {
	out := apiReview{State: string(rv.State), ApprovedBy: rv.ApprovedBy, SuccessorIDs: rv.Successors, ExitPass: res.ExitPass, Failing: []planner.ExitItem{}}
	if out.SuccessorIDs == nil {
		out.SuccessorIDs = []int64{}
	}
	if rv.Approved() {
		t := rv.ApprovedAt.UTC()
		out.ApprovedAt = &t
	}
	if rv.PredecessorID != 0 {
		out.PredecessorID = &rv.PredecessorID
	}
	for _, it := range res.ExitCheck {
		if !it.Pass {
			out.Failing = append(out.Failing, it)
		}
	}
	return out
}
