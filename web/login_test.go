package web

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"capplan/web/store"
)

// loginRig drives the login handler directly, from any client address and
// at any time on its own clock.
type loginRig struct {
	t   *testing.T
	h   http.Handler
	st  *store.Store
	mu  sync.Mutex
	now time.Time
}

func newLoginRig(t *testing.T, cfg Config) *loginRig {
	r := &loginRig{t: t, st: mustOpenDB(t), now: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}
	if _, err := r.st.CreateUser(context.Background(), "ann@example.com", "Ann", store.RoleAdmin, testPassword); err != nil {
		t.Fatal(err)
	}
	cfg.Now = func() time.Time { r.mu.Lock(); defer r.mu.Unlock(); return r.now }
	r.h = New(r.st, slog.New(slog.NewTextHandler(io.Discard, nil)), cfg)
	return r
}

func (r *loginRig) advance(d time.Duration) { r.mu.Lock(); r.now = r.now.Add(d); r.mu.Unlock() }

// login posts the form from the address addr (host or host:port) with
// extra headers; it returns the recorded answer.
func (r *loginRig) login(addr, email, password string, hdr ...string) *httptest.ResponseRecorder {
	r.t.Helper()
	form := url.Values{"email": {email}, "password": {password}, "next": {"/reports/1"}}
	req := httptest.NewRequest("POST", "/login", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if _, _, err := net.SplitHostPort(addr); err != nil {
		addr += ":40000"
	}
	req.RemoteAddr = addr
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	r.h.ServeHTTP(rec, req)
	return rec
}

func TestLoginThrottleSlowsTheAttackerNotTheUser(t *testing.T) {
	r := newLoginRig(t, Config{})
	const attacker, owner = "203.0.113.9", "198.51.100.7"
	// The first failures only count.
	for i := range accountFreeFailures {
		if rec := r.login(attacker, "ann@example.com", "guess number one"); rec.Code != http.StatusUnauthorized {
			t.Fatalf("failure %d: status %d", i+1, rec.Code)
		}
	}
	// Past them, each failure makes the attacker wait, twice as long as the
	// one before; while waiting even the right password is not looked at.
	for i, want := range []string{"1", "2", "4", "8"} {
		if rec := r.login(attacker, "ann@example.com", "another guess!!"); rec.Code != http.StatusUnauthorized {
			t.Fatalf("counted failure %d: status %d", i+1, rec.Code)
		}
		rec := r.login(attacker, "ann@example.com", testPassword)
		if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") != want {
			t.Fatalf("after counted failure %d: status %d, Retry-After %q, want 429 and %s", i+1, rec.Code, rec.Header().Get("Retry-After"), want)
		}
		if !strings.Contains(rec.Body.String(), "Too many failed logins from your address") {
			t.Errorf("the wait is not explained:\n%s", rec.Body.String())
		}
		// The owner, elsewhere, is never held up by it.
		if rec := r.login(owner, "ann@example.com", testPassword); rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/reports/1" {
			t.Fatalf("owner from another address: status %d, Location %q", rec.Code, rec.Header().Get("Location"))
		}
		r.advance(time.Duration(1<<i) * time.Second)
	}
	// After the wait the attacker may try again (and is answered as anyone).
	if rec := r.login(attacker, "ann@example.com", "one more guess"); rec.Code != http.StatusUnauthorized {
		t.Fatalf("after the wait: status %d", rec.Code)
	}
	// The waits are capped.
	for range 40 {
		r.advance(maxWait)
		r.login(attacker, "ann@example.com", "one more guess")
	}
	if rec := r.login(attacker, "ann@example.com", "x"); rec.Header().Get("Retry-After") != "600" {
		t.Errorf("capped wait: Retry-After %q, want 600", rec.Header().Get("Retry-After"))
	}
}

