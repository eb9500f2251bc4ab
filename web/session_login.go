package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"capplan/web/store"
)

func (s *Server) loginForm(c echo.Context) error {
	if currentUser(c) != nil {
		return c.Redirect(http.StatusSeeOther, "/reports")
	}
	return s.render(c, http.StatusOK, layout(s.page(c, "Log in"), loginPage("", c.QueryParam("next"), "")), nil)
}

func (s *Server) login(c echo.Context) error {
	email, next := c.FormValue("email"), safeNext(c.FormValue("next"))
	u, err := s.store.Authenticate(c.Request().Context(), email, c.FormValue("password"))
	if errors.Is(err, store.ErrBadLogin) || errors.Is(err, store.ErrLocked) {
		s.log.Info("login refused", "email", email, "reason", err)
		return s.render(c, http.StatusUnauthorized, layout(s.page(c, "Log in"), loginPage(email, next, capitalize(err.Error())+".")), nil)
	}
	if err != nil {
		return err
	}
	token, expires, err := s.store.CreateSession(c.Request().Context(), u.ID)
	if err != nil {
		return err
	}
	s.setSessionCookie(c, token, expires)
	return c.Redirect(http.StatusSeeOther, next)
}

func (s *Server) logout(c echo.Context) error {
	if ck, err := c.Cookie(sessionCookie); err == nil {
		if err := s.store.DeleteSession(c.Request().Context(), ck.Value); err != nil {
			return err
		}
	}
	c.SetCookie(&http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteLaxMode})
	return redirect(c, "/login")
}

// safeNext keeps a post-login redirect on this site.
func safeNext(next string) string {
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.Contains(next, "\\") {
		return "/reports"
	}
	return next
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
