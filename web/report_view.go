package web

import (
	"bytes"
	"context"
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/store"
	"capplan/web/view"
)

// loadReport reads the :id report whole (one read transaction, see
// reports.Service.Load) and shapes it for the current user.
func (s *Server) loadReport(c echo.Context) (view.Report, error) {
	id, err := idParam(c, "id")
	if err != nil {
		return view.Report{}, err
	}
	gen := s.store.Generation()
	rep, err := s.svc.Load(c.Request().Context(), id)
	if err != nil {
		return view.Report{}, err
	}
	c.Set(loadedKey, loaded{gen: gen, rep: rep})
	return viewOf(rep, currentUser(c)), nil
}

// loadedKey names the report a request has read, kept so that the answer
// (the version header, the error page's way back) need not read it again.
const loadedKey = "capplan.report"

type loaded struct {
	gen uint64 // the store's write generation when it was read
	rep *reports.Report
}

// loadedReport is the report this request read, while no write by this
// server has happened since.
func (s *Server) loadedReport(c echo.Context) (*reports.Report, bool) {
	l, ok := c.Get(loadedKey).(loaded)
	if !ok || l.gen != s.store.Generation() {
		return nil, false
	}
	return l.rep, true
}

// viewOf shapes a loaded report for user u: what they may do with it.
func viewOf(rep *reports.Report, u *store.User) view.Report {
	v := view.Report{R: rep.Report, In: rep.In, Result: rep.Result, CanEdit: rep.CanEdit(*u),
		Amendments: rep.Amendments, History: rep.History, HistoryTotal: rep.HistoryTotal,
		Quotes: rep.Quotes, QuoteLibrary: rep.Library,
		Review: rep.Review, Comments: rep.Comments, Candidates: rep.Candidates, Derived: rep}
	v.CanEditCosts = canEditCosts(v.R, u)
	v.CanAddQuotes = canEditQuotes(u)
	v.CanReview = u.Role == store.RoleReviewer || u.Role == store.RoleAdmin
	v.CanRevise = v.CanEdit && v.Review.Approved() && len(v.Review.Successors) == 0
	v.CanSubmit = v.CanEdit && v.Review.State != store.StateInReview && !v.Review.Approved()
	v.CanWithdraw = v.CanEdit && v.Review.State == store.StateInReview
	// In review and after approval nothing of the report changes (the
	// store refuses it), so no edit form is shown; the review bar says
	// why.
	if v.Review.Approved() || v.Review.State == store.StateInReview {
		v.Locked = v.CanEdit || v.CanEditCosts
		v.CanEdit, v.CanEditCosts = false, false
	}
	v.Imports = importsViewOf(rep, v.CanEdit)
	v.Imports.Fold()
	return v
}

// inputs is the planner's inputs of report r as stored now.
func (s *Server) inputs(ctx context.Context, r store.Report) (planner.Inputs, error) {
	rep, err := s.svc.Load(ctx, r.ID)
	if err != nil {
		return planner.Inputs{}, err
	}
	return rep.In, nil
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
		return store.Report{}, errNotEditor
	}
	if err := s.svc.ReadOnly(c.Request().Context(), r.ID); err != nil {
		return store.Report{}, err
	}
	return r, nil
}

// reportShow is the report's overview. A long matrix shows its rows at
// the contract's load levels unless ?rows=all asks for every row (see
// shownRows). The page is kept for the views that follow while nothing is
// committed to the database (see pageCache); a page carrying a one-time
// message is rendered for its view alone. A viewer who has changed
// nothing since a page was built may be served it while its successor
// renders; one who has always sees their change (see ownWrites).
func (s *Server) reportShow(c echo.Context) error { return s.showStep(c, "") }

// reportStepShow is one step page of the report (see view.Steps).
func (s *Server) reportStepShow(step string) echo.HandlerFunc {
	return func(c echo.Context) error { return s.showStep(c, step) }
}

