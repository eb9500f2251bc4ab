package reports

import (
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

// temp creates a temporary file in dir for a file being received.
func (b blobs) temp() (*os.File, error) {
	if b.dir == "" {
		return nil, errors.New("blobs: no data directory configured")
	}
	if err := os.MkdirAll(b.dir, 0o750); err != nil {
		return nil, fmt.Errorf("blobs: %w", err)
	}
	return os.CreateTemp(b.dir, tempPattern)
}

// tempPattern names the temporary files of uploads being received.
const tempPattern = ".upload-*"

// RemoveTempFiles deletes the temporary files of uploads in dataDir, the
// ones that a crash, a kill or a cut connection left behind. The server
// calls it when it starts and when it stops, when no upload of its own is
// in flight. It returns how many files it removed and their size.
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
		if err := os.Remove(name); err != nil {
			errs = append(errs, err)
			continue
		}
		n++
		size += fi.Size()
	}
	return n, size, errors.Join(errs...)
}

// prepare makes the folder the file with this sha256 goes into, so that
// place is a bare rename.
func (b blobs) prepare(sha string) error {
	p, err := b.path(sha)
	if err != nil {
		return err
	}
	return os.MkdirAll(filepath.Dir(p), 0o750)
}

// place moves the finished temporary file tmp to its content address. When
// the same content is already stored, tmp is simply removed.
func (b blobs) place(tmp, sha string) error {
	p, err := b.path(sha)
	if err != nil {
		return err
	}
	if _, err := os.Stat(p); err == nil {
		return os.Remove(tmp)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o440); err != nil {
		return err
	}
	return os.Rename(tmp, p)
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