func TestLoginThrottleCountsSprayingFromOneAddress(t *testing.T) {
	r := newLoginRig(t, Config{})
	const sprayer = "203.0.113.50"
	// One guess per account, over many accounts, known or not.
	for i := range addressFreeFailures {
		email := "person" + string(rune('a'+i)) + "@example.com"
		if rec := r.login(sprayer, email, "Summer2026!!"); rec.Code != http.StatusUnauthorized {
			t.Fatalf("guess %d: status %d", i+1, rec.Code)
		}
	}
	r.login(sprayer, "zed@example.com", "Summer2026!!")
	if rec := r.login(sprayer, "ann@example.com", "Summer2026!!"); rec.Code != http.StatusTooManyRequests {
		t.Errorf("spraying past %d failures: status %d, want 429", addressFreeFailures, rec.Code)
	}
	// An IPv6 client counts by its /64: a new address in it is no escape.
	for i := range addressFreeFailures + 1 {
		r.login("[2001:db8:1:2::"+string(rune('a'+i%6))+"]:5000", "p"+string(rune('a'+i))+"@example.com", "Summer2026!!")
	}
	if rec := r.login("[2001:db8:1:2:ffff::1]:5000", "ann@example.com", testPassword); rec.Code != http.StatusTooManyRequests {
		t.Errorf("same /64: status %d, want 429", rec.Code)
	}
	if rec := r.login("[2001:db8:1:3::1]:5000", "ann@example.com", testPassword); rec.Code != http.StatusSeeOther {
		t.Errorf("another /64: status %d, want 303", rec.Code)
	}
}

// TestLoginAnswersAlikeForUnknownAndKnownAccounts holds every answer of the
// login form, in every state of the throttle, the same for an email with an
// account and one without: status, headers that matter, page and time.
func TestLoginAnswersAlikeForUnknownAndKnownAccounts(t *testing.T) {
	r := newLoginRig(t, Config{})
	type answer struct {
		Status     int
		RetryAfter string
		Body       string
	}
	run := func(addr, email string) []answer {
		var out []answer
		start := r.now
		for i := range accountFreeFailures + 4 {
			rec := r.login(addr, email, "not the password")
			out = append(out, answer{rec.Code, rec.Header().Get("Retry-After"), strings.ReplaceAll(rec.Body.String(), email, "EMAIL")})
			if i%3 == 2 {
				r.advance(time.Second)
			}
		}
		r.mu.Lock()
		r.now = start
		r.mu.Unlock()
		return out
	}
	known, unknown := run("192.0.2.1", "ann@example.com"), run("192.0.2.2", "nobody@example.com")
	if len(known) != len(unknown) {
		t.Fatal("different lengths")
	}
	sawThrottle := false
	for i := range known {
		if known[i] != unknown[i] {
			t.Errorf("attempt %d differs: known %d %q, unknown %d %q\n%s\n----\n%s", i+1, known[i].Status, known[i].RetryAfter, unknown[i].Status, unknown[i].RetryAfter, known[i].Body, unknown[i].Body)
		}
		sawThrottle = sawThrottle || known[i].Status == http.StatusTooManyRequests
	}
	if !sawThrottle {
		t.Error("the sequence never reached the throttle")
	}

	// Time: an unknown email costs the same bcrypt comparison as a known
	// one. Skipping it would make the unknown one about a hundred times
	// faster at this cost; the attempts are paired, known then unknown, so
	// that a busy machine slows both alike, and the median ratio must stay
	// within a factor of 4.
	old := store.BcryptCost
	store.BcryptCost = 9
	defer func() { store.BcryptCost = old }()
	if _, err := r.st.CreateUser(context.Background(), "bea@example.com", "Bea", store.RoleLead, testPassword); err != nil {
		t.Fatal(err)
	}
	timed := func(addr, email string) time.Duration {
		start := time.Now()
		r.login(addr, email, "not the password")
		return time.Since(start)
	}
	timed("192.0.2.200", "warm@example.com")
	var ratios []float64
	for i := range 9 {
		k := timed(fmt.Sprintf("198.51.100.%d", i), "bea@example.com")
		u := timed(fmt.Sprintf("198.51.100.%d", 100+i), "nobody@example.com")
		ratios = append(ratios, float64(u)/float64(k))
	}
	slices.Sort(ratios)
	if m := ratios[len(ratios)/2]; m < 0.25 || m > 4 {
		t.Errorf("a wrong password for an unknown email takes %.2f times as long as for a known account (ratios %.2f)", m, ratios)
	}
}

