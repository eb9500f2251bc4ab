package web

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"capplan/web/store"
	"capplan/web/view"
)

func (s *Server) reportList(c echo.Context) error {
	reports, err := s.store.Reports(c.Request().Context())
	if err != nil {
		return err
	}
	states, err := s.store.ReviewStatuses(c.Request().Context())
	if err != nil {
		return err
	}
	// Each report's headline in one line, from its computed result (the
	// computation is memoised per version, see reports.Service.Load).
	lines := make(map[int64]string, len(reports))
	for _, r := range reports {
		rep, err := s.svc.Load(c.Request().Context(), r.ID)
		if err != nil {
			return err
		}
		lines[r.ID] = rep.Result.Headline.Line
	}
	u := currentUser(c)
	canCreate := u.Role == store.RoleLead || u.Role == store.RoleAdmin
	return s.render(c, http.StatusOK, layout(s.page(c, "Reports"), view.ReportListPage(reports, states, lines, canCreate)), nil)
}

func (s *Server) reportNewForm(c echo.Context) error {
	return s.render(c, http.StatusOK, layout(s.page(c, "New report"), view.ReportNewPage(view.SectionForm{})), nil)
}

func (s *Server) reportCreate(c echo.Context) error {
	fr, err := readForm(c)
	if err != nil {
		return err
	}
	title := fr.str("title")
	if title == "" {
		fr.refuse("title", "required: name the report, e.g. the service and the box")
		f := view.SectionForm{Form: fr.f, Errs: fr.errs}
		return s.render(c, http.StatusUnprocessableEntity, layout(s.page(c, "New report"), view.ReportNewPage(f)), nil)
	}
	id, err := s.store.CreateReport(c.Request().Context(), *currentUser(c), title)
	if err != nil {
		return err
	}
	// A new report starts at its first step, the contract.
	return redirect(c, view.StepURL(id, "contract"))
}

func (s *Server) reportRename(c echo.Context) error {
	r, err := s.editableReport(c)
	if err != nil {
		return err
	}
	e := s.edit(c, r, "renamed", "report")
	fr, err := readForm(c)
	if err != nil {
		return err
	}
	e.Before, e.After = r.Title, fr.raw("title")
	if err := s.store.RenameReport(c.Request().Context(), e, fr.raw("title")); err != nil {
		return err
	}
	return redirect(c, fmt.Sprintf("/reports/%d", r.ID))
}

// reportEditors sets which other leads may edit the report (owner or admin).
func (s *Server) reportEditors(c echo.Context) error {
	r, err := s.editableReport(c)
	if err != nil {
		return err
	}
	u := currentUser(c)
	if u.Role != store.RoleAdmin && u.ID != r.OwnerID {
		return errNotOwnerEditor
	}
	fr, err := readForm(c)
	if err != nil {
		return err
	}
	var ids []int64
	var names []string
	for _, email := range strings.FieldsFunc(fr.raw("editors"), func(r rune) bool { return r == ',' || r == ' ' || r == '\n' }) {
		// One answer whether the e-mail has no account or an account of
		// another role: the form tells no one who has an account.
		ed, err := s.store.UserByEmail(c.Request().Context(), email)
		if err != nil || ed.Role != store.RoleLead {
			return echo.NewHTTPError(http.StatusUnprocessableEntity, "editors: no lead has the e-mail "+strconv.Quote(email)+" (only leads edit reports)")
		}
		ids = append(ids, ed.ID)
		names = append(names, ed.Email)
	}
	var before []string
	for _, ed := range r.Editors {
		before = append(before, ed.Email)
	}
	e := s.edit(c, r, "editors changed", "report")
	e.Before, e.After = strings.Join(before, ", "), strings.Join(names, ", ")
	if err := s.store.SetEditors(c.Request().Context(), e, ids); err != nil {
		return err
	}
	return redirect(c, fmt.Sprintf("/reports/%d", r.ID))
}
