package web

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"capplan/planner"
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

// reportShowbackFOCUS answers the report's showback as a FOCUS 1.2 CSV
// under the meter asked (?meter=tokens, the default, or requests), in the
// browser and through the token API alike. A report that has none to give
// is refused in words (422).
func (s *Server) reportShowbackFOCUS(c echo.Context) error {
	id, err := idParam(c, "id")
	if err != nil {
		return err
	}
	meter := c.QueryParam("meter")
	if meter == "" {
		meter = planner.MeterTokens
	}
	var buf bytes.Buffer
	if err := s.svc.ExportFOCUS(c.Request().Context(), id, meter, &buf); err != nil {
		var fe *reports.FocusError
		if errors.As(err, &fe) {
			return echo.NewHTTPError(http.StatusUnprocessableEntity, "FOCUS export: "+fe.Msg)
		}
		return err
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="report-%d-showback-focus-%s.csv"`, id, meter))
	return c.Blob(http.StatusOK, "text/csv; charset=utf-8", buf.Bytes())
}
