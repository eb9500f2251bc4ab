package web

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/store"
)

// A handler that simply returns an error of the user's making answers
// with its 4xx status, without any handling of its own; only a failure of
// the system is a 500.
func TestUserErrorsNeedNoHandling(t *testing.T) {
	st := mustOpenDB(t)
	s := &Server{store: st, svc: reports.New(st, "", nil), log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	e := s.echo()
	for _, tc := range []struct {
		name string
		err  error
		want int
	}{
		{"planner field errors", planner.FieldErrors{{Field: "objective.ttft_max", Message: "must be above 0"}}, http.StatusUnprocessableEntity},
		{"one field error, wrapped", fmt.Errorf("saving: %w", &planner.FieldError{Field: "x", Message: "required"}), http.StatusUnprocessableEntity},
		{"store input error", &store.InputError{Field: "title", Msg: "required"}, http.StatusUnprocessableEntity},
		{"stale save", &store.ConflictError{Section: "overload", Base: 1, Current: 2}, http.StatusConflict},
		{"approved report", &store.ReadOnlyError{ReportID: 1}, http.StatusUnprocessableEntity},
		{"not found", fmt.Errorf("report 9: %w", store.ErrNotFound), http.StatusNotFound},
		{"forbidden", reports.ErrForbidden, http.StatusForbidden},
		{"too large", &reports.TooLargeError{File: "a.json", Limit: 10}, http.StatusRequestEntityTooLarge},
		{"system failure", errors.New("disk on fire"), http.StatusInternalServerError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.GET("/api/test-error", func(echo.Context) error { return tc.err })
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/test-error", nil))
			if rec.Code != tc.want {
				t.Errorf("status %d, want %d (%s)", rec.Code, tc.want, rec.Body)
			}
		})
	}
}
