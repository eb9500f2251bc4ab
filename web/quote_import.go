package web

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"capplan/importers"
	"capplan/web/reports"
	"capplan/web/store"
	"capplan/web/view"
)

// addedShown bounds the new models a page lists by name (a first import
// adds thousands).
const addedShown = 50

// quoteImport brings a price catalogue into the library from the quotes
// page's upload form: POST /quotes/import (finance and admins). Whole or
// nothing; success shows what moved, a refusal the library with the
// error on the form.
func (s *Server) quoteImport(c echo.Context) error {
	ctx := c.Request().Context()
	var qi store.QuoteImport
	_, err := receiveEvidence(c, func(up evidenceUpload, file io.Reader) error {
		var err error
		qi, err = s.svc.ImportPrices(ctx, *currentUser(c), up.name, file, strings.TrimSpace(up.fields.Get("catalogue_date")), up.fields.Get("catalogue_match"), s.cfg.MaxUploadBytes)
		return err
	})
	if err == nil {
		return redirectFlash(c, fmt.Sprintf("/quotes/imports/%d", qi.ID), fmt.Sprintf("%s catalogue retrieved %s imported: %d models.", qi.Catalogue, qi.Retrieved, qi.Models))
	}
	drainUpload(c.Request())
	var bu *badUploadError
	if !errors.As(err, &bu) && !reports.IsUserError(err) && !errors.Is(err, importers.ErrTooLarge) {
		return err
	}
	field := "file"
	var ie *store.InputError
	if errors.As(err, &ie) && (ie.Field == "date" || ie.Field == "match") {
		field = "catalogue_" + ie.Field
	}
	qs, lerr := s.store.Quotes(ctx)
	if lerr != nil {
		return lerr
	}
	msg := err.Error()
	if ie != nil {
		msg = ie.Msg // the field is the form's
	}
	v := view.QuotesView{Quotes: qs, CanEdit: true, Today: s.cfg.Now(), ImportErrs: view.FormErrors{field: nothingImported(view.Capitalize(msg))}}
	v.PageQuotes("", 1)
	return s.render(c, http.StatusUnprocessableEntity, layout(s.page(c, "API quotes"), view.QuotesPage(v)), nil)
}

// quoteImportShow shows one catalogue import: GET /quotes/imports/:iid.
func (s *Server) quoteImportShow(c echo.Context) error {
	iid, err := idParam(c, "iid")
	if err != nil {
		return err
	}
	qi, err := s.store.QuoteImportByID(c.Request().Context(), iid)
	if err != nil {
		return err
	}
	v := view.QuoteImportView{Imp: qi, AddedShown: addedShown, Flash: takeFlash(c)}
	return s.render(c, http.StatusOK, layout(s.page(c, qi.Catalogue+" catalogue · API quotes"), view.QuoteImportPage(v)), nil)
}

// apiQuoteImport brings a price catalogue into the library with a
// personal API token: POST /api/v1/quotes/import, the file as the body
// (?name=FILE, ?date=YYYY-MM-DD for the retrieval, default today,
// ?match=TERMS to keep only the models whose key holds one) or as
// multipart "file" (with "date" and "match" fields before it). Finance and admins
// only; whole or nothing; the answer is the import with what moved.
func (s *Server) apiQuoteImport(c echo.Context) error {
	ctx := c.Request().Context()
	var qi store.QuoteImport
	var err error
	if isMultipart(c.Request()) {
		_, err = receiveEvidence(c, func(up evidenceUpload, file io.Reader) error {
			var err error
			qi, err = s.svc.ImportPrices(ctx, *currentUser(c), up.name, file, strings.TrimSpace(up.fields.Get("date")), up.fields.Get("match"), s.cfg.MaxUploadBytes)
			return err
		})
	} else {
		name := c.QueryParam("name")
		if name == "" {
			name = "catalogue.json"
		}
		qi, err = s.svc.ImportPrices(ctx, *currentUser(c), name, c.Request().Body, c.QueryParam("date"), c.QueryParam("match"), s.cfg.MaxUploadBytes)
	}
	if err != nil {
		drainUpload(c.Request())
		var bu *badUploadError
		switch {
		case errors.As(err, &bu):
			return echo.NewHTTPError(http.StatusBadRequest, err.Error())
		case errors.Is(err, importers.ErrTooLarge):
			return echo.NewHTTPError(http.StatusRequestEntityTooLarge, nothingImported(err.Error()))
		case reports.KindOf(err) == reports.KindForbidden:
			return echo.NewHTTPError(http.StatusForbidden, err.Error())
		case reports.IsUserError(err):
			return echo.NewHTTPError(http.StatusUnprocessableEntity, nothingImported(err.Error()))
		}
		return err
	}
	return c.JSON(http.StatusCreated, qi)
}

// nothingImported is a refusal of an import ending with "Nothing was
// imported.", said once.
func nothingImported(msg string) string {
	msg = strings.TrimRight(strings.TrimSpace(msg), ".")
	if strings.HasSuffix(msg, "Nothing was imported") {
		return msg + "."
	}
	return msg + ". Nothing was imported."
}
