package web

import (
	"fmt"
	"net/http"
	"slices"

	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/store"
	"capplan/web/view"
)

// reviewStep is the review step the current user asks for on report r,
// from the version their page showed, and the form as posted (its Key the
// step's action), to show again if the step is refused.
func (s *Server) reviewStep(c echo.Context, r store.Report, action string) (reports.Step, view.SectionForm, error) {
	fr, err := readForm(c)
	if err != nil {
		return reports.Step{}, view.SectionForm{}, err
	}
	st := reports.Step{ReportID: r.ID, BaseVersion: s.edit(c, r, "", "").BaseVersion, User: *currentUser(c),
		Confirmed: fr.check("confirm"), Comment: fr.str("comment")}
	return st, view.SectionForm{Key: action, Form: fr.f}, nil
}

// reportSubmit sends a draft for review (editors).
func (s *Server) reportSubmit(c echo.Context) error {
	r, err := s.editableReport(c)
	if err != nil {
		return err
	}
	st, f, err := s.reviewStep(c, r, "submit")
	if err != nil {
		return err
	}
	if err := s.svc.Submit(c.Request().Context(), st); err != nil {
		return s.reviewRefused(c, f, err)
	}
	return reviewDone(c, r.ID, "Submitted for review.")
}

// reportWithdraw returns a report in review to draft (its editors), with
// the reason typed, if any. The service refuses anyone else, saying who
// may; a report not in review or a stale page is refused in the review
// bar, the form open with the reason as typed.
func (s *Server) reportWithdraw(c echo.Context) error {
	r, err := s.reportParam(c)
	if err != nil {
		return err
	}
	st, f, err := s.reviewStep(c, r, "withdraw")
	if err != nil {
		return err
	}
	st.Comment = f.Form.Get("reason")
	if err := s.svc.Withdraw(c.Request().Context(), st); err != nil {
		return s.reviewRefused(c, f, err)
	}
	return reviewDone(c, r.ID, "Withdrawn from review: the report is a draft again. Submit it again when it is ready.")
}

// reportApprove approves a report in review (reviewers, admins). The
// service refuses it while any exit-check item fails and unless the
// reviewer confirms; a refusal shows the report again with the reason in
// its review bar.
func (s *Server) reportApprove(c echo.Context) error {
	r, err := s.reportParam(c)
	if err != nil {
		return err
	}
	st, f, err := s.reviewStep(c, r, "approve")
	if err != nil {
		return err
	}
	if err := s.svc.Approve(c.Request().Context(), st); err != nil {
		return s.reviewRefused(c, f, err)
	}
	return reviewDone(c, r.ID, "Approved. The report is now read-only.")
}

// reportSendBack returns a report in review to its authors with a comment
// (reviewers, admins). A refusal shows the report again with the reason
// and the typed comment in its review bar.
func (s *Server) reportSendBack(c echo.Context) error {
	r, err := s.reportParam(c)
	if err != nil {
		return err
	}
	st, f, err := s.reviewStep(c, r, "send-back")
	if err != nil {
		return err
	}
	if err := s.svc.SendBack(c.Request().Context(), st); err != nil {
		return s.reviewRefused(c, f, err)
	}
	return reviewDone(c, r.ID, "Sent back to the authors.")
}

// reviewDone answers a workflow step that went through: the report, at its
// review bar, with msg. htmx is sent back to the page of the report it came
// from (the review step, the overview, the print view) without the anchor,
// since a location differing from the page's only by its anchor would
// scroll rather than load the changed report.
func reviewDone(c echo.Context, id int64, msg string) error {
	if isPartial(c.Request()) {
		return redirectFlash(c, pageFrom(c, id, "review"), msg)
	}
	return redirectFlash(c, view.SectionURL(id, "review"), msg)
}

// reviewRefused answers a workflow step the store or the read-only rule
// refused (a stale page, a state that moved on) like showReview; other
// errors go to the error handler.
func (s *Server) reviewRefused(c echo.Context, f view.SectionForm, err error) error {
	status, msg := errorStatus(err)
	if status != http.StatusConflict && status != http.StatusUnprocessableEntity {
		return err
	}
	return s.showReview(c, status, view.RefusedForm(f.Key, f.Form, msg))
}

// showReview re-renders the report's review step (for htmx, its review
// bar) with the refused step f in the review bar, so nothing typed is lost
// and the way on is on the page.
func (s *Server) showReview(c echo.Context, status int, f view.SectionForm) error {
	v, err := s.loadReport(c)
	if err != nil {
		return err
	}
	v.ReviewForm = f
	return s.render(c, status, layout(s.page(c, v.R.Title), stepComponent(v, "review")), view.ReviewBar(v))
}

// reportRevise starts a new revision of an approved report (its editors).
func (s *Server) reportRevise(c echo.Context) error {
	id, err := idParam(c, "id")
	if err != nil {
		return err
	}
	next, err := s.svc.Revise(c.Request().Context(), *currentUser(c), id)
	if err != nil {
		return err
	}
	return reviewDone(c, next, fmt.Sprintf("Revision started from report %d.", id))
}

// reportComment adds a comment on a section (anyone who can read).
func (s *Server) reportComment(c echo.Context) error {
	id, err := idParam(c, "id")
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	fr, err := readForm(c)
	if err != nil {
		return err
	}
	section := fr.str("section")
	if section == "" {
		section = "general"
	}
	if !slices.Contains(view.CommentSections(), section) {
		return echo.NewHTTPError(http.StatusUnprocessableEntity, "Section: unknown section "+section)
	}
	if _, err := s.store.Report(ctx, id); err != nil {
		return err
	}
	if err := s.store.AddComment(ctx, id, currentUser(c).ID, section, fr.raw("comment")); err != nil {
		return err
	}
	if isPartial(c.Request()) {
		v, err := s.loadReport(c)
		if err != nil {
			return err
		}
		if section == "quotes" && c.Request().Header.Get("HX-Target") == "quote-request" {
			return s.render(c, http.StatusOK, nil, view.QuoteRequestSent(v))
		}
		return s.render(c, http.StatusOK, nil, view.CommentsWithHistory(v))
	}
	if section == "quotes" {
		return redirectFlash(c, view.SectionURL(id, "comments"), "Quote request sent: it stands in this report's comments and in the quote library, where finance sees it.")
	}
	return redirect(c, view.SectionURL(id, "comments"))
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
