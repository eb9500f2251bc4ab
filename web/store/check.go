package store

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// CheckReport is what Check found in an installation: the database file
// and the raw files beside it.
type CheckReport struct {
	DB         string
	FilesDir   string
	Reports    int
	Files      int      // raw files the database refers to
	Bytes      int64    // their total size
	Pending    []string // migrations not applied yet (the next start applies them)
	Problems   []string // integrity, missing or damaged raw files; empty when sound
	Orphans    []string // files under FilesDir nothing refers to
	Removed    []string // orphans removed (with removeOrphans)
	InProgress []string // temporary files of uploads under way, left alone
}

// checkWalked is called between Check's walk of the raw files and its
// second look at the database (tests).
var checkWalked = func() {}

// OK reports whether the installation is sound and holds no orphans.
func (r CheckReport) OK() bool { return len(r.Problems) == 0 && len(r.Orphans) == len(r.Removed) }

// Check verifies the installation at dbPath without changing the database:
// PRAGMA integrity_check and foreign_key_check, the migrations, and every
// raw file the database refers to present in files/ with its sha256. Files
// there that nothing refers to are orphans; with removeOrphans they are
// deleted, but only when nothing else is wrong and the database refers to
// at least one file (a mistyped --db must not empty the folder).
func Check(ctx context.Context, dbPath string, removeOrphans bool) (CheckReport, error) {
	rep := CheckReport{DB: dbPath, FilesDir: FilesDir(dbPath)}
	db, err := openReadOnly(dbPath)
	if err != nil {
		return rep, fmt.Errorf("check: %w", err)
	}
	defer db.Close()
	problems, err := integrity(ctx, db)
	if err != nil {
		return rep, fmt.Errorf("check: %s: %w", dbPath, err)
	}
	rep.Problems = append(rep.Problems, problems...)
	applied, err := appliedMigrations(ctx, db)
	if err != nil {
		return rep, fmt.Errorf("check: %w", err)
	}
	pending, unknown := compareMigrations(Migrations(), applied)
	if len(unknown) > 0 {
		return rep, &NewerDatabaseError{Unknown: unknown}
	}
	rep.Pending = pending
	if len(applied) == 0 {
		return rep, fmt.Errorf("check: %s is not a capplan database (no migrations recorded)", dbPath)
	}
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM reports`).Scan(&rep.Reports); err != nil {
		return rep, fmt.Errorf("check: %w", err)
	}
	refs, err := referencedFiles(ctx, db)
	if err != nil {
		return rep, fmt.Errorf("check: %w", err)
	}
	known := map[string]bool{}
	for _, r := range refs {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		p, _ := FilePath(rep.FilesDir, r.SHA256)
		known[p] = true
		rep.Files++
		rep.Bytes += r.Size
		sum, size, err := hashFile(p)
		switch {
		case os.IsNotExist(err):
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s (imported as %s) is missing", p, r.Name))
		case err != nil:
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s (imported as %s) cannot be read: %v", p, r.Name, err))
		case sum != r.SHA256:
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s (imported as %s) is damaged: its content's sha256 is %s", p, r.Name, sum))
		case size != r.Size:
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s (imported as %s) holds %d bytes, the database says %d", p, r.Name, size, r.Size))
		}
	}
	err = filepath.WalkDir(rep.FilesDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) && p == rep.FilesDir {
				return filepath.SkipDir
			}
			return err
		}
		if d.IsDir() || known[p] {
			return nil
		}
		// An upload being received, or a raw file whose import is
		// committing, is locked by its process (LockFile) until the import
		// commits or fails; what no live process holds is an orphan,
		// temporary files left by a crash or a kill included.
		if f, free, err := TryLock(p); err == nil && !free {
			rep.InProgress = append(rep.InProgress, p)
			return nil
		} else if err == nil {
			f.Close()
		}
		rep.Orphans = append(rep.Orphans, p)
		return nil
	})
	if err != nil {
		return rep, fmt.Errorf("check: %w", err)
	}
	if len(rep.Orphans) > 0 {
		// An import may have committed since the references were read
		// (hashing every raw file takes a while on a live server): its
		// file, unlocked once committed, is no orphan. The database is
		// asked again, after the walk.
		checkWalked()
		now, err := referencedFiles(ctx, db)
		if err != nil {
			return rep, fmt.Errorf("check: %w", err)
		}
		committed := map[string]bool{}
		for _, r := range now {
			committed[r.SHA256] = true
		}
		rep.Orphans = slices.DeleteFunc(rep.Orphans, func(p string) bool { return committed[filepath.Base(p)] })
	}
	if !removeOrphans || len(rep.Orphans) == 0 {
		return rep, nil
	}
	if len(rep.Problems) > 0 {
		return rep, fmt.Errorf("check: not removing orphans while the installation has problems: fix those first")
	}
	contentOrphans := 0
	for _, p := range rep.Orphans {
		if !strings.HasPrefix(filepath.Base(p), ".upload-") {
			contentOrphans++
		}
	}
	if len(refs) == 0 && contentOrphans > 0 {
		return rep, fmt.Errorf("check: the database %s refers to no raw file at all; not removing all %d files of %s (is --db right?)", dbPath, len(rep.Orphans), rep.FilesDir)
	}
	for _, p := range rep.Orphans {
		// Asked again just before removing: an import may have committed
		// this very file since the list was read.
		var n int
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM imports WHERE sha256 = ?`, filepath.Base(p)).Scan(&n); err != nil {
			return rep, fmt.Errorf("check: %w", err)
		}
		if n > 0 {
			continue
		}
		f, free, err := TryLock(p)
		if os.IsNotExist(err) {
			continue // its import's process removed it meanwhile
		}
		if err != nil {
			return rep, fmt.Errorf("check: remove orphan: %w", err)
		}
		if !free {
			continue // an import took it meanwhile
		}
		err = os.Remove(p)
		f.Close()
		if err != nil {
			return rep, fmt.Errorf("check: remove orphan: %w", err)
		}
		rep.Removed = append(rep.Removed, p)
		os.Remove(filepath.Dir(p)) // the sha256 prefix folder, when now empty
	}
	return rep, nil
}
