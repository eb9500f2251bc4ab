package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"capplan/web/store"
)

// loadReport reads the :id report, its amendments and history.
func (s *Server) loadReport(c echo.Context) (reportView, error) {
	id, err := idParam(c, "id")
	if err != nil {
		return reportView{}, err
	}
	ctx := c.Request().Context()
	r, err := s.store.Report(ctx, id)
	if err != nil {
		return reportView{}, err
	}
	v := reportView{R: r, CanEdit: r.CanEdit(*currentUser(c))}
	if v.Amendments, err = s.store.Amendments(ctx, id); err != nil {
		return reportView{}, err
	}
	if v.History, err = s.store.History(ctx, id); err != nil {
		return reportView{}, err
	}
	if v.In, v.Result, err = s.compute(ctx, r); err != nil {
		return reportView{}, err
	}
	if v.Imports, err = s.importsView(ctx, r, v.Result, v.CanEdit); err != nil {
		return reportView{}, err
	}
	if err := s.loadQuotes(c, &v); err != nil {
		return reportView{}, err
	}
	if err := s.loadReview(c, &v); err != nil {
		return reportView{}, err
	}
	if err := s.loadCandidates(c, &v); err != nil {
		return reportView{}, err
	}
	return v, nil
}

// reportParam reads the report named by the :id path parameter.
func (s *Server) reportParam(c echo.Context) (store.Report, error) {
	id, err := idParam(c, "id")
	if err != nil {
		return store.Report{}, err
	}
	return s.store.Report(c.Request().Context(), id)
}

// editableReport reads the :id report and refuses users who may not edit it.
func (s *Server) editableReport(c echo.Context) (store.Report, error) {
	r, err := s.reportParam(c)
	if err != nil {
		return store.Report{}, err
	}
	if !r.CanEdit(*currentUser(c)) {
		return store.Report{}, errForbidden
	}
	if err := s.readOnly(c.Request().Context(), r.ID); err != nil {
		return store.Report{}, err
	}
	return r, nil
}

// reportShow is the report page, read and rendered afresh for every view
// and written straight to the response (see stream). A long matrix shows
// its rows at the contract's load levels unless ?rows=all asks for every
// row (see shownRows).
func (s *Server) reportShow(c echo.Context) error {
	v, err := s.loadReport(c)
	if err != nil {
		return err
	}
	v.Flash = takeFlash(c)
	v.AllRows = c.QueryParam("rows") == "all"
	return s.stream(c, http.StatusOK, layout(s.page(c, v.R.Title), reportPage(v)))
}

// reportExitCheck is the live exit check, which reloads itself after any
// change made on the page.
func (s *Server) reportExitCheck(c echo.Context) error {
	v, err := s.loadReport(c)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, layout(s.page(c, v.R.Title+" · exit check"), exitCheckSection(v, false)), exitCheckSection(v, false))
}

func (s *Server) reportHistory(c echo.Context) error {
	v, err := s.loadReport(c)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, layout(s.page(c, v.R.Title+" · history"), historySection(v.R.ID, v.History, false)), historySection(v.R.ID, v.History, false))
}
