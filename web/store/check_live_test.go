package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckLiveImportIsNoOrphan: a raw file whose import commits while
// Check walks the files (its lock released once committed, after Check
// read the references) is not reported as an orphan; a file nothing
// refers to still is.
func TestCheckLiveImportIsNoOrphan(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "capplan.db")
	st, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	u, _ := st.CreateUser(ctx, "a@example.com", "A", RoleLead, "a long password")
	id, err := st.CreateReport(ctx, u, "R")
	if err != nil {
		t.Fatal(err)
	}
	write := func(sha string) string {
		p, err := FilePath(FilesDir(path), sha)
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Dir(p), 0o750)
		os.WriteFile(p, []byte(sha), 0o440)
		return p
	}
	committing := write(strings.Repeat("c", 64))
	orphan := write(strings.Repeat("d", 64))
	checkWalked = func() {
		if _, err := st.w.ExecContext(ctx, `INSERT INTO imports (report_id, file_name, sha256, format, size_bytes, user_id, at) VALUES (?, 'r.json', ?, 'vllm', 64, ?, '2026-11-20T00:00:00Z')`,
			id, strings.Repeat("c", 64), u.ID); err != nil {
			t.Error(err)
		}
	}
	defer func() { checkWalked = func() {} }()
	rep, err := Check(ctx, path, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Orphans) != 1 || rep.Orphans[0] != orphan {
		t.Errorf("orphans %v, want only %s (not %s, committed during the check)", rep.Orphans, orphan, committing)
	}
}
