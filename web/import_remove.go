package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"capplan/web/reports"
	"capplan/web/view"
)

// importRemove takes an import's rows out of the report; the record and
// the raw file stay, and the history says who removed what.
func (s *Server) importRemove(c echo.Context) error {
	r, err := s.editableReport(c)
	if err != nil {
		return err
	}
	iid, err := idParam(c, "iid")
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	im, err := s.store.ImportByID(ctx, r.ID, iid)
	if err != nil {
		return err
	}
	e := s.edit(c, r, "import removed", "imports")
	e.Before = reports.DescribeImport(im, im.Rows)
	if err := s.store.RemoveImport(ctx, e, im.ID); err != nil {
		return err
	}
	if !isPartial(c.Request()) {
		return redirect(c, view.SectionURL(r.ID, "imports"))
	}
	v, err := s.loadReport(c)
	if err != nil {
		return err
	}
	return s.answerChange(c, http.StatusOK, v, "imports", view.ImportsSwap(v))
}
