package web

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/a-h/templ"

	"capplan/web/view"
)

// An error page's heading says what happened in words, never the HTTP
// status's name: a conflict is headed "Not done", on the plain error page
// and on one under a report.
func TestErrorPageHeadingInWords(t *testing.T) {
	for _, c := range []templ.Component{errorPage(http.StatusConflict, "The report is in review."), view.ReportErrorPage(http.StatusConflict, "The report is in review.", 7)} {
		var b strings.Builder
		if err := c.Render(context.Background(), &b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "<h1>Not done: the report has changed or is locked</h1>") || strings.Contains(b.String(), "Conflict") {
			t.Errorf("a conflict's error page:\n%s", b.String())
		}
	}
	for _, code := range []int{400, 401, 403, 405, 409, 413, 422, 429, 500, 502, 503} {
		if got := view.StatusText(code); got == http.StatusText(code) || got == "" {
			t.Errorf("heading of %d = %q: the status's name, not words", code, got)
		}
	}
}

// The login page says what capplan is for before asking who you are.
func TestLoginPageSaysWhatCapplanIs(t *testing.T) {
	app := newTestApp(t)
	res, body := do(t, http.DefaultClient, "GET", app.srv.URL+"/login", nil)
	about := between(body, `data-testid="login-about"`, "</p>")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("login page: %d", res.StatusCode)
	}
	for _, want := range []string{"GPU serving box", "how much load it may admit", "API"} {
		if !strings.Contains(about, want) {
			t.Errorf("the login page's introduction lacks %q: %q", want, about)
		}
	}
}
