package web

import (
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"capplan/web/store"
)

// authCache keeps whom a session cookie or an API token belongs to while
// nothing is committed to the database (store.Changes): a logout, a
// revoked token, a changed role, password or name are all commits, and
// drop it whole. A session's expiry is checked on every use. An API token
// is looked up in the store again once TokenUseResolution has passed, so
// that its last use is still noted.
type authCache struct {
	mu sync.Mutex
	n  uint64
	m  map[string]authEntry // by "s" + session cookie, "t" + token
}

type authEntry struct {
	user    store.User
	expires time.Time // a session's; zero for a token
	checked time.Time // when the store answered
}

// authCacheMax bounds the entries: past it they are all dropped (they are
// at every commit anyway).
const authCacheMax = 10000

func newAuthCache() *authCache { return &authCache{m: map[string]authEntry{}} }

// lookup returns the entry for key under change number n, or runs find
// and keeps what it returns.
func (a *authCache) lookup(n uint64, key string, find func() (authEntry, error)) (authEntry, error) {
	a.mu.Lock()
	if n > a.n {
		a.n = n
		clear(a.m)
	}
	e, ok := a.m[key]
	a.mu.Unlock()
	if ok {
		return e, nil
	}
	e, err := find()
	if err != nil {
		return e, err
	}
	a.mu.Lock()
	if n == a.n { // nothing committed since n was read: e is as of n or newer
		if len(a.m) >= authCacheMax {
			clear(a.m)
		}
		a.m[key] = e
	}
	a.mu.Unlock()
	return e, nil
}

// forget drops key (a token due for its use to be noted).
func (a *authCache) forget(key string) {
	a.mu.Lock()
	delete(a.m, key)
	a.mu.Unlock()
}

// changesKey is where a request's store.Changes number lives in the Echo
// context, read before anything else of the database (see readChanges).
const changesKey = "capplan.changes"

// readChanges reads the store's change number for this request, once:
// whatever the request reads from the database afterwards is at least as
// new. ok is false when the number could not be read.
func (s *Server) readChanges(c echo.Context) (changesRead, bool) {
	if r, ok := c.Get(changesKey).(changesRead); ok {
		return r, true
	}
	at := time.Now() // before the read (see ownWrites)
	n, err := s.store.Changes(c.Request().Context())
	if err != nil {
		s.log.Warn("no change number: nothing kept is used for this request", "err", err)
		return changesRead{}, false
	}
	r := changesRead{n: n, at: at}
	c.Set(changesKey, r)
	return r, true
}

// sessionUser is the user of a live session, or store.ErrNotFound.
func (s *Server) sessionUser(c echo.Context, token string) (store.User, error) {
	ctx := c.Request().Context()
	find := func() (authEntry, error) {
		u, expires, err := s.store.Session(ctx, token)
		return authEntry{user: u, expires: expires}, err
	}
	var e authEntry
	var err error
	if r, ok := s.readChanges(c); ok {
		e, err = s.auth.lookup(r.n, "s"+token, find)
	} else {
		e, err = find()
	}
	if err != nil {
		return store.User{}, err
	}
	if !s.store.SessionLive(e.expires) {
		return store.User{}, store.ErrNotFound
	}
	return e.user, nil
}

// tokenUser is the owner of a live API token, or store.ErrNotFound.
func (s *Server) tokenUser(c echo.Context, token string) (store.User, error) {
	ctx := c.Request().Context()
	find := func() (authEntry, error) {
		u, err := s.store.APITokenUser(ctx, token) // notes the use, at most once per TokenUseResolution
		return authEntry{user: u, checked: time.Now()}, err
	}
	r, ok := s.readChanges(c)
	if !ok {
		e, err := find()
		return e.user, err
	}
	e, err := s.auth.lookup(r.n, "t"+token, find)
	if err == nil && time.Since(e.checked) >= store.TokenUseResolution {
		s.auth.forget("t" + token)
		e, err = s.auth.lookup(r.n, "t"+token, find)
	}
	return e.user, err
}
