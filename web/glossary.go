package web

import (
	"net/http"

	"capplan/web/view"

	"github.com/labstack/echo/v4"
)

// glossaryShow is the glossary: the field's words in plain sentences, one
// anchor each. It needs no login: it says what the words mean, nothing of
// any report.
func (s *Server) glossaryShow(c echo.Context) error {
	return s.render(c, http.StatusOK, layout(s.page(c, "Glossary"), view.GlossaryPage()), nil)
}
