package store

import (
	"archive/tar"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// A backup archive is one uncompressed tar file (`tar tf` lists it; compress
// it with any tool) holding, in this order:
//
//	capplan.db            a consistent copy of the database (VACUUM INTO)
//	files/<ab>/<sha256>   every raw result file the copy refers to
//	manifest.json         what the archive holds, each entry with its sha256
//
// The manifest comes last because the sums are taken while the entries
// are written; a restore reads everything, checks every sum against the
// manifest (and each raw file against its name) before it puts anything
// in place.

const (
	archiveFormat   = "capplan-backup 1"
	archiveDB       = "capplan.db"
	archiveManifest = "manifest.json"
)

// Manifest describes a backup archive.
type Manifest struct {
	Format     string         `json:"format"`
	CreatedAt  time.Time      `json:"created_at"`
	Migrations []string       `json:"migrations"`
	Reports    int            `json:"reports"`
	Imports    int            `json:"imports"`
	Database   ManifestEntry  `json:"database"`
	Files      []ManifestFile `json:"files"`
}

// ManifestEntry is one file of the archive with its size and sha256.
type ManifestEntry struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// ManifestFile is a raw result file: the entry and the name it was
// imported under.
type ManifestFile struct {
	ManifestEntry
	Name string `json:"name"`
}

// BackupArchive writes a backup archive of the live database and the raw
// files in filesDir to dst, which must not exist. It is safe while the
// server runs: the database copy is taken with VACUUM INTO, and the raw
// files listed are the ones that copy refers to. A referenced file that is
// missing or whose content no longer matches its sha256 fails the backup,
// naming the file. The archive appears under dst only once complete.
func (s *Store) BackupArchive(ctx context.Context, filesDir, dst string) (Manifest, error) {
	var m Manifest
	if _, err := os.Lstat(dst); err == nil {
		return m, fmt.Errorf("backup: %s already exists", dst)
	}
	tmpDir, err := os.MkdirTemp(filepath.Dir(dst), ".capplan-backup-*")
	if err != nil {
		return m, fmt.Errorf("backup: %w", err)
	}
	defer os.RemoveAll(tmpDir)
	dbCopy := filepath.Join(tmpDir, archiveDB)
	if _, err := s.w.ExecContext(ctx, "VACUUM INTO ?", dbCopy); err != nil {
		return m, fmt.Errorf("backup: copy the database: %w", err)
	}
	m, err = describeCopy(ctx, dbCopy)
	if err != nil {
		return m, fmt.Errorf("backup: %w", err)
	}
	m.CreatedAt = s.now().UTC()

	tmpOut := filepath.Join(tmpDir, "archive.tar")
	out, err := os.OpenFile(tmpOut, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return m, fmt.Errorf("backup: %w", err)
	}
	defer out.Close()
	tw := tar.NewWriter(out)
	if m.Database, err = addToArchive(tw, archiveDB, dbCopy, m.CreatedAt); err != nil {
		return m, fmt.Errorf("backup: %w", err)
	}
	for i, f := range m.Files {
		if err := ctx.Err(); err != nil {
			return m, err
		}
		src, _ := FilePath(filesDir, f.SHA256)
		e, err := addToArchive(tw, f.Path, src, m.CreatedAt)
		if errors.Is(err, os.ErrNotExist) {
			return m, fmt.Errorf("backup: raw file %s (imported as %s) is missing from %s; run `capplan check`", f.Path, f.Name, filesDir)
		}
		if err != nil {
			return m, fmt.Errorf("backup: %w", err)
		}
		if e.SHA256 != f.SHA256 {
			return m, fmt.Errorf("backup: raw file %s (imported as %s) no longer matches its sha256 (it holds %s): it was changed or damaged on disk; run `capplan check`", f.Path, f.Name, e.SHA256)
		}
		m.Files[i].ManifestEntry = e
	}
	mj, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return m, err
	}
	hdr := &tar.Header{Name: archiveManifest, Mode: 0o600, Size: int64(len(mj)), ModTime: m.CreatedAt, Typeflag: tar.TypeReg}
	if err := tw.WriteHeader(hdr); err != nil {
		return m, fmt.Errorf("backup: %w", err)
	}
	if _, err := tw.Write(mj); err != nil {
		return m, fmt.Errorf("backup: %w", err)
	}
	if err := tw.Close(); err != nil {
		return m, fmt.Errorf("backup: %w", err)
	}
	if err := out.Sync(); err != nil {
		return m, fmt.Errorf("backup: %w", err)
	}
	if err := out.Close(); err != nil {
		return m, fmt.Errorf("backup: %w", err)
	}
	// Link, not rename: an archive that appeared at dst meanwhile is not
	// overwritten.
	if err := os.Link(tmpOut, dst); err != nil {
		if err := os.Rename(tmpOut, dst); err != nil {
			return m, fmt.Errorf("backup: %w", err)
		}
	}
	return m, nil
}

