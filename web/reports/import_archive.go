package reports

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"

	"capplan/importers"
)

// An archive of result files (a genai-bench experiment folder zipped or
// tarred) is read entry by entry: each regular file is one file of the
// batch, named "<archive>: <path inside it>", with the limits of any
// upload (the size limit per entry). The archive itself is not kept; its
// entries are, each at its own content address.

// maxArchiveEntries bounds the files of one archive: an experiment folder
// holds a few dozen runs.
const maxArchiveEntries = 1000

// sniffArchive tells a zip, a tar or a gzip-compressed tar from the first
// bytes of r; it returns a reader that still yields every byte.
func sniffArchive(r io.Reader) (io.Reader, string, error) {
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			head := make([]byte, 512)
			n, _ := f.ReadAt(head, 0)
			return r, archiveKind(head[:n]), nil // r unread: the importer reads it ahead
		}
	}
	br := bufio.NewReaderSize(r, 4096)
	head, err := br.Peek(512)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, "", err
	}
	return br, archiveKind(head), nil
}

func archiveKind(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("PK\x03\x04")):
		return "zip"
	case len(head) >= 262 && string(head[257:262]) == "ustar":
		return "tar"
	case bytes.HasPrefix(head, []byte("\x1f\x8b")):
		return "gzip" // a .tar.gz, or one gzip-compressed file
	}
	return ""
}

// addArchive adds every regular file of the archive.
func (b *ImportBatch) addArchive(name, kind string, r io.Reader) error {
	switch kind {
	case "gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			return &importers.Error{File: name, Msg: "a gzip file that cannot be read: " + err.Error()}
		}
		defer zr.Close()
		inner, k, err := sniffArchive(zr)
		if err != nil {
			return &importers.Error{File: name, Msg: "a gzip file that cannot be read: " + err.Error()}
		}
		if k != "tar" {
			return &importers.Error{File: name, Msg: "a compressed file: decompress it first (a .tar.gz of an experiment folder is read, a single compressed file is not)"}
		}
		return b.addTar(name, inner)
	case "tar":
		return b.addTar(name, r)
	}
	return b.addZip(name, r)
}

func (b *ImportBatch) addTar(name string, r io.Reader) error {
	tr := tar.NewReader(r)
	n := 0
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return &importers.Error{File: name, Msg: "the tar archive is damaged or cut off: " + err.Error()}
		}
		if h.Typeflag != tar.TypeReg || skipEntry(h.Name) {
			continue
		}
		if n++; n > maxArchiveEntries {
			return &importers.Error{File: name, Msg: fmt.Sprintf("more than %d files in the archive: not an experiment folder", maxArchiveEntries)}
		}
		if err := b.add(entryName(name, h.Name), tr); err != nil {
			return err
		}
	}
	return b.archiveDone(name, n)
}

// addZip spools the zip to a temporary file (its directory is at its end)
// within the upload limit, then reads its entries.
func (b *ImportBatch) addZip(name string, r io.Reader) error {
	tmp, err := b.blobs.temp()
	if err != nil {
		return err
	}
	defer func() { tmp.Close(); os.Remove(tmp.Name()) }()
	src := r
	if b.max > 0 {
		src = io.LimitReader(r, b.max+1)
	}
	size, err := io.Copy(tmp, src)
	if err != nil {
		if b.Context != nil && b.Context.Err() != nil {
			return &CancelledError{File: name, Read: size, Cause: b.Context.Err()}
		}
		return fmt.Errorf("keeping %s: %w", name, err)
	}
	if b.max > 0 && size > b.max {
		return &TooLargeError{File: name, Limit: b.max}
	}
	zr, err := zip.NewReader(tmp, size)
	if err != nil {
		return &importers.Error{File: name, Msg: "the zip archive is damaged or cut off: " + err.Error()}
	}
	n := 0
	for _, e := range zr.File {
		if e.FileInfo().IsDir() || !e.Mode().IsRegular() || skipEntry(e.Name) {
			continue
		}
		if n++; n > maxArchiveEntries {
			return &importers.Error{File: name, Msg: fmt.Sprintf("more than %d files in the archive: not an experiment folder", maxArchiveEntries)}
		}
		rc, err := e.Open()
		if err != nil {
			return &importers.Error{File: entryName(name, e.Name), Msg: "cannot be read from the archive: " + err.Error()}
		}
		err = b.add(entryName(name, e.Name), rc)
		rc.Close()
		if err != nil {
			return err
		}
	}
	return b.archiveDone(name, n)
}

func (b *ImportBatch) archiveDone(name string, n int) error {
	if n == 0 {
		return &importers.Error{File: name, Msg: "the archive holds no result files"}
	}
	return nil
}

// skipEntry leaves out what archivers add beside the files: macOS resource
// forks and hidden files, and what is plainly not a result (logs, images,
// spreadsheets genai-bench writes beside its runs).
func skipEntry(p string) bool {
	base := path.Base(p)
	if strings.HasPrefix(p, "__MACOSX/") || strings.HasPrefix(base, ".") {
		return true
	}
	switch strings.ToLower(path.Ext(base)) {
	case ".json", ".jsonl", ".yaml", ".yml", ".csv", "":
		return false
	}
	return true
}

// entryName names an entry by the archive and its path inside it.
func entryName(archive, p string) string {
	p = strings.TrimPrefix(path.Clean("/"+strings.ReplaceAll(p, `\`, "/")), "/")
	p = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, p)
	name := archive + ": " + p
	if r := []rune(name); len(r) > 300 {
		name = string(r[len(r)-300:])
	}
	return name
}

// applyExperiments completes the genai-bench run files with their
// experiment's metadata, once.
func (b *ImportBatch) applyExperiments() error {
	if b.applied || len(b.experiments) == 0 {
		return nil
	}
	if err := importers.ApplyExperiments(b.Files(), b.experiments); err != nil {
		return err
	}
	b.applied = true
	return nil
}
