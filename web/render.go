package web

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
)

// isPartial reports whether the request wants only the swapped fragment:
// an htmx request that is neither boosted nor a history restore.
func isPartial(r *http.Request) bool {
	return r.Header.Get("HX-Request") == "true" &&
		r.Header.Get("HX-Boosted") != "true" &&
		r.Header.Get("HX-History-Restore-Request") != "true"
}

// render writes the full page, or partial when the request is an htmx swap
// and partial is not nil. The component is rendered into a buffer first,
// so a failure becomes an error page instead of half a page.
func (s *Server) render(c echo.Context, status int, page, partial templ.Component) error {
	c.Response().Header().Add("Vary", "HX-Request")
	comp, swapped := page, false
	if partial != nil && isPartial(c.Request()) {
		comp, swapped = partial, true
	}
	body, err := renderBytes(c, comp)
	if err != nil {
		return err
	}
	if swapped && status < 300 && c.Request().Method == http.MethodPost {
		if err := s.setVersionHeader(c); err != nil {
			return err
		}
	}
	return c.HTMLBlob(status, body)
}

// streamBuffers are the write buffers of stream, reused.
var streamBuffers = sync.Pool{New: func() any { return bufio.NewWriterSize(io.Discard, 32<<10) }}

// stream writes a full page straight to the response through a small
// buffer instead of rendering it whole into memory first. It is for pages
// whose data is all loaded before (the report page): rendering them cannot
// fail but by the connection, and such a failure, after the status is
// sent, is logged rather than answered.
func (s *Server) stream(c echo.Context, status int, page templ.Component) error {
	res := c.Response()
	res.Header().Add("Vary", "HX-Request")
	res.Header().Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	res.WriteHeader(status)
	w := streamBuffers.Get().(*bufio.Writer)
	defer streamBuffers.Put(w)
	w.Reset(res)
	err := page.Render(c.Request().Context(), w)
	if err == nil {
		err = w.Flush()
	}
	w.Reset(io.Discard)
	if err != nil {
		s.log.Warn("writing a page cut short", "path", c.Request().URL.Path, "err", err)
	}
	return nil
}

// renderBytes renders a component into memory.
func renderBytes(c echo.Context, comp templ.Component) ([]byte, error) {
	var buf bytes.Buffer
	if err := comp.Render(c.Request().Context(), &buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// setVersionHeader names the report's current version in X-Report-Version
// after a successful change swapped in by htmx (app.js moves every form's
// hidden version field to it) and fires the report-changed event.
func (s *Server) setVersionHeader(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || !strings.HasPrefix(c.Path(), "/reports/:id") {
		return nil
	}
	version := 0
	if rep, ok := s.loadedReport(c); ok && rep.ID == id {
		version = rep.Version
	} else {
		r, err := s.store.Report(c.Request().Context(), id)
		if err != nil {
			return err
		}
		version = r.Version
	}
	c.Response().Header().Set("X-Report-Version", strconv.Itoa(version))
	// Sections that follow the whole report (the exit check) reload
	// themselves on this event, unless the answer carries them already.
	if done, _ := c.Get(refreshedKey).(bool); !done {
		c.Response().Header().Set("HX-Trigger", "report-changed")
	}
	return nil
}

// redirect answers a form post: htmx follows HX-Redirect, a plain browser
// the 303.
func redirect(c echo.Context, to string) error {
	if c.Request().Header.Get("HX-Request") == "true" {
		c.Response().Header().Set("HX-Redirect", to)
		return c.NoContent(http.StatusNoContent)
	}
	return c.Redirect(http.StatusSeeOther, to)
}

// htmxConfig is the page's htmx configuration: no injected styles or
// scripts (the CSP allows neither), and refused input (422), a stale save
// (409) and a too-large upload (413) are swapped in like a success, since
// their answers are the form with its errors. Other errors are not
// swapped; app.js shows their text. No page is kept for Back: going back
// loads the address afresh, so it never shows figures or a form from
// before a change. Swapped-in content settles at once (no settle delay:
// no style here animates it), so a form is live the moment it shows: with
// htmx's default 20 ms a click that quick submitted the form natively and
// left the page.
const htmxConfig = `{"includeIndicatorStyles":false,"allowScriptTags":false,"defaultSettleDelay":0,` +
	`"historyCacheSize":0,"refreshOnHistoryMiss":true,"responseHandling":[` +
	`{"code":"204","swap":false},{"code":"[23]..","swap":true},` +
	`{"code":"409","swap":true,"error":false},{"code":"413","swap":true,"error":false},{"code":"422","swap":true,"error":false},` +
	`{"code":"[45]..","swap":false,"error":true}]}`
