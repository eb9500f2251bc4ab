package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"capplan/web/view"
)

// rowProvenance shows where each figure of one imported row was read: the
// file, its sha256 and the path inside it. The matrix links here too.
func (s *Server) rowProvenance(c echo.Context) error {
	id, err := idParam(c, "id")
	if err != nil {
		return err
	}
	rid, err := idParam(c, "rid")
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	r, err := s.store.Report(ctx, id)
	if err != nil {
		return err
	}
	rows, err := s.store.Rows(ctx, r.ID)
	if err != nil {
		return err
	}
	for _, sr := range rows {
		if sr.ID == rid {
			p := provenance(r.ID, sr)
			p.Back = "imports"
			if from := c.QueryParam("from"); from == "matrix" || from == "candidates" {
				p.Back = from
			}
			return s.render(c, http.StatusOK, layout(s.page(c, r.Title+" · sources"), view.ProvenancePage(p)), view.ProvenanceTable(p))
		}
	}
	return echo.NewHTTPError(http.StatusNotFound, "No such row in this report (its import may have been removed).")
}
