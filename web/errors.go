package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"capplan/static"
	"capplan/web/reports"
	"capplan/web/store"
	"capplan/web/view"
)

// forbiddenFor refuses user u an action that only the given roles may
// take, naming them: "Only finance or an admin may do this; you are signed
// in as a lead."
func forbiddenFor(u *store.User, roles ...store.Role) error {
	var names []string
	for _, r := range roles {
		names = append(names, roleNoun(r))
	}
	msg := "Only " + orList(names) + " may do this"
	if u != nil {
		msg += "; you are signed in as " + roleNoun(u.Role)
	}
	return echo.NewHTTPError(http.StatusForbidden, msg+".")
}

// forbidden refuses an action with a sentence saying who may take it.
func forbidden(who string) error { return echo.NewHTTPError(http.StatusForbidden, who) }

// The refusals of a report's own actions, by who may take them.
var (
	errNotEditor      = forbidden("Only the report's owner, the leads it names as editors, or an admin may change this report.")
	errNotCostEditor  = forbidden("Only the report's editors, finance or an admin may change its costs, quotes and scenarios.")
	errNotOwnerEditor = forbidden("Only the report's owner or an admin may choose who else edits it.")
)

// roleNoun is a role as a sentence names a person of it: "a lead",
// "an admin", "finance".
func roleNoun(r store.Role) string {
	switch r {
	case store.RoleAdmin:
		return "an admin"
	case store.RoleFinance:
		return "finance"
	case "":
		return "nobody"
	}
	return "a " + string(r)
}

// orList joins words as a sentence does: "a", "a or b", "a, b or c".
func orList(ws []string) string {
	switch len(ws) {
	case 0:
		return ""
	case 1:
		return ws[0]
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " or " + ws[len(ws)-1]
}

// notFoundText is the one sentence of a 404: what was asked for is not
// there, and the address is named.
func notFoundText(path string) string {
	return "Nothing is at " + path + ": the address may be mistyped, or what it named has been removed."
}

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
	req := c.Request()
	switch {
	case bodyTimedOut(req):
		// The client sent its body too slowly: whatever the handler made
		// of the cut body, nothing was saved.
		status, msg = http.StatusRequestTimeout, errBodyTimeout
		c.Response().Header().Set("Connection", "close")
	case status == http.StatusServiceUnavailable:
		c.Response().Header().Set("Retry-After", strconv.Itoa(retryAfterBusy))
	}
	msg = withoutAddresses(msg)
	if status >= 500 {
		s.logFor(c).Error("request failed", "method", req.Method, "path", req.URL.Path, "err", err)
	}
	// The request's context may be cancelled (a body cut off cancels it):
	// the answer is still made, from a context that is not.
	c.SetRequest(req.WithContext(context.WithoutCancel(req.Context())))
	if err := s.answerError(c, status, msg); err != nil && !c.Response().Committed {
		// The error page itself failed: the refusal still goes out, in
		// plain words, never as an empty 200.
		s.logFor(c).Error("error page failed", "path", req.URL.Path, "err", err)
		c.String(status, msg)
	}
}

// errBodyTimeout is the answer to a request whose body came too slowly.
const errBodyTimeout = "The request's body arrived too slowly and was cut off; nothing was saved. Send it again over a faster or steadier connection."

// retryAfterBusy is the Retry-After, in seconds, of a 503 for a database
// busy with another writer.
const retryAfterBusy = 30

// netAddrs matches the socket addresses of a Go network error
// ("read tcp 127.0.0.1:45007->127.0.0.1:46368: "), which no answer names.
var netAddrs = regexp.MustCompile(`(?:read|write|dial) (?:tcp|tcp4|tcp6|udp|unix) \S*->\S*: |(?:read|write) (?:tcp|tcp4|tcp6|unix) \S+: `)

// withoutAddresses is msg without socket addresses.
func withoutAddresses(msg string) string {
	if !strings.Contains(msg, " tcp") && !strings.Contains(msg, " unix") {
		return msg
	}
	msg = netAddrs.ReplaceAllString(msg, "")
	return strings.ReplaceAll(msg, "i/o timeout", "the upload stalled and was cut off")
}

// answerError writes the refusal: JSON under /api/, else the error page.
func (s *Server) answerError(c echo.Context, status int, msg string) error {
	if strings.HasPrefix(c.Request().URL.Path, "/api/") {
		return c.JSON(status, map[string]string{"error": msg})
	}
	if c.Request().Method == http.MethodHead {
		return c.NoContent(status)
	}
	if status == http.StatusNotFound {
		msg = notFoundText(c.Request().URL.Path)
	}
	page := errorPage(status, msg)
	if id, ok := s.reportOfPath(c); ok {
		page = view.ReportErrorPage(status, msg, id)
	}
	return s.render(c, status, layout(s.page(c, view.StatusText(status)), page), view.ErrorBox(msg))
}

// favicon answers /favicon.ico, which browsers and other clients ask for
// whatever the page links: the embedded icon, cached like the assets.
func (s *Server) favicon(c echo.Context) error {
	b, err := static.FS.ReadFile("favicon.ico")
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "public, max-age=86400")
	return c.Blob(http.StatusOK, "image/x-icon", b)
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
	reports.KindBusy:       http.StatusServiceUnavailable,
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
	case kind == reports.KindBusy:
		return status, "The database is busy with another change (a large import, perhaps) and could not take this one in time; nothing was saved. Try again in a minute."
	case kind == reports.KindInternal:
		return status, "Something went wrong on our side. It has been logged."
	case kind == reports.KindNotFound:
		return status, "Not found."
	case kind == reports.KindForbidden:
		if err != reports.ErrForbidden { // a refusal that says who may
			return status, strings.TrimSuffix(view.Capitalize(err.Error()), ".") + "."
		}
		return status, "You do not have permission to do this."
	case errors.As(err, &ce):
		return status, view.Capitalize(ce.Error()) + ". Reload the page to see the changes."
	case errors.As(err, &ro):
		return status, view.Capitalize(ro.Error()) + "."
	}
	return status, view.Capitalize(err.Error())
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
