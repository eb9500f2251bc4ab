package reports

import (
	"errors"

	"capplan/importers"
	"capplan/planner"
	"capplan/web/store"
)

// Kind sorts an error by whose doing it is and what the user can do about
// it. The HTTP side maps each kind to one status in one place, so an error
// of the user's making is never answered as a failure of the system.
type Kind int

const (
	KindInternal   Kind = iota // a failure of the system: logged, a plain 500
	KindNotFound               // no such report, import, quote, ...
	KindInvalid                // refused input, with what was wrong (planner.FieldErrors, store.InputError, an approved report's store.ReadOnlyError)
	KindConflict               // a stale save (store.ConflictError, with the diff), a duplicate
	KindForbidden              // the user may not do this
	KindTooLarge               // an upload over the limit
	KindBadRequest             // not a usable request at all (no file sent, not an upload)
	KindBusy                   // the database's write lock was held by another writer past the wait (store.IsBusy): try again
)

// ErrForbidden is returned when the user may not do what they asked.
var ErrForbidden = errors.New("you do not have permission to do this")

// ErrNoFiles refuses an import batch with no file in it.
var ErrNoFiles = errors.New("no file received: choose one or more result files")

// Kinded is an error that names its own kind.
type Kinded interface {
	error
	ErrorKind() Kind
}

// KindOf sorts err; KindInternal for anything not known to be the user's.
func KindOf(err error) Kind {
	var (
		kinded   Kinded
		fes      planner.FieldErrors
		fe       *planner.FieldError
		input    *store.InputError
		conflict *store.ConflictError
		dup      *store.DuplicateImportError
		same     *SameFileError
		tooLarge *TooLargeError
		parse    *importers.Error
	)
	switch {
	case err == nil:
		return KindInternal
	case errors.As(err, &kinded):
		return kinded.ErrorKind()
	case store.IsBusy(err):
		return KindBusy
	case errors.Is(err, store.ErrNotFound):
		return KindNotFound
	case errors.Is(err, ErrForbidden):
		return KindForbidden
	case errors.As(err, &tooLarge):
		return KindTooLarge
	case errors.Is(err, ErrNoFiles):
		return KindBadRequest
	case errors.As(err, &conflict), errors.As(err, &dup), errors.As(err, &same):
		return KindConflict
	case errors.As(err, &fes), errors.As(err, &fe), errors.As(err, &input), errors.As(err, &parse), errors.Is(err, store.ErrExists):
		return KindInvalid
	}
	return KindInternal
}

// IsUserError reports whether err refuses the user's request rather than
// being a failure of the system.
func IsUserError(err error) bool { return err != nil && KindOf(err) != KindInternal }
