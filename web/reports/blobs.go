package reports

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"capplan/web/store"
)

// blobs keeps the raw result files, content-addressed by sha256 at
// store.FilePath: <dir>/<sha[:2]>/<sha>. A file is written to a temporary
// file in dir while it is read and hashed, and renamed into place only once
// it is known good, so a half-written file never carries a content address.
type blobs struct{ dir string }

// path is where the file with the given sha256 lives.
func (b blobs) path(sha string) (string, error) {
	p, err := store.FilePath(b.dir, sha)
	if err != nil {
		return "", fmt.Errorf("blobs: %w", err)
	}
	return p, nil
}

// temp creates a temporary file in dir for a file being received, named
// with this process's id and locked (store.LockFile) until it is closed:
// another process (a server starting, `capplan check --remove-orphans`)
// removes only the temporary files no live process holds.
func (b blobs) temp() (*os.File, error) {
	if b.dir == "" {
		return nil, errors.New("blobs: no data directory configured")
	}
	if err := os.MkdirAll(b.dir, 0o750); err != nil {
		return nil, fmt.Errorf("blobs: %w", err)
	}
	for attempt := 0; ; attempt++ {
		f, err := os.CreateTemp(b.dir, fmt.Sprintf(".upload-%d-*", os.Getpid()))
		if err != nil {
			return nil, err
		}
		if err := store.LockFile(f); err != nil {
			f.Close()
			os.Remove(f.Name())
			return nil, fmt.Errorf("blobs: lock %s: %w", f.Name(), err)
		}
		// A remover may have taken the file between its creation and the
		// lock: it is ours only if its name still leads to it.
		fi, err1 := f.Stat()
		ni, err2 := os.Stat(f.Name())
		if err1 == nil && err2 == nil && os.SameFile(fi, ni) {
			return f, nil
		}
		f.Close()
		if attempt >= 3 {
			return nil, fmt.Errorf("blobs: temporary files in %s are removed as they are made", b.dir)
		}
	}
}

// tempPattern names the temporary files of uploads being received.
const tempPattern = ".upload-*"

// RemoveTempFiles deletes the temporary files of uploads in dataDir that
// no live process holds: the ones a crash, a kill or a cut connection left
// behind. The files of uploads under way, this process's or another's (a
// `capplan import` beside the server), are left alone. It returns how many
// files it removed and their size.
func RemoveTempFiles(dataDir string) (n int, size int64, err error) {
	if dataDir == "" {
		return 0, 0, nil
	}
	names, err := filepath.Glob(filepath.Join(dataDir, tempPattern))
	if err != nil {
		return 0, 0, err
	}
	var errs []error
	for _, name := range names {
		fi, err := os.Lstat(name)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		f, free, err := store.TryLock(name)
		if err != nil || !free {
			continue // gone meanwhile, or owned by a live process
		}
		err = os.Remove(name)
		f.Close()
		if err != nil {
			errs = append(errs, err)
			continue
		}
		n++
		size += fi.Size()
	}
	return n, size, errors.Join(errs...)
}

// keep gives the finished temporary file tmp its content address before
// the import that refers to it commits, as a second name of the same
// (locked) file: created is false when that content was stored already.
// A commit thus never refers to a raw file that is not there.
func (b blobs) keep(tmp, sha string) (created bool, err error) {
	p, err := b.path(sha)
	if err != nil {
		return false, err
	}
	if _, err := os.Stat(p); err == nil {
		return false, nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
		return false, err
	}
	if err := os.Chmod(tmp, 0o440); err != nil {
		return false, err
	}
	if err := os.Link(tmp, p); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// unkeep removes the content address keep made for a commit that failed,
// unless an import refers to that content by now.
func (b blobs) unkeep(ctx context.Context, st *store.Store, sha string) {
	if n, err := st.ImportsOfContent(ctx, sha); err != nil || n > 0 {
		return
	}
	if p, err := b.path(sha); err == nil {
		os.Remove(p)
	}
}

// open opens the stored file with this sha256; a missing file is
// fs.ErrNotExist.
func (b blobs) open(sha string) (*os.File, error) {
	p, err := b.path(sha)
	if err != nil {
		return nil, fs.ErrNotExist
	}
	return os.Open(p)
}

// OpenRaw opens the raw result file with this sha256 as it was imported; a
// file missing from the data folder is fs.ErrNotExist.
func (s *Service) OpenRaw(sha string) (*os.File, error) {
	return blobs{dir: s.DataDir}.open(sha)
}