func TestLoginRedirectStaysOnThisSite(t *testing.T) {
	for _, tc := range []struct{ next, want string }{
		{"/\t/x", "/reports"},
		{"//x", "/reports"},
		{"/\\x", "/reports"},
		{"https://x", "/reports"},
		{"/ok", "/ok"},
		{"/reports/7?tab=cost#envelope", "/reports/7?tab=cost#envelope"},
		{"/\n/x", "/reports"},
		{"/\x7f/x", "/reports"},
		{"/a//x", "/reports"},
		{"https:/x", "/reports"},
		{"", "/reports"},
		{"x", "/reports"},
		{"/\u3000/x", "/reports"},
	} {
		if got := safeNext(tc.next); got != tc.want {
			t.Errorf("safeNext(%q) = %q, want %q", tc.next, got, tc.want)
		}
	}
	// Through the login itself, and in the form it shows.
	r := newLoginRig(t, Config{})
	form := url.Values{"email": {"ann@example.com"}, "password": {testPassword}, "next": {"/\t/evil.example"}}
	req := httptest.NewRequest("POST", "/login", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	r.h.ServeHTTP(rec, req)
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/reports" {
		t.Errorf("login with next=/\\t/evil.example: %d, Location %q", rec.Code, rec.Header().Get("Location"))
	}
	rec = httptest.NewRecorder()
	r.h.ServeHTTP(rec, httptest.NewRequest("GET", "/login?next=%2F%5Cevil.example", nil))
	if strings.Contains(rec.Body.String(), "evil.example") {
		t.Error("the login form carries an off-site next")
	}
}

func TestClientAddressFromForwardedForOnlyBehindATrustedProxy(t *testing.T) {
	const proxy = "10.0.0.5"
	for _, tc := range []struct {
		name    string
		trusted []netip.Prefix
		want429 bool // the owner, behind the proxy, is held up by the attacker
	}{
		// Without a trusted proxy the header is ignored: every client is
		// the proxy's address, so the throttle hits them all alike.
		{"no trusted proxy", nil, true},
		// Behind a trusted proxy the header tells clients apart.
		{"trusted proxy", []netip.Prefix{netip.MustParsePrefix("10.0.0.0/24")}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newLoginRig(t, Config{TrustedProxies: tc.trusted})
			for range accountFreeFailures + 1 {
				r.login(proxy, "ann@example.com", "a wrong password", "X-Forwarded-For", "203.0.113.9")
			}
			rec := r.login(proxy, "ann@example.com", testPassword, "X-Forwarded-For", "198.51.100.7")
			if got := rec.Code == http.StatusTooManyRequests; got != tc.want429 {
				t.Errorf("owner's login: status %d", rec.Code)
			}
		})
	}
	// A forged header from a client that is not a trusted proxy does not
	// make it someone else.
	r := newLoginRig(t, Config{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/24")}})
	for i := range accountFreeFailures + 1 {
		r.login("203.0.113.9", "ann@example.com", "a wrong password", "X-Forwarded-For", "198.51.100."+string(rune('1'+i)))
	}
	if rec := r.login("203.0.113.9", "ann@example.com", testPassword, "X-Forwarded-For", "198.51.100.99"); rec.Code != http.StatusTooManyRequests {
		t.Errorf("forged X-Forwarded-For escaped the throttle: status %d", rec.Code)
	}
}
