package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// FilesDir is where the raw result files of the database at dbPath are
// kept: the folder files/ beside it.
func FilesDir(dbPath string) string { return filepath.Join(filepath.Dir(dbPath), "files") }

// FilePath is where a raw result file with this sha256 lives under dir:
// <dir>/<sha[:2]>/<sha>, content-addressed, so one file imported into
// several reports is kept once.
func FilePath(dir, sha string) (string, error) {
	if !isSHA256(sha) {
		return "", fmt.Errorf("bad sha256 %q", sha)
	}
	return filepath.Join(dir, sha[:2], sha), nil
}

// filePathInArchive is the slash-separated name of a raw file in a backup
// archive and in reports about files: files/<sha[:2]>/<sha>.
func filePathInArchive(sha string) string { return "files/" + sha[:2] + "/" + sha }

// isSHA256 reports whether s is a lowercase hex sha256.
func isSHA256(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// referencedFile is a raw file the database refers to.
type referencedFile struct {
	SHA256 string
	Size   int64
	Name   string // the name it was imported under (the first, when several)
}

// referencedFiles lists every raw file the database refers to, by sha256,
// removed imports included: their rows stay in the history and their
// files remain the evidence.
func referencedFiles(ctx context.Context, db queryer) ([]referencedFile, error) {
	rows, err := db.QueryContext(ctx, `SELECT sha256, MAX(size_bytes), MIN(file_name) FROM imports GROUP BY sha256 ORDER BY sha256`)
	if err != nil {
		return nil, fmt.Errorf("store: referenced files: %w", err)
	}
	defer rows.Close()
	var out []referencedFile
	for rows.Next() {
		var f referencedFile
		if err := rows.Scan(&f.SHA256, &f.Size, &f.Name); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// queryer is what referencedFiles and the checks need of a handle.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// hashFile returns the sha256 and size of the file at path.
func hashFile(path string) (string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// openReadOnly opens the SQLite file at path without writing to it and
// without applying migrations, for checks and restores.
func openReadOnly(path string) (*sql.DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=busy_timeout(5000)")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// integrity runs PRAGMA integrity_check and foreign_key_check and returns
// what they found, nil when the database is sound.
func integrity(ctx context.Context, db queryer) ([]string, error) {
	rows, err := db.QueryContext(ctx, `PRAGMA integrity_check`)
	if err != nil {
		return nil, fmt.Errorf("integrity_check: %w", err)
	}
	var problems []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			rows.Close()
			return nil, err
		}
		if s != "ok" {
			problems = append(problems, "integrity_check: "+s)
		}
	}
	if err := rows.Err(); err != nil {
		rows.Close()
		return nil, fmt.Errorf("integrity_check: %w", err)
	}
	rows.Close()
	fk, err := integrityFK(ctx, db)
	return append(problems, fk...), err
}

// integrityFK runs PRAGMA foreign_key_check: every reference that points
// at a missing row.
func integrityFK(ctx context.Context, db queryer) ([]string, error) {
	rows, err := db.QueryContext(ctx, `PRAGMA foreign_key_check`)
	if err != nil {
		return nil, fmt.Errorf("foreign_key_check: %w", err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var table, parent string
		var rowid sql.NullInt64
		var idx int
		if err := rows.Scan(&table, &rowid, &parent, &idx); err != nil {
			return nil, err
		}
		problems = append(problems, fmt.Sprintf("foreign_key_check: %s row %d refers to a missing %s", table, rowid.Int64, parent))
	}
	return problems, rows.Err()
}
