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

// statusText is an error page's heading: what happened, in words a user
// reads (not the protocol's reason phrase: "Conflict").
func statusText(code int) string {
	switch code {
	case http.StatusNotFound:
		return "Not found" // sentence case, as every heading
	case http.StatusConflict:
		return "Not done: the report has changed or is locked"
	case http.StatusUnprocessableEntity:
		return "Not accepted"
	case http.StatusForbidden:
		return "Not allowed"
	case http.StatusRequestEntityTooLarge:
		return "Too large"
	case http.StatusBadRequest:
		return "Not understood"
	case http.StatusInternalServerError:
		return "Something went wrong"
	case http.StatusUnauthorized:
		return "Log in first"
	case http.StatusMethodNotAllowed:
		return "This address does not take that request"
	case http.StatusTooManyRequests:
		return "Too many requests at once"
	case http.StatusServiceUnavailable:
		return "Busy: nothing was changed"
	}
	if code >= 500 {
		return "Something went wrong"
	}
	if t := http.StatusText(code); t != "" {
		return t
	}
	return "Error " + strconv.Itoa(code)
}

// idParam reads a numeric path parameter, answering 404 when it is not one.
func idParam(c echo.Context, name string) (int64, error) {
	id, err := strconv.ParseInt(c.Param(name), 10, 64)
	if err != nil || id <= 0 {
		return 0, echo.NewHTTPError(http.StatusNotFound, "Not found.")
	}
	return id, nil
}
