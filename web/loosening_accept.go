package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/view"
)

// reportAcceptLoosening records a reviewer's written acceptance of the
// loosened objective in force (reviewers, admins). It names the objective
// accepted, so a later change to the objective needs a new acceptance; the
// acceptance is a report change with its history entry.
func (s *Server) reportAcceptLoosening(c echo.Context) error {
	v, err := s.loadReport(c)
	if err != nil {
		return err
	}
	fr, err := readForm(c)
	if err != nil {
		return err
	}
	f := view.SectionForm{Key: "accept-loosening", Form: fr.f}
	if v.Review.Approved() {
		return s.reviewRefused(c, f, s.svc.ReadOnly(c.Request().Context(), v.R.ID))
	}
	text, why := fr.str("text"), ""
	switch {
	case !v.Result.ObjectiveLoosened:
		why = "The objective is not loosened: there is nothing to accept."
	case fr.raw("objective") != v.Result.ObjectiveText:
		why = "The objective changed while you read it: read the one now in force and accept that."
	case text == "":
		why = "Write why the looser objective is acceptable: the acceptance is kept in the history."
	}
	if why != "" {
		return s.showReview(c, http.StatusUnprocessableEntity, view.RefusedForm(f.Key, f.Form, why))
	}
	u := currentUser(c)
	a := planner.LooseningAcceptance{Objective: v.Result.ObjectiveText, By: u.Display(), At: s.cfg.Now().UTC().Format("2006-01-02"), Text: text}
	e := s.edit(c, v.R, "loosened objective accepted", "contract")
	e.Review = true // a reviewer's step, taken while the report is in review
	e.Before, e.After = strings.Join(v.Result.Loosening, "; "), a.Objective+": "+text
	if err := s.store.SaveSection(c.Request().Context(), e, reports.SecLoosening, a); err != nil {
		return s.reviewRefused(c, f, err)
	}
	return reviewDone(c, v.R.ID, "Loosened objective accepted in writing.")
}

// reportAcceptAmendment records a reviewer's written acceptance of the
// workload and objective in force after an amendment made once results
// existed (reviewers, admins), as reportAcceptLoosening does for a
// loosened objective: it names the terms accepted, so a later amendment
// needs a new acceptance.
func (s *Server) reportAcceptAmendment(c echo.Context) error {
	v, err := s.loadReport(c)
	if err != nil {
		return err
	}
	fr, err := readForm(c)
	if err != nil {
		return err
	}
	f := view.SectionForm{Key: "accept-amendment", Form: fr.f}
	if v.Review.Approved() {
		return s.reviewRefused(c, f, s.svc.ReadOnly(c.Request().Context(), v.R.ID))
	}
	text, why := fr.str("text"), ""
	switch {
	case len(v.Result.AmendedAfterResults) == 0:
		why = "Nothing was amended after results: there is nothing to accept."
	case fr.raw("terms") != v.Result.AmendedTerms:
		why = "The contract changed while you read it: read the terms now in force and accept those."
	case text == "":
		why = "Write why the amended contract is acceptable: the acceptance is kept in the history."
	}
	if why != "" {
		return s.showReview(c, http.StatusUnprocessableEntity, view.RefusedForm(f.Key, f.Form, why))
	}
	u := currentUser(c)
	a := planner.AmendmentAcceptance{Terms: v.Result.AmendedTerms, By: u.Display(), At: s.cfg.Now().UTC().Format("2006-01-02"), Text: text}
	e := s.edit(c, v.R, "amendment after results accepted", "contract")
	e.Review = true // a reviewer's step, taken while the report is in review
	e.Before, e.After = strings.Join(v.Result.AmendedAfterResults, "; "), a.Terms+": "+text
	if err := s.store.SaveSection(c.Request().Context(), e, reports.SecAmendment, a); err != nil {
		return s.reviewRefused(c, f, err)
	}
	return reviewDone(c, v.R.ID, "Amendment after results accepted in writing.")
}
