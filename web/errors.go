package web

import (
	"errors"
	"fmt"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"capplan/web/reports"
	"capplan/web/store"
)

// errForbidden is returned when the user may not do what they asked.
var errForbidden = echo.NewHTTPError(http.StatusForbidden, "You do not have permission to do this.")

// handleError is the one place errors become responses. An *echo.HTTPError
// keeps its status; every other error gets the status of its kind
// (reports.KindOf): a refused input 422, a stale save 409, a missing
// record 404, ... so a handler that simply returns a user's mistake never
// answers 500. Anything unexpected is logged and shown as a plain 500
// without internal detail.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	status, msg := errorStatus(err)
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

// kindStatus is the HTTP status of each kind of error.
var kindStatus = map[reports.Kind]int{
	reports.KindInternal:   http.StatusInternalServerError,
	reports.KindNotFound:   http.StatusNotFound,
	reports.KindInvalid:    http.StatusUnprocessableEntity,
	reports.KindConflict:   http.StatusConflict,
	reports.KindForbidden:  http.StatusForbidden,
	reports.KindTooLarge:   http.StatusRequestEntityTooLarge,
	reports.KindBadRequest: http.StatusBadRequest,
}

// errorStatus is the status and the message for people of err.
func errorStatus(err error) (int, string) {
	var he *echo.HTTPError
	if errors.As(err, &he) {
		if m, ok := he.Message.(string); ok {
			return he.Code, m
		}
		return he.Code, http.StatusText(he.Code)
	}
	kind := reports.KindOf(err)
	status := kindStatus[kind]
	var ce *store.ConflictError
	var ro *store.ReadOnlyError
	switch {
	case kind == reports.KindInternal:
		return status, "Something went wrong on our side. It has been logged."
	case kind == reports.KindNotFound:
		return status, "Not found."
	case kind == reports.KindForbidden:
		return status, "You do not have permission to do this."
	case errors.As(err, &ce):
		return status, capitalize(ce.Error()) + ". Reload the page to see the changes."
	case errors.As(err, &ro):
		return status, capitalize(ro.Error()) + "."
	}
	return status, capitalize(err.Error())
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
	if rep, ok := s.loadedReport(c); ok && rep.ID == id {
		return id, true
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
