package web

import (
	"bytes"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"capplan/web/reports"
)

// xlsxType is the media type of an .xlsx workbook.
const xlsxType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

// reportExportXLSX answers the report as one workbook. It is built whole in
// memory first: a failure is an error page, never half a file.
func (s *Server) reportExportXLSX(c echo.Context) error {
	id, err := idParam(c, "id")
	if err != nil {
		return err
	}
	rep, err := s.svc.LoadWhole(c.Request().Context(), id)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := reports.WriteXLSX(&buf, s.svc.ExportData(rep)); err != nil {
		return fmt.Errorf("export report %d: %w", rep.ID, err)
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="%s"`, reports.ExportName(rep, "xlsx")))
	return c.Blob(http.StatusOK, xlsxType, buf.Bytes())
}
