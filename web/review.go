package web

import (
	"fmt"
	"maps"
	"net/http"
	"slices"

	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/store"
)

// reviewStep is the review step the current user asks for on report r,
// from the version their page showed, and the form as posted (its Key the
// step's action), to show again if the step is refused.
func (s *Server) reviewStep(c echo.Context, r store.Report, action string) (reports.Step, sectionForm, error) {
	fr, err := readForm(c)
	if err != nil {
		return reports.Step{}, sectionForm{}, err
	}
	st := reports.Step{ReportID: r.ID, BaseVersion: s.edit(c, r, "", "").BaseVersion, User: *currentUser(c),
		Confirmed: fr.check("confirm"), Comment: fr.str("comment")}
	return st, sectionForm{Key: action, Form: fr.f}, nil
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
	return redirectFlash(c, sectionURL(id, "review"), msg)
}

// reviewRefused answers a workflow step the store or the read-only rule
// refused (a stale page, a state that moved on) like showReview; other
// errors go to the error handler.
func (s *Server) reviewRefused(c echo.Context, f sectionForm, err error) error {
	status, msg := errorStatus(err)
	if status != http.StatusConflict && status != http.StatusUnprocessableEntity {
		return err
	}
	return s.showReview(c, status, refusedForm(f.Key, f.Form, msg))
}

// showReview re-renders the report's review step (for htmx, its review
// bar) with the refused step f in the review bar, so nothing typed is lost
// and the way on is on the page.
func (s *Server) showReview(c echo.Context, status int, f sectionForm) error {
	v, err := s.loadReport(c)
	if err != nil {
		return err
	}
	v.ReviewForm = f
	return s.render(c, status, layout(s.page(c, v.R.Title), stepComponent(v, "review")), reviewBar(v))
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

// commentSections are the names a comment may be about, in the order the
// comment form offers them: the report as a whole, then every section of
// reportSections but those marked NoComment (the answers and the way
// through, drawn from the others; the review step's own parts), each
// followed by the anchors inside it named on their own.
func commentSections() []string {
	var named, out []string
	for _, s := range reportSections {
		switch {
		case s.NoComment:
		case s.View == nil:
			named = append(named, s.Name)
		default:
			out = append(out, s.Name)
			out = append(out, slices.Sorted(maps.Keys(s.Names))...)
		}
	}
	return append(named, out...)
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
	if !slices.Contains(commentSections(), section) {
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
			return s.render(c, http.StatusOK, nil, quoteRequestSent(v))
		}
		return s.render(c, http.StatusOK, nil, commentsWithHistory(v))
	}
	if section == "quotes" {
		return redirectFlash(c, sectionURL(id, "comments"), "Quote request sent: it stands in this report's comments and in the quote library, where finance sees it.")
	}
	return redirect(c, sectionURL(id, "comments"))
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

// reviewBadgeClass colours a review status: approved passes, sent back
// fails, a draft is a draft and a report in review waits.
func reviewBadgeClass(st store.ReviewStatus) string {
	switch {
	case st.SentBack != nil:
		return "fail state-sent-back"
	case st.State == store.StateApproved:
		return "pass state-approved"
	case st.State == store.StateInReview:
		return "notjudged state-in_review"
	}
	return "draft state-draft"
}
