package web

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
)

// ownWrites remembers, for staleLimit, the store's Changes number after
// each session's last change (any request but GET and HEAD), so that the
// session is never served a page built before it: its view waits for the
// page that shows its change.
//
// A page built under n whose number was read at time a (taken before the
// read) is served stale only while a is within staleLimit. A note (c, w),
// w taken after c was read, is forgotten once w is staleLimit old: a page
// still servable then has a > w, so its number was read after c was and
// n >= c. Forgetting loses nothing.
type ownWrites struct {
	mu sync.Mutex
	m  map[string]changesRead // by session cookie
}

func newOwnWrites() *ownWrites { return &ownWrites{m: map[string]changesRead{}} }

// note records that session changed something, committed before n was
// read; at is taken after the read.
func (w *ownWrites) note(session string, n uint64, at time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for k, r := range w.m {
		if at.Sub(r.at) >= staleLimit {
			delete(w.m, k)
		}
	}
	w.m[session] = changesRead{n: n, at: at}
}

// since is whether a page built under a number may be served to session
// while its successor renders: built after the session's last change.
func (w *ownWrites) since(session string) func(uint64) bool {
	return func(n uint64) bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		r, ok := w.m[session]
		return !ok || n >= r.n
	}
}

// noteOwnWrites is middleware recording each session's changes (see
// ownWrites). The note is taken as the answer starts, before any of it
// reaches the client, so that no view the client makes after it can miss
// it; and whether the handler failed or not (it may have committed first).
func (s *Server) noteOwnWrites(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if m := c.Request().Method; m == http.MethodGet || m == http.MethodHead {
			return next(c)
		}
		if sess := sessionOf(c); sess != "" {
			c.Response().Before(func() {
				n, err := s.store.Changes(context.WithoutCancel(c.Request().Context()))
				if err != nil {
					n = ^uint64(0) // no number: no stale page at all for a while
				}
				s.writes.note(sess, n, time.Now())
			})
		}
		return next(c)
	}
}

// sessionOf is the request's session cookie, or "".
func sessionOf(c echo.Context) string {
	if ck, err := c.Cookie(sessionCookie); err == nil {
		return ck.Value
	}
	return ""
}
