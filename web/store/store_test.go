package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	_ "modernc.org/sqlite"
)

func init() { BcryptCost = 4 }

func TestMigrationsApplyOnceAndBackupIsConsistent(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "capplan.db")
	st, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	var applied int
	st.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM migrations`).Scan(&applied)
	if applied < 3 {
		t.Fatalf("%d migrations recorded", applied)
	}
	var mode string
	st.pool.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode)
	var fk int
	st.w.QueryRowContext(ctx, `PRAGMA foreign_keys`).Scan(&fk)
	if mode != "wal" || fk != 1 {
		t.Errorf("journal_mode=%s foreign_keys=%d", mode, fk)
	}
	if _, err := st.pool.ExecContext(ctx, `DELETE FROM users`); err == nil {
		t.Error("the read pool accepted a write")
	}
	u, err := st.CreateUser(ctx, "a@example.com", "A", RoleLead, "a long password")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateReport(ctx, u, "R"); err != nil {
		t.Fatal(err)
	}
	st.Close()

	// Reopening applies nothing twice.
	st, err = Open(ctx, path)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer st.Close()
	var again int
	st.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM migrations`).Scan(&again)
	if again != applied {
		t.Errorf("migrations %d then %d", applied, again)
	}

	copyPath := filepath.Join(dir, "backup.db")
	if err := st.Backup(ctx, copyPath); err != nil {
		t.Fatal(err)
	}
	if err := st.Backup(ctx, copyPath); err == nil {
		t.Error("backup overwrote an existing file")
	}
	db, err := sql.Open("sqlite", copyPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT COUNT(*) FROM reports`).Scan(&n); err != nil || n != 1 {
		t.Errorf("backup holds %d reports (%v)", n, err)
	}
}

func TestUpdateRefusesStaleVersion(t *testing.T) {
	ctx := context.Background()
	st, err := Open(ctx, filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	u, _ := st.CreateUser(ctx, "a@example.com", "A", RoleLead, "a long password")
	id, _ := st.CreateReport(ctx, u, "R")
	if err := st.RenameReport(ctx, Edit{ReportID: id, BaseVersion: 1, UserID: u.ID, Action: "renamed", Before: "R", After: "S"}, "S"); err != nil {
		t.Fatal(err)
	}
	err = st.RenameReport(ctx, Edit{ReportID: id, BaseVersion: 1, UserID: u.ID, Action: "renamed", Before: "R", After: "T"}, "T")
	ce, ok := err.(*ConflictError)
	if !ok || ce.Current != 2 || len(ce.Since) != 1 || ce.Since[0].After != "S" {
		t.Fatalf("err = %v", err)
	}
	r, _ := st.Report(ctx, id)
	if r.Title != "S" {
		t.Errorf("title %q", r.Title)
	}
}

// A View reads one snapshot: a write committed while it runs is not seen
// by its later reads.
func TestViewReadsOneSnapshot(t *testing.T) {
	ctx := context.Background()
	st, err := Open(ctx, filepath.Join(t.TempDir(), "v.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	u, _ := st.CreateUser(ctx, "a@example.com", "A", RoleLead, "a long password")
	id, _ := st.CreateReport(ctx, u, "Before")
	err = st.View(ctx, func(r *Store) error {
		first, err := r.Report(ctx, id)
		if err != nil {
			return err
		}
		if err := st.RenameReport(ctx, Edit{ReportID: id, BaseVersion: 1, UserID: u.ID, Action: "renamed", Section: "report"}, "After"); err != nil {
			return err
		}
		again, err := r.Report(ctx, id)
		if err != nil {
			return err
		}
		if first.Title != "Before" || again.Title != "Before" {
			t.Errorf("inside the view: %q then %q, want Before twice", first.Title, again.Title)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := st.Report(ctx, id); r.Title != "After" {
		t.Errorf("after the view: %q", r.Title)
	}
}

// A history side longer than MaxHistoryText is cut with its size and hash,
// on a character boundary; a shorter one is kept as it is.
func TestBoundHistory(t *testing.T) {
	if s := "short: 1 → 2"; boundHistory(s) != s {
		t.Errorf("a short text changed: %q", boundHistory(s))
	}
	long := strings.Repeat("é", MaxHistoryText) // 2 bytes each
	got := boundHistory(long)
	if len(got) > MaxHistoryText || !utf8.ValidString(got) || !strings.Contains(got, "bytes more; sha256 of the whole ") {
		t.Errorf("bounded to %d bytes (valid UTF-8 %v): %q", len(got), utf8.ValidString(got), got[len(got)-80:])
	}
}
