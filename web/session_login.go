package web

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"capplan/web/store"
	"capplan/web/view"
)

func (s *Server) loginForm(c echo.Context) error {
	if currentUser(c) != nil {
		return c.Redirect(http.StatusSeeOther, "/reports")
	}
	return s.render(c, http.StatusOK, layout(s.page(c, "Log in"), loginPage(loginForm("", safeNext(c.QueryParam("next")), ""))), nil)
}

// login checks the email and password. Every refusal reads and takes the
// same whether the email has an account or not: a wrong password and an
// unknown email are one answer after one bcrypt comparison, and a client
// slowed down by repeated failures is told to wait before anything is
// looked up.
func (s *Server) login(c echo.Context) error {
	fr, err := readForm(c)
	if err != nil {
		return err
	}
	email, next := fr.str("email"), safeNext(fr.str("next"))
	addr, now := c.RealIP(), s.cfg.Now()
	if wait := s.logins.wait(email, addr, now); wait > 0 {
		secs := int(wait.Round(time.Second) / time.Second)
		s.log.Info("login throttled", "email", email, "addr", addr, "wait", wait.Round(time.Second))
		c.Response().Header().Set("Retry-After", strconv.Itoa(max(secs, 1)))
		msg := fmt.Sprintf("Too many failed logins from your address: try again in %s.", waitText(secs))
		return s.render(c, http.StatusTooManyRequests, layout(s.page(c, "Log in"), loginPage(loginForm(email, next, msg))), nil)
	}
	u, err := s.store.Authenticate(c.Request().Context(), email, fr.raw("password"))
	if errors.Is(err, store.ErrBadLogin) {
		s.logins.fail(email, addr, now)
		s.log.Info("login refused", "email", email, "addr", addr)
		return s.render(c, http.StatusUnauthorized, layout(s.page(c, "Log in"), loginPage(loginForm(email, next, view.Capitalize(err.Error())+"."))), nil)
	}
	if err != nil {
		return err
	}
	s.logins.succeed(email, addr)
	token, expires, err := s.store.CreateSession(c.Request().Context(), u.ID)
	if err != nil {
		return err
	}
	s.setSessionCookie(c, token, expires)
	return c.Redirect(http.StatusSeeOther, next)
}

// loginForm is the login form shown again: the email and where to go
// next (already made safe) as typed, and why the login was refused.
func loginForm(email, next, msg string) view.SectionForm {
	return view.RefusedForm("", url.Values{"email": {email}, "next": {next}}, msg)
}

// waitText says a wait in seconds the way people read it.
func waitText(secs int) string {
	switch {
	case secs <= 1:
		return "a second"
	case secs < 120:
		return fmt.Sprintf("%d seconds", secs)
	}
	return fmt.Sprintf("%d minutes", (secs+59)/60)
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

// safeNext keeps a post-login redirect on this site: only a path of
// printable ASCII that starts with one "/" passes. Backslashes, "//" and
// control characters are refused because browsers read /\x, "/<tab>/x"
// and //x as a path to another host.
func safeNext(next string) string {
	const home = "/reports"
	if !strings.HasPrefix(next, "/") || strings.Contains(next, "//") || strings.Contains(next, "\\") {
		return home
	}
	for i := 0; i < len(next); i++ {
		if next[i] < 0x20 || next[i] >= 0x7f {
			return home
		}
	}
	if u, err := url.Parse(next); err != nil || u.Scheme != "" || u.Host != "" || u.User != nil {
		return home
	}
	return next
}