// describeCopy reads what a manifest says about a database copy: its
// migrations, counts and the raw files it refers to.
func describeCopy(ctx context.Context, dbPath string) (Manifest, error) {
	m := Manifest{Format: archiveFormat}
	db, err := openReadOnly(dbPath)
	if err != nil {
		return m, err
	}
	defer db.Close()
	if m.Migrations, err = appliedMigrations(ctx, db); err != nil {
		return m, err
	}
	if err := db.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM reports), (SELECT COUNT(*) FROM imports)`).Scan(&m.Reports, &m.Imports); err != nil {
		return m, err
	}
	refs, err := referencedFiles(ctx, db)
	if err != nil {
		return m, err
	}
	for _, r := range refs {
		m.Files = append(m.Files, ManifestFile{ManifestEntry: ManifestEntry{Path: filePathInArchive(r.SHA256), Size: r.Size, SHA256: r.SHA256}, Name: r.Name})
	}
	return m, nil
}

// addToArchive writes the file at src into tw under name and returns its
// entry, hashed as it was written.
func addToArchive(tw *tar.Writer, name, src string, at time.Time) (ManifestEntry, error) {
	e := ManifestEntry{Path: name}
	f, err := os.Open(src)
	if err != nil {
		return e, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return e, err
	}
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: st.Size(), ModTime: at, Typeflag: tar.TypeReg}); err != nil {
		return e, err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tw, h), f)
	if err != nil {
		return e, fmt.Errorf("%s: %w", name, err)
	}
	e.Size, e.SHA256 = n, hex.EncodeToString(h.Sum(nil))
	return e, nil
}

// Restored says what a restore put in place.
type Restored struct {
	Manifest
	DB       string   // the database file written
	FilesDir string   // where the raw files went
	Bytes    int64    // the raw files' total size
	Pending  []string // migrations this binary applies when it next opens the database
}

// ArchiveError is a backup archive refused by a restore: what is wrong and,
// when it is about one entry, which.
type ArchiveError struct {
	Archive, Entry, Msg string
}

func (e *ArchiveError) Error() string {
	if e.Entry == "" {
		return fmt.Sprintf("restore: %s: %s; nothing was restored", e.Archive, e.Msg)
	}
	return fmt.Sprintf("restore: %s: %s: %s; nothing was restored", e.Archive, e.Entry, e.Msg)
}

// Restore brings back the backup archive at archivePath as the database
// dbPath and its raw files in the files/ folder beside it. It refuses to
// overwrite a database, and checks the whole archive before it puts
// anything in place: every entry against the manifest's sha256 and size,
// each raw file against its content address, the database with PRAGMA
// integrity_check and foreign_key_check, and that the database's raw files
// are all in the archive. A raw file already in files/ is kept when its
// content is the same.
func Restore(ctx context.Context, archivePath, dbPath string) (Restored, error) {
	res := Restored{DB: dbPath, FilesDir: FilesDir(dbPath)}
	for _, p := range []string{dbPath, dbPath + "-wal", dbPath + "-journal"} {
		if _, err := os.Lstat(p); err == nil {
			return res, fmt.Errorf("restore: refusing to overwrite %s: a database is already there (stop the server and move it away, or restore to another --db)", p)
		}
	}
	if err := os.MkdirAll(filepath.Dir(dbPath), 0o750); err != nil {
		return res, fmt.Errorf("restore: %w", err)
	}
	stage, err := os.MkdirTemp(filepath.Dir(dbPath), ".capplan-restore-*")
	if err != nil {
		return res, fmt.Errorf("restore: %w", err)
	}
	defer os.RemoveAll(stage)

	m, got, err := unpack(ctx, archivePath, stage)
	if err != nil {
		return res, err
	}
	res.Manifest = m
	bad := func(entry, msg string, args ...any) error {
		return &ArchiveError{Archive: archivePath, Entry: entry, Msg: fmt.Sprintf(msg, args...)}
	}
	// Every entry the manifest lists is there with its sum; nothing else is.
	want := append([]ManifestEntry{m.Database}, entries(m.Files)...)
	if m.Database.Path != archiveDB {
		return res, bad("", "the manifest names the database %q, not %q", m.Database.Path, archiveDB)
	}
	for _, e := range want {
		g, ok := got[e.Path]
		switch {
		case !ok:
			return res, bad(e.Path, "listed in the manifest but missing from the archive")
		case g.SHA256 != e.SHA256:
			return res, bad(e.Path, "sha256 is %s but the manifest says %s: the archive is damaged", g.SHA256, e.SHA256)
		case g.Size != e.Size:
			return res, bad(e.Path, "holds %d bytes but the manifest says %d: the archive is damaged", g.Size, e.Size)
		}
		delete(got, e.Path)
	}
	for p := range got {
		return res, bad(p, "in the archive but not in its manifest")
	}
	for _, f := range m.Files {
		if f.SHA256 != path.Base(f.Path) {
			return res, bad(f.Path, "its sha256 %s does not match its name", f.SHA256)
		}
		res.Bytes += f.Size
	}

	// The database itself: sound, from a release this binary can run, and
	// its raw files all in the archive.
	stagedDB := filepath.Join(stage, archiveDB)
	db, err := openReadOnly(stagedDB)
	if err != nil {
		return res, bad(archiveDB, "cannot be opened: %v", err)
	}
	defer db.Close()
	problems, err := integrity(ctx, db)
	if err != nil {
		return res, bad(archiveDB, "is not a readable database: %v", err)
	}
	if len(problems) > 0 {
		return res, bad(archiveDB, "fails the integrity check: %s", strings.Join(problems, "; "))
	}
	applied, err := appliedMigrations(ctx, db)
	if err != nil {
		return res, bad(archiveDB, "%v", err)
	}
	var unknown []string
	res.Pending, unknown = compareMigrations(Migrations(), applied)
	if len(unknown) > 0 {
		return res, &NewerDatabaseError{Unknown: unknown}
	}
	refs, err := referencedFiles(ctx, db)
	if err != nil {
		return res, bad(archiveDB, "%v", err)
	}
	for _, r := range refs {
		if !slices.ContainsFunc(m.Files, func(f ManifestFile) bool { return f.SHA256 == r.SHA256 }) {
			return res, bad(filePathInArchive(r.SHA256), "the database refers to it (imported as %s) but the archive does not hold it", r.Name)
		}
	}
	db.Close()

	// Put it in place: the raw files first, the database last, so that a
	// database at dbPath always has its files.
	for _, f := range m.Files {
		dst, _ := FilePath(res.FilesDir, f.SHA256)
		if sum, _, err := hashFile(dst); err == nil {
			if sum != f.SHA256 {
				return res, fmt.Errorf("restore: %s is already there with other content (sha256 %s); move it away and retry", dst, sum)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o750); err != nil {
			return res, fmt.Errorf("restore: %w", err)
		}
		if err := os.Rename(filepath.Join(stage, filepath.FromSlash(f.Path)), dst); err != nil {
			return res, fmt.Errorf("restore: %w", err)
		}
	}
	// Link, not rename: a database that appeared at dbPath meanwhile is
	// not overwritten.
	if err := os.Link(stagedDB, dbPath); err != nil {
		return res, fmt.Errorf("restore: %w", err)
	}
	return res, nil
}

func entries(fs []ManifestFile) []ManifestEntry {
	out := make([]ManifestEntry, len(fs))
	for i, f := range fs {
		out[i] = f.ManifestEntry
	}
	return out
}

// maxManifest bounds the manifest read into memory.
const maxManifest = 64 << 20

// unpack reads the archive into dir, hashing every entry, and returns the
// manifest and what each entry held. Only the names an archive may hold
// are accepted, so nothing is written outside dir.
func unpack(ctx context.Context, archivePath, dir string) (Manifest, map[string]ManifestEntry, error) {
	var m Manifest
	bad := func(entry, msg string, args ...any) error {
		return &ArchiveError{Archive: archivePath, Entry: entry, Msg: fmt.Sprintf(msg, args...)}
	}
	f, err := os.Open(archivePath)
	if err != nil {
		return m, nil, fmt.Errorf("restore: %w", err)
	}
	defer f.Close()
	got := map[string]ManifestEntry{}
	haveManifest := false
	last := "" // the entry read last, to say where a damaged archive breaks
	tr := tar.NewReader(f)
	for {
		if err := ctx.Err(); err != nil {
			return m, nil, err
		}
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			where := "at its start"
			if last != "" {
				where = "after " + last
			}
			return m, nil, bad("", "not a readable backup archive (%v %s)", err, where)
		}
		name := hdr.Name
		last = name
		if hdr.Typeflag != tar.TypeReg {
			return m, nil, bad(name, "is not a regular file")
		}
		if _, dup := got[name]; dup || (name == archiveManifest && haveManifest) {
			return m, nil, bad(name, "appears twice")
		}
		if name == archiveManifest {
			b, err := io.ReadAll(io.LimitReader(tr, maxManifest))
			if err != nil {
				return m, nil, bad(name, "cannot be read: %v", err)
			}
			if err := json.Unmarshal(b, &m); err != nil {
				return m, nil, bad(name, "is not valid: %v", err)
			}
			if m.Format != archiveFormat {
				return m, nil, bad(name, "names format %q; this capplan reads %q", m.Format, archiveFormat)
			}
			haveManifest = true
			continue
		}
		if !archiveName(name) {
			return m, nil, bad(name, "is not something a capplan backup holds")
		}
		dst := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o750); err != nil {
			return m, nil, fmt.Errorf("restore: %w", err)
		}
		mode := os.FileMode(0o440) // raw files are never written again
		if name == archiveDB {
			mode = 0o600
		}
		e, err := writeEntry(dst, tr, mode)
		if err != nil {
			return m, nil, bad(name, "cannot be read whole (%v): the archive is truncated or damaged", err)
		}
		e.Path = name
		got[name] = e
	}
	if !haveManifest {
		return m, nil, bad("", "has no %s: not a capplan backup, or cut short", archiveManifest)
	}
	return m, got, nil
}

// archiveName reports whether an archive may hold an entry of this name:
// the database or a raw file at its content address.
func archiveName(name string) bool {
	if name == archiveDB {
		return true
	}
	parts := strings.Split(name, "/")
	return len(parts) == 3 && parts[0] == "files" && isSHA256(parts[2]) && parts[1] == parts[2][:2]
}

// writeEntry copies r into a new file at dst, hashing it.
func writeEntry(dst string, r io.Reader, mode os.FileMode) (ManifestEntry, error) {
	var e ManifestEntry
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, mode)
	if err != nil {
		return e, err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(out, h), r)
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	e.Size, e.SHA256 = n, hex.EncodeToString(h.Sum(nil))
	return e, err
}
