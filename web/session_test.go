package web

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"

	"github.com/labstack/echo/v4"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"capplan/web/store"
)

func TestSessionCookieAndLogout(t *testing.T) {
	app := newTestApp(t)
	c := app.client("")
	res, _ := do(t, c, "POST", app.srv.URL+"/login", url.Values{"email": {app.users["lead"].Email}, "password": {testPassword}, "next": {"//evil.example/"}})
	if loc := res.Header.Get("Location"); loc != "/reports" {
		t.Errorf("open redirect: Location %q", loc)
	}
	var ck *http.Cookie
	for _, k := range res.Cookies() {
		if k.Name == sessionCookie {
			ck = k
		}
	}
	if ck == nil || !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Expires.IsZero() {
		t.Fatalf("session cookie = %+v", ck)
	}
	if res, _ := do(t, c, "GET", app.srv.URL+"/reports", nil); res.StatusCode != http.StatusOK {
		t.Fatalf("logged in: %d", res.StatusCode)
	}
	do(t, c, "POST", app.srv.URL+"/logout", url.Values{})
	// The old token no longer works, even if replayed.
	if _, err := app.store.SessionUser(context.Background(), ck.Value); err == nil {
		t.Error("session still valid after logout")
	}
	if res, _ := do(t, c, "GET", app.srv.URL+"/reports", nil); res.StatusCode != http.StatusSeeOther {
		t.Errorf("after logout: %d", res.StatusCode)
	}
}

func TestSecurityHeadersAndCrossOriginRefusal(t *testing.T) {
	app := newTestApp(t)
	lead := app.client("lead")
	res, _ := do(t, lead, "GET", app.srv.URL+"/reports", nil)
	h := res.Header
	if !strings.Contains(h.Get("Content-Security-Policy"), "frame-ancestors 'none'") || !strings.Contains(h.Get("Content-Security-Policy"), "script-src 'self'") {
		t.Errorf("CSP = %q", h.Get("Content-Security-Policy"))
	}
	if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("X-Frame-Options") != "DENY" {
		t.Errorf("headers = %v", h)
	}
	// A form posted from another site is refused before any handler runs.
	res, _ = do(t, lead, "POST", app.srv.URL+"/reports", url.Values{"title": {"from evil"}}, "Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example")
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("cross-site post: %d, want 403", res.StatusCode)
	}
	reports, _ := app.store.Reports(context.Background())
	if len(reports) != 0 {
		t.Errorf("cross-site post created a report")
	}
	// Same-origin posts from the browser pass.
	res, _ = do(t, lead, "POST", app.srv.URL+"/reports", url.Values{"title": {"mine"}}, "Sec-Fetch-Site", "same-origin")
	if res.StatusCode != http.StatusSeeOther {
		t.Errorf("same-origin post: %d", res.StatusCode)
	}
}

func TestErrorsShowNoInternals(t *testing.T) {
	app := newTestApp(t)
	lead := app.client("lead")
	res, body := do(t, lead, "GET", app.srv.URL+"/reports/999999", nil)
	if res.StatusCode != http.StatusNotFound || !strings.Contains(body, "Not found") {
		t.Errorf("unknown report: %d", res.StatusCode)
	}
	// Break the database under the server: the page says sorry, not SQL.
	app.store.Close()
	res, body = do(t, lead, "GET", app.srv.URL+"/reports", nil)
	if res.StatusCode != http.StatusInternalServerError {
		t.Fatalf("status %d", res.StatusCode)
	}
	for _, leak := range []string{"sql", "database is closed", "goroutine", ".go:"} {
		if strings.Contains(strings.ToLower(body), leak) {
			t.Errorf("error page leaks %q", leak)
		}
	}
}

