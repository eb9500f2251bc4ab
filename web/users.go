package web

import (
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"capplan/web/store"
	"capplan/web/view"
)

func (s *Server) userList(c echo.Context) error {
	return s.renderUsers(c, http.StatusOK, view.SectionForm{}, takeFlash(c))
}

func (s *Server) renderUsers(c echo.Context, status int, f view.SectionForm, flash string) error {
	users, err := s.store.Users(c.Request().Context())
	if err != nil {
		return err
	}
	return s.render(c, status, layout(s.page(c, "People"), userListPage(users, f, flash)), nil)
}

func (s *Server) userCreate(c echo.Context) error {
	fr, err := readForm(c)
	if err != nil {
		return err
	}
	email, name, role, password := fr.str("email"), fr.raw("name"), fr.str("role"), fr.raw("password")
	// Every refused field at once, not one per submit.
	if !strings.Contains(email, "@") {
		fr.refuse("email", refusal("an email address, e.g. ann@example.com", email))
	}
	if !store.ValidRole(role) {
		fr.refuse("role", "choose lead, reviewer, finance or admin")
	}
	var ie *store.InputError
	if err := store.CheckPassword(password, email); errors.As(err, &ie) {
		fr.refuse(ie.Field, ie.Msg)
	}
	shown := view.SectionForm{Form: url.Values{"email": {email}, "name": {name}, "role": {role}}, Errs: fr.errs}
	if len(fr.errs) > 0 {
		return s.renderUsers(c, http.StatusUnprocessableEntity, shown, "")
	}
	if _, err := s.store.CreateUser(c.Request().Context(), email, name, store.Role(role), password); err != nil {
		switch {
		case errors.As(err, &ie):
			fr.refuse(ie.Field, ie.Msg)
		case errors.Is(err, store.ErrExists):
			fr.refuse("email", "an account with this email already exists")
		default:
			return err
		}
		return s.renderUsers(c, http.StatusUnprocessableEntity, shown, "")
	}
	return redirectFlash(c, "/users", "Added "+email+".")
}

func (s *Server) userSetRole(c echo.Context) error {
	id, err := idParam(c, "uid")
	if err != nil {
		return err
	}
	if id == currentUser(c).ID {
		return echo.NewHTTPError(http.StatusUnprocessableEntity, "role: you cannot change your own role; ask another admin")
	}
	fr, err := readForm(c)
	if err != nil {
		return err
	}
	if err := s.store.SetRole(c.Request().Context(), id, store.Role(fr.str("role"))); err != nil {
		return err
	}
	return redirectFlash(c, "/users", "Role changed.")
}

func (s *Server) userResetPassword(c echo.Context) error {
	id, err := idParam(c, "uid")
	if err != nil {
		return err
	}
	fr, err := readForm(c)
	if err != nil {
		return err
	}
	if err := s.store.SetPassword(c.Request().Context(), id, fr.raw("password")); err != nil {
		return err
	}
	return redirectFlash(c, "/users", "Password reset; their sessions are ended.")
}

func (s *Server) account(c echo.Context) error {
	return s.renderAccount(c, http.StatusOK, "", view.SectionForm{}, takeFlash(c))
}

func (s *Server) renderAccount(c echo.Context, status int, newToken string, f view.SectionForm, flash string) error {
	u := currentUser(c)
	tokens, err := s.store.APITokens(c.Request().Context(), u.ID)
	if err != nil {
		return err
	}
	return s.render(c, status, layout(s.page(c, "Account"), accountPage(u, tokens, newToken, f, flash)), nil)
}

func (s *Server) accountPassword(c echo.Context) error {
	u := currentUser(c)
	fr, err := readForm(c)
	if err != nil {
		return err
	}
	err = s.store.ChangePassword(c.Request().Context(), u.ID, fr.raw("current"), fr.raw("password"))
	var ie *store.InputError
	if errors.As(err, &ie) {
		field := ie.Field
		if field == "current password" {
			field = "current"
		}
		return s.renderAccount(c, http.StatusUnprocessableEntity, "", view.SectionForm{Errs: view.FormErrors{field: ie.Msg}}, "")
	}
	if err != nil {
		return err
	}
	// Changing the password ends every session; start a new one here.
	token, expires, err := s.store.CreateSession(c.Request().Context(), u.ID)
	if err != nil {
		return err
	}
	s.setSessionCookie(c, token, expires)
	return redirectFlash(c, "/account", "Password changed.")
}

func (s *Server) tokenCreate(c echo.Context) error {
	fr, err := readForm(c)
	if err != nil {
		return err
	}
	tok, err := s.store.CreateAPIToken(c.Request().Context(), currentUser(c).ID, fr.str("name"))
	if err != nil {
		return err
	}
	return s.renderAccount(c, http.StatusOK, tok, view.SectionForm{}, "")
}

func (s *Server) tokenRevoke(c echo.Context) error {
	id, err := idParam(c, "tid")
	if err != nil {
		return err
	}
	if err := s.store.RevokeAPIToken(c.Request().Context(), currentUser(c).ID, id); err != nil {
		return err
	}
	return redirectFlash(c, "/account", "Token revoked.")
}
