package web

import (
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"capplan/web/view"
)

// lazyPartDef is one part of the report page that is fetched when first
// opened: who may see it, and its body for a key (false when the key
// names nothing there is).
type lazyPartDef struct {
	may  func(v view.Report) error
	body func(v view.Report, key string) (templ.Component, bool)
}

func mayEdit(v view.Report) error {
	if v.CanEdit {
		return nil
	}
	return errNotEditor
}

func mayEditCosts(v view.Report) error {
	if v.CanEditCosts {
		return nil
	}
	return errNotCostEditor
}

// reportPart answers a lazyPart's fetch with the part's body, or, asked
// for without htmx (the placeholder's link), with a page holding it.
func (s *Server) reportPart(c echo.Context) error {
	def, ok := lazyPartByName(c.Param("name"))
	if !ok {
		return echo.NewHTTPError(http.StatusNotFound, "Not found.")
	}
	v, err := s.loadReport(c)
	if err != nil {
		return err
	}
	if err := def.may(v); err != nil {
		if v.Locked {
			// In review or approved: say why the forms are closed.
			return echo.NewHTTPError(http.StatusConflict, "The report is "+lockedState(v)+": nothing of it changes, so its forms are closed.")
		}
		return err
	}
	body, ok := def.body(v, c.QueryParam("key"))
	if !ok {
		return echo.NewHTTPError(http.StatusNotFound, "Not found: the report has no such row or candidate (it may have been removed).")
	}
	return s.render(c, http.StatusOK, layout(s.page(c, v.R.Title), view.SectionPage(v, body)), body)
}

// lockedState names why a locked report's forms are closed.
func lockedState(v view.Report) string {
	if v.Review.Approved() {
		return "approved"
	}
	return "in review"
}
