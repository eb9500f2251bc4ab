package web

import (
	"net/netip"
	"strings"
	"sync"
	"time"
)

// loginThrottle slows down failed logins instead of locking accounts. It
// counts failures per (account, client address) and per client address;
// past a few free failures each further one doubles the wait before the
// next attempt from there, up to a cap. An attacker elsewhere therefore
// slows only themselves: the account's owner, logging in from another
// address, is never turned away. Unknown and known emails are counted
// alike, so the answers cannot tell which exist.
type loginThrottle struct {
	mu      sync.Mutex
	entries map[string]*strikes
}

// strikes is the failure record of one key.
type strikes struct {
	n     int       // failures since the last success or since forgotten
	last  time.Time // the latest failure
	until time.Time // no attempt before this
}

// The throttle's rules.
const (
	accountFreeFailures = 5                // per (account, address) before waits begin
	addressFreeFailures = 20               // per address, over all accounts
	firstWait           = time.Second      // the wait after the first counted failure; it doubles
	maxWait             = 10 * time.Minute // no wait is longer
	forgetAfter         = time.Hour        // failures older than this are forgotten
	maxEntries          = 100_000          // memory bound: about 100 bytes an entry
)

func newLoginThrottle() *loginThrottle {
	return &loginThrottle{entries: map[string]*strikes{}}
}

// throttleKeys names the (account, address) and the address records. An
// IPv6 address counts by its /64, which one client usually holds whole.
func throttleKeys(email, addr string) (account, address string) {
	if ip, err := netip.ParseAddr(addr); err == nil && ip.Is6() && !ip.Is4In6() {
		p, _ := ip.Prefix(64)
		addr = p.String()
	}
	return "a\x00" + strings.ToLower(strings.TrimSpace(email)) + "\x00" + addr, "i\x00" + addr
}

// wait returns how long the client at addr must wait before trying email
// again; 0 means it may try now.
func (t *loginThrottle) wait(email, addr string, now time.Time) time.Duration {
	ak, ik := throttleKeys(email, addr)
	t.mu.Lock()
	defer t.mu.Unlock()
	var w time.Duration
	for _, k := range []string{ak, ik} {
		if e := t.entries[k]; e != nil && e.until.After(now) {
			w = max(w, e.until.Sub(now))
		}
	}
	return w
}

// fail records a failed login for email from addr.
func (t *loginThrottle) fail(email, addr string, now time.Time) {
	ak, ik := throttleKeys(email, addr)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.strike(ak, accountFreeFailures, now)
	t.strike(ik, addressFreeFailures, now)
}

// succeed forgets the account's failures from addr. The address's own
// count stays: one good account must not reset a guessing run's record.
func (t *loginThrottle) succeed(email, addr string) {
	ak, _ := throttleKeys(email, addr)
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.entries, ak)
}

func (t *loginThrottle) strike(k string, free int, now time.Time) {
	e := t.entries[k]
	if e != nil && now.Sub(e.last) > forgetAfter && !e.until.After(now) {
		e = nil
	}
	if e == nil {
		if len(t.entries) >= maxEntries {
			t.evict(now)
		}
		e = &strikes{}
		t.entries[k] = e
	}
	e.n++
	e.last = now
	if over := e.n - free; over > 0 {
		w := maxWait
		if over <= 20 {
			w = min(firstWait<<(over-1), maxWait)
		}
		e.until = now.Add(w)
	}
}

// evict makes room: it drops the forgotten records and, when that is not
// enough, the one whose latest failure is oldest.
func (t *loginThrottle) evict(now time.Time) {
	var oldest string
	for k, e := range t.entries {
		if now.Sub(e.last) > forgetAfter && !e.until.After(now) {
			delete(t.entries, k)
			continue
		}
		if oldest == "" || e.last.Before(t.entries[oldest].last) {
			oldest = k
		}
	}
	if len(t.entries) >= maxEntries && oldest != "" {
		delete(t.entries, oldest)
	}
}
