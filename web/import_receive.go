package web

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/store"
	"capplan/web/view"
)

// newBatch starts an import batch with the server's data folder and limit.
func (s *Server) newBatch() *reports.ImportBatch {
	b := reports.NewImportBatch(s.cfg.DataDir, s.cfg.MaxUploadBytes)
	b.OnFile = s.metrics.Import
	return b
}

// badUploadError is a request that is not a usable upload.
type badUploadError struct{ msg string }

func (e *badUploadError) Error() string { return e.msg }

// ErrorKind makes it a 400.
func (e *badUploadError) ErrorKind() reports.Kind { return reports.KindBadRequest }

// receiveMultipart streams a multipart/form-data body: each part of the
// field "files" goes straight through batch.Add, one after the other, so
// no file is held whole in memory. The form's "version" field, when
// present, is returned (0 when absent).
func receiveMultipart(c echo.Context, batch *reports.ImportBatch) (version int, err error) {
	batch.Context = c.Request().Context() // a client gone stops the parse
	mr, err := c.Request().MultipartReader()
	if err != nil {
		return 0, &badUploadError{"expected a multipart/form-data upload with the files in the field \"files\": " + err.Error()}
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return version, nil
		}
		if err != nil {
			return 0, &badUploadError{"the upload was cut off or malformed: " + err.Error()}
		}
		switch name := part.FormName(); {
		case name == "version":
			b, _ := io.ReadAll(io.LimitReader(part, 32))
			version, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		case name == "candidate":
			b, _ := io.ReadAll(io.LimitReader(part, 32))
			if v := strings.TrimSpace(string(b)); v != "" {
				if batch.Candidate, err = strconv.ParseInt(v, 10, 64); err != nil {
					return 0, &badUploadError{"candidate: " + strconv.Quote(v) + " is not a candidate id"}
				}
			}
		case name == "files" && part.FileName() != "":
			if err := batch.Add(part.FileName(), part); err != nil {
				// Not part.Close: it would read the refused part to its
				// end, however many gigabytes that is.
				return 0, err
			}
		}
		part.Close()
	}
}

// receiveRaw takes a request body that is the file itself, named by the
// query parameter "name".
func receiveRaw(c echo.Context, batch *reports.ImportBatch) error {
	name := strings.TrimSpace(c.QueryParam("name"))
	if name == "" {
		return &badUploadError{"name: required for a raw upload: POST the file as the body with ?name=FILE, or send multipart/form-data with the field \"files\""}
	}
	batch.Context = c.Request().Context() // a client gone stops the parse
	return batch.Add(name, c.Request().Body)
}

// isMultipart reports whether the request body is multipart/form-data.
func isMultipart(r *http.Request) bool {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return mt == "multipart/form-data"
}

// drainUpload reads a bounded rest of a refused upload, so the client is
// still listening when the answer comes instead of seeing the connection
// drop mid-send.
func drainUpload(r *http.Request) {
	if r.Context().Err() != nil {
		return // nobody is listening any more
	}
	io.Copy(io.Discard, io.LimitReader(r.Body, 64<<20))
}

// importFailure is the status (of the error's kind, as everywhere) and a
// message for people of an import error; dup is the first import when the
// file was already imported. Status 500 means the error is not the user's
// doing.
func importFailure(err error) (status int, msg string, dup *store.Import) {
	var (
		dupErr   *store.DuplicateImportError
		conflict *store.ConflictError
		input    *store.InputError
		readOnly *store.ReadOnlyError
	)
	status = kindStatus[reports.KindOf(err)]
	switch {
	case status >= 500:
		return status, "", nil
	case errors.As(err, &dupErr):
		first := dupErr.First
		return status, err.Error(), &first
	case errors.As(err, &conflict):
		return status, view.Capitalize(conflict.Error()) + ". Reload the page to see the changes.", nil
	case errors.As(err, &readOnly): // the upload form's answer to an approved report, as its other refusals
		return http.StatusConflict, view.Capitalize(readOnly.Error()) + ".", nil
	case errors.As(err, &input):
		return status, input.Msg, nil
	}
	return status, err.Error(), nil
}

// importedSummary says what a successful import added.
func importedSummary(ims []store.Import) string {
	rows := 0
	for _, im := range ims {
		rows += im.Rows
	}
	return fmt.Sprintf("Added %s from %s.", planner.Plural(rows, "row", "rows"), planner.Plural(len(ims), "file", "files"))
}
