package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"capplan/web/store"
)

func (s *Server) userList(c echo.Context) error {
	return s.renderUsers(c, http.StatusOK, nil, "", "", "", takeFlash(c))
}

func (s *Server) renderUsers(c echo.Context, status int, errs formErrors, email, name, role, flash string) error {
	users, err := s.store.Users(c.Request().Context())
	if err != nil {
		return err
	}
	return s.render(c, status, layout(s.page(c, "People"), userListPage(users, errs, email, name, role, flash)), nil)
}

func (s *Server) userCreate(c echo.Context) error {
	email, name, role := strings.TrimSpace(c.FormValue("email")), c.FormValue("name"), c.FormValue("role")
	// Every refused field at once, not one per submit.
	errs := formErrors{}
	if !strings.Contains(email, "@") {
		errs["email"] = "must be an email address, e.g. ann@example.com"
	}
	if !store.ValidRole(role) {
		errs["role"] = "choose lead, reviewer, finance or admin"
	}
	var ie *store.InputError
	if err := store.CheckPassword(c.FormValue("password"), email); errors.As(err, &ie) {
		errs[ie.Field] = ie.Msg
	}
	if len(errs) > 0 {
		return s.renderUsers(c, http.StatusUnprocessableEntity, errs, email, name, role, "")
	}
	_, err := s.store.CreateUser(c.Request().Context(), email, name, store.Role(role), c.FormValue("password"))
	if err != nil {
		switch {
		case errors.As(err, &ie):
			errs[ie.Field] = ie.Msg
		case errors.Is(err, store.ErrExists):
			errs["email"] = "an account with this email already exists"
		default:
			return err
		}
		return s.renderUsers(c, http.StatusUnprocessableEntity, errs, email, name, role, "")
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
	if err := s.store.SetRole(c.Request().Context(), id, store.Role(c.FormValue("role"))); err != nil {
		return err
	}
	return redirectFlash(c, "/users", "Role changed.")
}

func (s *Server) userResetPassword(c echo.Context) error {
	id, err := idParam(c, "uid")
	if err != nil {
		return err
	}
	if err := s.store.SetPassword(c.Request().Context(), id, c.FormValue("password")); err != nil {
		return err
	}
	return redirectFlash(c, "/users", "Password reset; their sessions are ended.")
}

func (s *Server) account(c echo.Context) error {
	return s.renderAccount(c, http.StatusOK, "", nil, takeFlash(c))
}

func (s *Server) renderAccount(c echo.Context, status int, newToken string, errs formErrors, flash string) error {
	u := currentUser(c)
	tokens, err := s.store.APITokens(c.Request().Context(), u.ID)
	if err != nil {
		return err
	}
	return s.render(c, status, layout(s.page(c, "Account"), accountPage(u, tokens, newToken, errs, flash)), nil)
}

func (s *Server) accountPassword(c echo.Context) error {
	u := currentUser(c)
	err := s.store.ChangePassword(c.Request().Context(), u.ID, c.FormValue("current"), c.FormValue("password"))
	var ie *store.InputError
	if errors.As(err, &ie) {
		field := ie.Field
		if field == "current password" {
			field = "current"
		}
		return s.renderAccount(c, http.StatusUnprocessableEntity, "", formErrors{field: ie.Msg}, "")
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
	tok, err := s.store.CreateAPIToken(c.Request().Context(), currentUser(c).ID, strings.TrimSpace(c.FormValue("name")))
	if err != nil {
		return err
	}
	return s.renderAccount(c, http.StatusOK, tok, nil, "")
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
