package web

import (
	"errors"

	"capplan/planner"
	"capplan/web/store"
)

func asConflict(err error, ce **store.ConflictError) bool { return errors.As(err, ce) }

// isUserError reports whether err is a refusal of the user's input rather
// than a failure of the system.
func isUserError(err error) bool {
	var fe planner.FieldErrors
	var f1 *planner.FieldError
	if errors.As(err, &fe) || errors.As(err, &f1) || errors.Is(err, store.ErrExists) {
		return true
	}
	var ue *store.InputError
	return errors.As(err, &ue)
}
