package web

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"
)

// page returns the layout context of the current request.
func (s *Server) page(c echo.Context, title string) pageCtx {
	return pageCtx{User: currentUser(c), Title: title, Path: c.Request().URL.Path}
}

// idParam reads a numeric path parameter, answering 404 when it is not one.
func idParam(c echo.Context, name string) (int64, error) {
	id, err := strconv.ParseInt(c.Param(name), 10, 64)
	if err != nil || id <= 0 {
		return 0, echo.NewHTTPError(http.StatusNotFound, "Not found.")
	}
	return id, nil
}
