package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"capplan/web/view"
)

// A newcomer's first pages say what they are: the login page what
// capplan is for, an error page's heading what happened (not the
// protocol's "Conflict"), and the navigation offers the comparison.
func TestNewcomerWords(t *testing.T) {
	app := newTestApp(t)
	_, login := do(t, http.DefaultClient, http.MethodGet, app.srv.URL+"/login", nil)
	if about := between(login, `data-testid="login-about"`, "</p>"); !strings.Contains(about, "GPU serving box") || !strings.Contains(about, "API") {
		t.Errorf("the login page does not say what capplan is: %q", about)
	}
	_, list := do(t, app.client("reviewer"), http.MethodGet, app.srv.URL+"/reports", nil)
	if !strings.Contains(list, `href="/compare" data-testid="nav-compare"`) {
		t.Error("the navigation has no way to the comparison")
	}
	// A stale save answers 409 with a heading in words.
	id, _ := app.store.CreateReport(context.Background(), app.users["lead"], "Stale")
	res, body := do(t, app.client("lead"), http.MethodPost, fmt.Sprintf("%s/reports/%d/withdraw", app.srv.URL, id), url.Values{"version": {"1"}})
	if res.StatusCode != http.StatusConflict {
		t.Fatalf("withdrawing a draft: %d", res.StatusCode)
	}
	if strings.Contains(body, "<h1>Conflict</h1>") {
		t.Error(`the error page's heading is the protocol's "Conflict"`)
	}
	for code, want := range map[int]string{409: "Not done: the report has changed or is locked", 422: "Not accepted", 403: "Not allowed"} {
		if got := view.StatusText(code); got != want {
			t.Errorf("view.StatusText(%d) = %q, want %q", code, got, want)
		}
	}
}
