package web

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// limitedServer serves app's store under the limits l, as `capplan serve`
// does (deadlines and the per-client bound); it returns its address.
func limitedServer(t *testing.T, app *testApp, l Limits) string {
	t.Helper()
	srv := NewHTTPServer(New(app.store, slog.New(slog.NewTextHandler(io.Discard, nil)), Config{DataDir: t.TempDir()}), l)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(LimitConns(ln, l.PerClient))
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// cookieHeader is the session cookie of a logged-in test client.
func cookieHeader(t *testing.T, app *testApp, c *http.Client) string {
	t.Helper()
	u, _ := url.Parse(app.srv.URL)
	var parts []string
	for _, k := range c.Jar.Cookies(u) {
		parts = append(parts, k.Name+"="+k.Value)
	}
	return strings.Join(parts, "; ")
}

// rawAnswer sends head and then body on a fresh connection from src,
// sends nothing more, and reads the answer (up to within).
func rawAnswer(t *testing.T, src, addr, head, body string, within time.Duration) (*http.Response, string, time.Duration) {
	t.Helper()
	c := dialFrom(t, src, addr)
	defer c.Close()
	start := time.Now()
	c.SetDeadline(start.Add(within))
	if _, err := io.WriteString(c, head+body); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return nil, err.Error(), time.Since(start)
	}
	b, _ := io.ReadAll(res.Body)
	return res, string(b), time.Since(start)
}

// TestSlowBodyAnsweredInWords: a body that stops coming is cut at the
// body timeout on every kind of route (a form, the results API, the
// evidence and reference uploads) and answered 408 in words that name no
// socket address, never an empty 200 or a 500.
func TestSlowBodyAnsweredInWords(t *testing.T) {
	app := newTestApp(t)
	ctx := context.Background()
	id, err := app.store.CreateReport(ctx, app.users["lead"], "Slow bodies")
	if err != nil {
		t.Fatal(err)
	}
	l := DefaultLimits
	l.Body = time.Second
	addr := limitedServer(t, app, l)
	cookie := cookieHeader(t, app, app.client("lead"))
	tok, _ := app.store.CreateAPIToken(ctx, app.users["lead"].ID, "ci")
	const boundary = "XBOUNDARY"
	part := "--" + boundary + "\r\nContent-Disposition: form-data; name=\"files\"; filename=\"soak.json\"\r\nContent-Type: application/json\r\n\r\n{\"rows\": ["
	for _, tc := range []struct {
		name, head, body string
		api              bool
	}{
		{"login form", "POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\n", "email=a", false},
		{"results API", fmt.Sprintf("POST /api/v1/reports/%d/results?name=r.json HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n", id, tok), "{\"benchmarks\": [", true},
		{"evidence upload", fmt.Sprintf("POST /reports/%d/evidence/soak HTTP/1.1\r\nHost: x\r\nCookie: %s\r\nContent-Type: multipart/form-data; boundary=%s\r\nContent-Length: 100000\r\n\r\n", id, cookie, boundary), part, false},
		{"reference upload", fmt.Sprintf("POST /reports/%d/reference HTTP/1.1\r\nHost: x\r\nCookie: %s\r\nContent-Type: multipart/form-data; boundary=%s\r\nContent-Length: 100000\r\n\r\n", id, cookie, boundary), part, false},
		{"results upload", fmt.Sprintf("POST /reports/%d/imports HTTP/1.1\r\nHost: x\r\nCookie: %s\r\nContent-Type: multipart/form-data; boundary=%s\r\nContent-Length: 100000\r\n\r\n", id, cookie, boundary), part, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, body, took := rawAnswer(t, "127.0.0.1", addr, tc.head, tc.body, 10*time.Second)
			if res == nil {
				t.Fatalf("no answer after %v: %s", took, body)
			}
			if res.StatusCode != http.StatusRequestTimeout || !strings.Contains(body, "too slowly") {
				t.Errorf("status %d after %v: %.300s", res.StatusCode, took, body)
			}
			if strings.Contains(body, "127.0.0.1") || strings.Contains(body, "i/o timeout") {
				t.Errorf("the answer names a socket: %.300s", body)
			}
			if tc.api && !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
				t.Errorf("API answer %s", res.Header.Get("Content-Type"))
			}
			if !res.Close {
				t.Errorf("the connection of a cut body is kept open")
			}
		})
	}
	if r, _ := app.store.Report(ctx, id); r.Version != 1 {
		t.Errorf("report changed to version %d by cut bodies", r.Version)
	}
}

