//go:build !unix

package store

import (
	"os"
	"time"
)

// LockFile marks f as owned by this process. Without advisory locks, the
// age rule of TryLock stands in: a file is owned while it is younger than
// a day.
func LockFile(f *os.File) error { return nil }

// TryLock opens path when no live process may own it (older than a day).
func TryLock(path string) (f *os.File, ok bool, err error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, false, err
	}
	if time.Since(fi.ModTime()) < 24*time.Hour {
		return nil, false, nil
	}
	f, err = os.Open(path)
	return f, err == nil, err
}