// reportSectionShow sends a link to a section (/reports/1/section/matrix)
// on to the step that shows it.
func (s *Server) reportSectionShow(c echo.Context) error {
	id, err := idParam(c, "id")
	if err != nil {
		return err
	}
	name := c.Param("name")
	if _, ok := view.SectionByName(name); !ok {
		return echo.NewHTTPError(http.StatusNotFound, "Not found: the report has no section "+name+".")
	}
	return c.Redirect(http.StatusSeeOther, view.SectionURL(id, name))
}

// showStep answers the page of one step, the overview or the print view.
func (s *Server) showStep(c echo.Context, step string) error {
	if _, err := c.Cookie(flashCookie); err == nil {
		return s.reportPageFresh(c, step)
	}
	id, err := idParam(c, "id")
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	now, ok := s.readChanges(c)
	if !ok {
		return s.reportPageFresh(c, step)
	}
	u := *currentUser(c)
	key := pageKey{view: "page:" + step, report: id, user: u.ID, asOf: s.svc.AsOf(), allRows: c.QueryParam("rows") == "all", allCols: c.QueryParam("cols") == "all"}
	path := c.Request().URL.Path
	body, err := s.pages.get(ctx, now, key, s.writes.since(sessionOf(c)), acceptsGzip(c.Request()), func(ctx context.Context) ([]byte, error) {
		rep, err := s.svc.Load(ctx, id)
		if err != nil {
			return nil, err
		}
		v := viewOf(rep, &u)
		v.AllRows = key.allRows
		v.AllCols = key.allCols
		var buf yieldingBuffer
		buf.Grow(256 << 10)
		err = layout(pageCtx{User: &u, Title: stepTitle(v, step), Path: path}, stepComponent(v, step)).Render(ctx, &buf)
		return bytes.Clone(buf.Bytes()), err // kept at its length, not the buffer's capacity
	})
	if err != nil {
		return err
	}
	c.Response().Header().Add("Vary", "HX-Request")
	return body.send(c, http.StatusOK, echo.MIMETextHTMLCharsetUTF8)
}

// stepComponent is the page of step for v (the print view for view.PrintStep).
func stepComponent(v view.Report, step string) templ.Component {
	switch step {
	case "":
		return view.ReportPage(v)
	case view.PrintStep:
		v.Print = true
		return view.PrintPage(v)
	}
	st, _ := view.StepByName(step)
	v.Step = step
	return view.ReportStepPage(v, st)
}

// stepTitle is the browser title of a step page.
func stepTitle(v view.Report, step string) string {
	if step == view.PrintStep {
		return v.R.Title + " · whole report"
	}
	if st, ok := view.StepByName(step); ok && step != "" {
		return v.R.Title + " · " + st.Title
	}
	return v.R.Title
}

// reportPageFresh renders a page of the report for this view alone,
// straight to the response (see stream).
func (s *Server) reportPageFresh(c echo.Context, step string) error {
	v, err := s.loadReport(c)
	if err != nil {
		return err
	}
	v.Flash = takeFlash(c)
	v.AllRows = c.QueryParam("rows") == "all"
	v.AllCols = c.QueryParam("cols") == "all"
	return s.stream(c, http.StatusOK, layout(s.page(c, stepTitle(v, step)), stepComponent(v, step)))
}

// reportExitCheck is the live exit check, which reloads itself after any
// change made on the page.
func (s *Server) reportExitCheck(c echo.Context) error {
	v, err := s.loadReport(c)
	if err != nil {
		return err
	}
	sec := view.ExitCheckSection(v, false)
	return s.render(c, http.StatusOK, layout(s.page(c, v.R.Title+" · exit check"), view.SectionPage(v, sec)), sec)
}

// reportHistory lists every change of the report (its page shows the
// newest, reports.HistoryShown).
func (s *Server) reportHistory(c echo.Context) error {
	id, err := idParam(c, "id")
	if err != nil {
		return err
	}
	rep, err := s.svc.LoadWhole(c.Request().Context(), id)
	if err != nil {
		return err
	}
	sec := view.HistorySection(rep.ID, rep.History, rep.HistoryTotal, false)
	return s.render(c, http.StatusOK, layout(s.page(c, rep.Title+" · history"), view.SectionPage(viewOf(rep, currentUser(c)), sec)), sec)
}
