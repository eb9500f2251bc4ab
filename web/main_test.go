package web

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"capplan/web/store"
)

// testPassword is every test account's password.
const testPassword = "correct horse battery"

// testApp is a running server on a temporary database with one account
// per role.
type testApp struct {
	t     testing.TB
	store *store.Store
	srv   *httptest.Server
	users map[string]store.User // "admin", "lead", "lead2", "reviewer", "finance"
}

func mustOpenDB(tb testing.TB) *store.Store {
	tb.Helper()
	st, err := store.Open(context.Background(), tb.TempDir()+"/capplan.db")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return st
}

func newTestApp(tb testing.TB) *testApp {
	tb.Helper()
	st := mustOpenDB(tb)
	app := &testApp{t: tb, store: st, users: map[string]store.User{}}
	for _, u := range []struct {
		key, email string
		role       store.Role
	}{
		{"admin", "admin@example.com", store.RoleAdmin},
		{"lead", "lead@example.com", store.RoleLead},
		{"lead2", "lead2@example.com", store.RoleLead},
		{"reviewer", "reviewer@example.com", store.RoleReviewer},
		{"finance", "finance@example.com", store.RoleFinance},
	} {
		created, err := st.CreateUser(context.Background(), u.email, u.key, u.role, testPassword)
		if err != nil {
			tb.Fatal(err)
		}
		app.users[u.key] = created
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	app.srv = httptest.NewServer(New(st, log, Config{DataDir: tb.TempDir()}))
	tb.Cleanup(app.srv.Close)
	return app
}

// client returns an HTTP client logged in as the user with key ("" for
// anonymous). It does not follow redirects.
func (a *testApp) client(key string) *http.Client {
	a.t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	if key == "" {
		return c
	}
	res, err := c.PostForm(a.srv.URL+"/login", url.Values{"email": {a.users[key].Email}, "password": {testPassword}})
	if err != nil {
		a.t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		a.t.Fatalf("login as %s: status %d", key, res.StatusCode)
	}
	return c
}

// do sends a request and returns the status and body.
func do(tb testing.TB, c *http.Client, method, u string, form url.Values, hdr ...string) (*http.Response, string) {
	tb.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		tb.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := c.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}