// TestEarlyRefusalsCutSlowClients: requests refused without their body
// being read (anonymous, cross-origin, a bad token, a POST to /healthz)
// and sending a large body a byte a second are answered and cut at once,
// 64 of them from one address, while /healthz from that same address
// answers.
func TestEarlyRefusalsCutSlowClients(t *testing.T) {
	app := newTestApp(t)
	id, _ := app.store.CreateReport(context.Background(), app.users["lead"], "Early refusals")
	addr := limitedServer(t, app, DefaultLimits)
	const length = "Content-Length: 1000000\r\n\r\n"
	heads := []string{
		fmt.Sprintf("POST /reports/%d/title HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n", id),
		"POST /login HTTP/1.1\r\nHost: x\r\nSec-Fetch-Site: cross-site\r\nOrigin: http://evil.example\r\nContent-Type: application/x-www-form-urlencoded\r\n",
		fmt.Sprintf("POST /api/v1/reports/%d/results?name=r.json HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer nope\r\n", id),
		"POST /healthz HTTP/1.1\r\nHost: x\r\n",
		fmt.Sprintf("POST /reports/%d/imports HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=B\r\n", id),
	}
	const conns = 64
	const limit = 30 * time.Second
	var wg sync.WaitGroup
	took := make([]time.Duration, conns)
	for i := range conns {
		c := dialFrom(t, "127.0.0.9", addr)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer c.Close()
			c.Write([]byte(heads[i%len(heads)] + length))
			took[i] = untilClosed(c, "abcdefgh", limit)
		}()
	}
	// /healthz from the same address meanwhile.
	healthy, tries := 0, 0
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for waiting := true; waiting; {
		select {
		case <-done:
			waiting = false
		case <-time.After(100 * time.Millisecond):
		}
		tries++
		c, err := (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.9")}, Timeout: 2 * time.Second}).Dial("tcp", addr)
		if err != nil {
			continue
		}
		c.SetDeadline(time.Now().Add(3 * time.Second))
		io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
		if res, err := http.ReadResponse(bufio.NewReader(c), nil); err == nil && res.StatusCode == http.StatusOK {
			healthy++
		}
		c.Close()
	}
	worst := time.Duration(0)
	for _, d := range took {
		worst = max(worst, d)
	}
	t.Logf("%d slow early-refused connections, the last cut after %v; /healthz answered %d of %d", conns, worst.Round(time.Millisecond), healthy, tries)
	if worst > 5*time.Second {
		t.Errorf("a slow early-refused connection held %v", worst)
	}
	if healthy != tries {
		t.Errorf("/healthz from the same address answered %d of %d", healthy, tries)
	}

	// 64 connections held open (silent) fill the address's bound: its
	// health checks are still answered, anything else is refused in words.
	var held []net.Conn
	for range DefaultLimits.PerClient {
		held = append(held, dialFrom(t, "127.0.0.9", addr))
	}
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	time.Sleep(100 * time.Millisecond) // the server has accepted them
	for range 3 {
		res, body, _ := rawAnswer(t, "127.0.0.9", addr, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", "", 3*time.Second)
		if res == nil || res.StatusCode != http.StatusOK {
			t.Errorf("/healthz with the bound full: %v %s", res, body)
		}
	}
	res, body, _ := rawAnswer(t, "127.0.0.9", addr, "GET /login HTTP/1.1\r\nHost: x\r\n\r\n", "", 3*time.Second)
	if res == nil || res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, "Too many connections") {
		t.Errorf("/login with the bound full: %v %s", res, body)
	}
}

// TestWriterLockWaitedFor: a save while another process holds SQLite's
// write lock for 7 s waits for it and is stored; one that cannot get the
// lock within the store's wait is answered 503 with Retry-After, in words,
// not 500.
func TestWriterLockWaitedFor(t *testing.T) {
	app := newTestApp(t)
	ctx := context.Background()
	id, _ := app.store.CreateReport(ctx, app.users["lead"], "Locked")
	c := app.client("lead")
	other, err := sql.Open("sqlite", "file:"+app.store.Path()+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	hold := func(d time.Duration) chan struct{} {
		conn, err := other.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
			t.Fatal(err)
		}
		released := make(chan struct{})
		go func() {
			time.Sleep(d)
			conn.ExecContext(ctx, "ROLLBACK")
			conn.Close()
			close(released)
		}()
		return released
	}
	rename := func(title string, version int) (*http.Response, string) {
		return do(t, c, http.MethodPost, fmt.Sprintf("%s/reports/%d/title", app.srv.URL, id), url.Values{"title": {title}, "version": {fmt.Sprint(version)}})
	}
	released := hold(7 * time.Second)
	res, body := rename("Saved after the lock", 1)
	<-released
	if res.StatusCode >= 400 {
		t.Fatalf("a save behind a 7 s lock: %d %.300s", res.StatusCode, body)
	}
	if r, _ := app.store.Report(ctx, id); r.Title != "Saved after the lock" {
		t.Fatalf("title %q", r.Title)
	}

	if err := app.store.SetBusyTimeout(ctx, 300*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	released = hold(3 * time.Second)
	res, body = rename("Never saved", 2)
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" || !strings.Contains(body, "nothing was saved") {
		t.Errorf("a save the lock kept out: %d Retry-After %q %.300s", res.StatusCode, res.Header.Get("Retry-After"), between(body, "<main", "</main>"))
	}
	<-released
	if r, _ := app.store.Report(ctx, id); r.Title != "Saved after the lock" {
		t.Errorf("title %q", r.Title)
	}
}
