//go:build unix

package store

import (
	"errors"
	"os"
	"syscall"
)

// LockFile takes an exclusive advisory lock on f, held until f is closed:
// the mark of a file that a live process owns (an upload being received,
// a raw file being committed). The lock is on the file, not the name, so a
// hard link to it is locked too.
func LockFile(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}

// TryLock opens path and takes its lock when no live process holds it:
// ok false (and no error) when one does. The caller closes f.
func TryLock(path string) (f *os.File, ok bool, err error) {
	f, err = os.Open(path)
	if err != nil {
		return nil, false, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, false, nil
		}
		return nil, false, err
	}
	return f, true, nil
}
