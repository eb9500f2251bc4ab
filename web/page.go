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

// statusText is an error page's heading: what happened, in words, not
// the HTTP status's name ("Conflict", "Unprocessable Entity"). The message
// under it says what exactly and what to do.
func statusText(code int) string {
	switch code {
	case http.StatusBadRequest:
		return "The request could not be read"
	case http.StatusUnauthorized:
		return "Log in first"
	case http.StatusForbidden:
		return "Not allowed for your role"
	case http.StatusNotFound:
		return "Not found"
	case http.StatusMethodNotAllowed:
		return "This address does not take that request"
	case http.StatusConflict:
		return "Not done: the report stands otherwise"
	case http.StatusRequestEntityTooLarge:
		return "Too large to take"
	case http.StatusUnprocessableEntity:
		return "Not saved: something given is not right"
	case http.StatusTooManyRequests:
		return "Too many requests at once"
	case http.StatusServiceUnavailable:
		return "Busy: nothing was changed"
	}
	if code >= 500 {
		return "Something went wrong on our side"
	}
	return "The request was refused (error " + strconv.Itoa(code) + ")"
}

// idParam reads a numeric path parameter, answering 404 when it is not one.
func idParam(c echo.Context, name string) (int64, error) {
	id, err := strconv.ParseInt(c.Param(name), 10, 64)
	if err != nil || id <= 0 {
		return 0, echo.NewHTTPError(http.StatusNotFound, "Not found.")
	}
	return id, nil
}
