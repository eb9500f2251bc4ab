package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/reports"
)

// looseningUnaccepted reports whether the objective was loosened after
// results and no reviewer has accepted the objective in force.
func looseningUnaccepted(res planner.Result) bool {
	for _, it := range res.ExitCheck {
		if it.ID == "objective_loosened" {
			return !it.Pass
		}
	}
	return false
}

// reportAcceptLoosening records a reviewer's written acceptance of the
// loosened objective in force (reviewers, admins). It names the objective
// accepted, so a later change to the objective needs a new acceptance; the
// acceptance is a report change with its history entry.
func (s *Server) reportAcceptLoosening(c echo.Context) error {
	v, err := s.loadReport(c)
	if err != nil {
		return err
	}
	f := reviewForm{Action: "accept-loosening"}
	if v.Review.Approved() {
		return s.reviewRefused(c, f, s.svc.ReadOnly(c.Request().Context(), v.R.ID))
	}
	text := strings.TrimSpace(c.FormValue("text"))
	switch {
	case !v.Result.ObjectiveLoosened:
		f.Err = "The objective is not loosened: there is nothing to accept."
	case c.FormValue("objective") != v.Result.ObjectiveText:
		f.Err = "The objective changed while you read it: read the one now in force and accept that."
	case text == "":
		f.Err = "Write why the looser objective is acceptable: the acceptance is kept in the history."
	}
	if f.Err != "" {
		return s.showReview(c, http.StatusUnprocessableEntity, f)
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