func TestAdminAddsPeopleAndTheyChangePassword(t *testing.T) {
	app := newTestApp(t)
	admin := app.client("admin")
	res, body := do(t, admin, "POST", app.srv.URL+"/users", url.Values{"email": {"new@example.com"}, "role": {"finance"}, "password": {"short"}})
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "at least 12 characters") {
		t.Fatalf("short password: %d", res.StatusCode)
	}
	res, _ = do(t, admin, "POST", app.srv.URL+"/users", url.Values{"email": {"new@example.com"}, "role": {"finance"}, "password": {"first password!"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("add: %d", res.StatusCode)
	}
	res, body = do(t, admin, "POST", app.srv.URL+"/users", url.Values{"email": {"new@example.com"}, "role": {"lead"}, "password": {"first password!"}})
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "already exists") {
		t.Fatalf("duplicate: %d", res.StatusCode)
	}
	u, err := app.store.UserByEmail(context.Background(), "new@example.com")
	if err != nil || u.Role != store.RoleFinance {
		t.Fatalf("user = %+v, %v", u, err)
	}
	c := app.client("")
	do(t, c, "POST", app.srv.URL+"/login", url.Values{"email": {"new@example.com"}, "password": {"first password!"}})
	res, _ = do(t, c, "POST", app.srv.URL+"/account/password", url.Values{"current": {"first password!"}, "password": {"second password!"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("change password: %d", res.StatusCode)
	}
	if _, err := app.store.Authenticate(context.Background(), "new@example.com", "second password!"); err != nil {
		t.Errorf("new password does not work: %v", err)
	}
	// Still logged in after the change.
	if res, _ := do(t, c, "GET", app.srv.URL+"/account", nil); res.StatusCode != http.StatusOK {
		t.Errorf("account after change: %d", res.StatusCode)
	}
}

func TestPanicBecomesGenericErrorPage(t *testing.T) {
	app := newTestApp(t)
	s := &Server{store: app.store, log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	e := s.echo()
	e.GET("/boom", func(echo.Context) error { panic("secret internal state") })
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest("GET", "/boom", nil))
	if rec.Code != http.StatusInternalServerError {
		t.Fatalf("status %d", rec.Code)
	}
	if body := rec.Body.String(); strings.Contains(body, "secret internal state") || !strings.Contains(body, "Something went wrong") {
		t.Errorf("panic page leaks or lacks the generic message:\n%.300s", body)
	}
}

func TestAPITokenSchemeIsCaseInsensitiveAndCrossSiteIsJSON(t *testing.T) {
	app := newTestApp(t)
	ctx := context.Background()
	id, _ := app.store.CreateReport(ctx, app.users["lead"], "API")
	tok, err := app.store.CreateAPIToken(ctx, app.users["reviewer"].ID, "ci")
	if err != nil {
		t.Fatal(err)
	}
	u := app.srv.URL + "/api/v1/reports/" + strconv.FormatInt(id, 10)
	res, body := do(t, app.client(""), "GET", u, nil, "Authorization", "bearer "+tok)
	if res.StatusCode != http.StatusOK {
		t.Errorf("lower-case scheme: %d %s", res.StatusCode, body)
	}
	// A cross-site request to the API is judged by its token alone and
	// answered in JSON.
	res, body = do(t, app.client(""), "POST", u+"/results", url.Values{}, "Sec-Fetch-Site", "cross-site", "Origin", "https://elsewhere.example")
	if res.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(strings.TrimSpace(body), "{") {
		t.Errorf("cross-site API call without a token: %d %q", res.StatusCode, body)
	}
}

func TestAddPersonNamesEveryRefusedField(t *testing.T) {
	app := newTestApp(t)
	res, body := do(t, app.client("admin"), "POST", app.srv.URL+"/users", url.Values{"email": {"nobody"}, "role": {""}, "password": {"short"}})
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("status %d", res.StatusCode)
	}
	for _, f := range []string{"err-email", "err-role", "err-password"} {
		if !strings.Contains(body, `data-testid="`+f+`"`) {
			t.Errorf("no %s", f)
		}
	}
}

func TestFlashComesFromTheAppNotTheURL(t *testing.T) {
	app := newTestApp(t)
	lead := app.client("lead")
	id, _ := app.store.CreateReport(context.Background(), app.users["lead"], "R")
	u := app.srv.URL + "/reports/" + strconv.FormatInt(id, 10)
	if _, page := do(t, lead, "GET", u+"?flash=Your+session+expired,+log+in+at+evil.example", nil); strings.Contains(page, "evil.example") {
		t.Error("a message in the URL is shown as the app's")
	}
	// A real one is shown once.
	do(t, lead, "POST", u+"/contract", contractValues(1))
	do(t, lead, "POST", u+"/freeze", url.Values{"version": {"2"}, "confirm": {"1"}})
	if _, page := do(t, lead, "GET", u, nil); !strings.Contains(page, "Contract frozen.") {
		t.Error("the freeze message is not shown")
	}
	if _, page := do(t, lead, "GET", u, nil); strings.Contains(page, "Contract frozen.") {
		t.Error("the message is shown twice")
	}
}
