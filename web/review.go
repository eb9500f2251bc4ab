package web

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/store"
)

// reviewStep is the review step the current user asks for on report r,
// from the version their page showed.
func (s *Server) reviewStep(c echo.Context, r store.Report) reports.Step {
	return reports.Step{ReportID: r.ID, BaseVersion: s.edit(c, r, "", "").BaseVersion, User: *currentUser(c),
		Confirmed: c.FormValue("confirm") != "", Comment: c.FormValue("comment")}
}

// reportSubmit sends a draft for review (editors).
func (s *Server) reportSubmit(c echo.Context) error {
	r, err := s.editableReport(c)
	if err != nil {
		return err
	}
	if err := s.svc.Submit(c.Request().Context(), s.reviewStep(c, r)); err != nil {
		return s.reviewRefused(c, reviewForm{Action: "submit"}, err)
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
	st := s.reviewStep(c, r)
	st.Comment = c.FormValue("reason")
	if err := s.svc.Withdraw(c.Request().Context(), st); err != nil {
		return s.reviewRefused(c, reviewForm{Action: "withdraw", Comment: st.Comment}, err)
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
	if err := s.svc.Approve(c.Request().Context(), s.reviewStep(c, r)); err != nil {
		return s.reviewRefused(c, reviewForm{Action: "approve"}, err)
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
	st := s.reviewStep(c, r)
	if err := s.svc.SendBack(c.Request().Context(), st); err != nil {
		return s.reviewRefused(c, reviewForm{Action: "send-back", Comment: st.Comment}, err)
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

// reviewForm is what the review bar shows after a refused workflow step:
// which step, why, and the send-back comment or the withdrawal's reason as
// typed.
type reviewForm struct {
	Action  string // "submit", "approve", "send-back", "withdraw", ...
	Err     string
	Comment string
}

type reviewFormKey struct{}

// reviewFormOf is the refused step the review bar shows, if any; the report
// page is composed elsewhere, so the refusal travels in the context.
func reviewFormOf(ctx context.Context) reviewForm {
	f, _ := ctx.Value(reviewFormKey{}).(reviewForm)
	return f
}

// reviewRefused answers a workflow step the store or the read-only rule
// refused (a stale page, a state that moved on) like showReview; other
// errors go to the error handler.
func (s *Server) reviewRefused(c echo.Context, f reviewForm, err error) error {
	status, msg := errorStatus(err)
	if status != http.StatusConflict && status != http.StatusUnprocessableEntity {
		return err
	}
	f.Err = msg
	return s.showReview(c, status, f)
}

// showReview re-renders the report (for htmx, its review bar) with the
// refusal f in the review bar, so nothing typed is lost and the way on is
// on the page.
func (s *Server) showReview(c echo.Context, status int, f reviewForm) error {
	v, err := s.loadReport(c)
	if err != nil {
		return err
	}
	c.SetRequest(c.Request().WithContext(context.WithValue(c.Request().Context(), reviewFormKey{}, f)))
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

// commentSections are the sections a comment may be about.
var commentSections = []string{"general", "contract", "matrix", "envelope", "admission", "overload", "candidates", "residency",
	"costs", "quotes", "scenarios", "crossover", "provider", "recommendation", "exitcheck"}

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
