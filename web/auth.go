package web

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"capplan/web/store"
)

const sessionCookie = "capplan_session"

// userKey is where the authenticated user lives in the Echo context.
const userKey = "user"

// currentUser returns the logged-in user, or nil.
func currentUser(c echo.Context) *store.User {
	u, _ := c.Get(userKey).(*store.User)
	return u
}

// loadSession is middleware that puts the session's user, if any, in the
// context. It never refuses a request; requireRole does.
func (s *Server) loadSession(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if ck, err := c.Cookie(sessionCookie); err == nil && ck.Value != "" {
			u, err := s.sessionUser(c, ck.Value)
			switch {
			case err == nil:
				c.Set(userKey, &u)
			case !errors.Is(err, store.ErrNotFound):
				return err
			}
		}
		return next(c)
	}
}

// requireRole is middleware that lets through only logged-in users with one
// of the roles (any role when none is given). Pages send anonymous users to
// the login form; the API answers 401.
func requireRole(roles ...store.Role) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			u := currentUser(c)
			if u == nil {
				if strings.HasPrefix(c.Path(), "/api/") {
					return echo.NewHTTPError(http.StatusUnauthorized, "an API token is required: Authorization: Bearer <token>")
				}
				if c.Request().Method == http.MethodGet {
					return redirect(c, "/login?next="+url.QueryEscape(c.Request().URL.RequestURI()))
				}
				return echo.NewHTTPError(http.StatusUnauthorized, "Please log in again.")
			}
			if len(roles) > 0 && !slices.Contains(roles, u.Role) {
				return forbiddenFor(u, roles...)
			}
			return next(c)
		}
	}
}

// apiToken is middleware for /api/: it authenticates "Authorization:
// Bearer <token>" with a personal API token.
func (s *Server) apiToken(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Request().Header.Get("Authorization")
		scheme, tok, ok := strings.Cut(h, " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(tok) == "" {
			return echo.NewHTTPError(http.StatusUnauthorized, "an API token is required: Authorization: Bearer <token>")
		}
		u, err := s.tokenUser(c, strings.TrimSpace(tok))
		if errors.Is(err, store.ErrNotFound) {
			return echo.NewHTTPError(http.StatusUnauthorized, "the API token is unknown or revoked")
		}
		if err != nil {
			return err
		}
		c.Set(userKey, &u)
		return next(c)
	}
}

// setSessionCookie writes the session cookie: HttpOnly, SameSite=Lax, and
// Secure behind TLS.
func (s *Server) setSessionCookie(c echo.Context, token string, expires time.Time) {
	c.SetCookie(&http.Cookie{
		Name:     sessionCookie,
		Value:    token,
		Path:     "/",
		Expires:  expires,
		HttpOnly: true,
		SameSite: http.SameSiteLaxMode,
		Secure:   s.cfg.SecureCookies || c.Request().TLS != nil,
	})
}

// securityHeaders is middleware that sets the headers every response needs.
func securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'")
		h.Set("X-Frame-Options", "DENY")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		return next(c)
	}
}
