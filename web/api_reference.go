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
)

// apiReference imports reference rows sent with a personal API token:
// POST /api/v1/reports/:id/reference, multipart/form-data with the fields
// "source" and "date" (or the browser form's "reference.source" and
// "reference.date") before one or many files in "file" or "files". All
// files or none, through the service the command line uses and the same
// file reading as the browser's form (docs/method.md, "Reference rows").
func (s *Server) apiReference(c echo.Context) error {
	r, err := s.reportParam(c)
	if err != nil {
		return err
	}
	u := *currentUser(c)
	if !r.CanEdit(u) { // before the upload is read, as for results
		return echo.NewHTTPError(http.StatusForbidden, "your account may not edit this report")
	}
	id := r.ID
	var got *reports.ReferenceImported
	if !isMultipart(c.Request()) {
		err = &badUploadError{"expected a multipart/form-data upload: the fields source and date, then the files in \"file\" or \"files\""}
	} else {
		var res reports.ReferenceImported
		res, err = s.svc.ImportReference(c.Request().Context(), u, id, s.cfg.MaxUploadBytes, func(add func(name string, r io.Reader, source, date string) error) error {
			return eachReferencePart(c.Request(), add)
		})
		got = &res
	}
	if err != nil {
		drainUpload(c.Request())
		return apiReferenceRefusal(err, id)
	}
	return c.JSON(http.StatusCreated, got)
}

// eachReferencePart reads the upload's parts in order, handing each file
// to add with the source and date given before it; a source or date given
// after a file is refused, since the file was read without it.
func eachReferencePart(req *http.Request, add func(name string, r io.Reader, source, date string) error) error {
	mr, err := req.MultipartReader()
	if err != nil {
		return &badUploadError{"expected a multipart/form-data upload: the fields source and date, then the files in \"file\" or \"files\""}
	}
	var source, date string
	files := 0
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return &badUploadError{"the upload was cut off or malformed: " + err.Error()}
		}
		name := part.FormName()
		switch name {
		case "file", "files":
			if part.FileName() == "" {
				part.Close()
				continue
			}
			files++
			err := add(part.FileName(), part, source, date)
			part.Close()
			if err != nil {
				return err
			}
		case "source", "reference.source", "date", "reference.date":
			b, _ := io.ReadAll(io.LimitReader(part, 256))
			part.Close()
			if files > 0 {
				return &badUploadError{fmt.Sprintf("%s: give it before the files, which were read without it", strings.TrimPrefix(name, "reference."))}
			}
			if strings.HasSuffix(name, "source") {
				source = strings.TrimSpace(string(b))
			} else {
				date = strings.TrimSpace(string(b))
			}
		default:
			part.Close()
		}
	}
}

// apiReferenceRefusal answers a refused import of reference rows as JSON
// (the API's error handler), each in the user's words and saying that
// nothing was imported.
func apiReferenceRefusal(err error, reportID int64) error {
	var rn *importers.ResultNotReferenceError
	var ir *store.InReviewError
	var fe *store.InputError
	msg := err.Error()
	if errors.As(err, &fe) && fe.Field == "file" {
		msg = fe.Msg
	}
	switch {
	case errors.As(err, &rn):
		return echo.NewHTTPError(http.StatusUnprocessableEntity, fmt.Sprintf("%s. Send result files to POST /api/v1/reports/%d/results. Nothing was imported.", msg, reportID))
	case errors.Is(err, importers.ErrTooLarge):
		return echo.NewHTTPError(http.StatusRequestEntityTooLarge, msg+". Nothing was imported.")
	case errors.As(err, &ir):
		return echo.NewHTTPError(http.StatusConflict, msg+". Nothing was imported.")
	}
	switch reports.KindOf(err) {
	case reports.KindNotFound:
		return echo.NewHTTPError(http.StatusNotFound, "no such report")
	case reports.KindForbidden:
		return echo.NewHTTPError(http.StatusForbidden, "your account may not edit this report")
	case reports.KindConflict:
		return echo.NewHTTPError(http.StatusConflict, strings.TrimSuffix(msg, ".")+". Nothing was imported.")
	case reports.KindBadRequest:
		return echo.NewHTTPError(http.StatusBadRequest, msg+". Nothing was imported.")
	case reports.KindTooLarge:
		return echo.NewHTTPError(http.StatusRequestEntityTooLarge, msg+". Nothing was imported.")
	case reports.KindInvalid:
		return echo.NewHTTPError(http.StatusUnprocessableEntity, msg+". Nothing was imported.")
	}
	return err
}
