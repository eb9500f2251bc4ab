package web

import (
	"errors"
	"fmt"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"capplan/web/store"
)

// errForbidden is returned when the user may not do what they asked.
var errForbidden = echo.NewHTTPError(http.StatusForbidden, "You do not have permission to do this.")

// handleError is the one place errors become responses. Domain errors map
// to status codes; anything unexpected is logged and shown as a plain 500
// without internal detail.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	status, msg := http.StatusInternalServerError, "Something went wrong on our side. It has been logged."
	var he *echo.HTTPError
	switch {
	case errors.As(err, &he):
		status = he.Code
		if m, ok := he.Message.(string); ok {
			msg = m
		} else {
			msg = http.StatusText(status)
		}
	case errors.Is(err, store.ErrNotFound):
		status, msg = http.StatusNotFound, "Not found."
	}
	if status >= 500 {
		s.logFor(c).Error("request failed", "method", c.Request().Method, "path", c.Request().URL.Path, "err", err)
	}
	if strings.HasPrefix(c.Request().URL.Path, "/api/") {
		c.JSON(status, map[string]string{"error": msg})
		return
	}
	if c.Request().Method == http.MethodHead {
		c.NoContent(status)
		return
	}
	page := errorPage(status, msg)
	if id, ok := s.reportOfPath(c); ok {
		page = reportErrorPage(status, msg, id)
	}
	s.render(c, status, layout(s.page(c, http.StatusText(status)), page), errorBox(msg))
}

// reportOfPath is the report a request under /reports/:id/… is about, when
// it exists: the error page's way back to it. The report's own page has no
// such way back (it is the page that failed).
func (s *Server) reportOfPath(c echo.Context) (int64, bool) {
	rest, ok := strings.CutPrefix(c.Request().URL.Path, "/reports/")
	if !ok {
		return 0, false
	}
	idText, sub, _ := strings.Cut(rest, "/")
	id, err := strconv.ParseInt(idText, 10, 64)
	if err != nil || id <= 0 || (sub == "" && c.Request().Method == http.MethodGet) {
		return 0, false
	}
	if _, err := s.store.Report(c.Request().Context(), id); err != nil {
		return 0, false
	}
	return id, true
}

// recoverPanics is middleware that turns a panic in a handler into a
// logged 500 with the generic error page, never a dropped connection or a
// stack trace on screen.
func (s *Server) recoverPanics(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) (err error) {
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.logFor(c).Error("panic", "path", c.Request().URL.Path, "panic", p, "stack", string(debug.Stack()))
				err = fmt.Errorf("panic: %v", p)
			}
		}()
		return next(c)
	}
}
