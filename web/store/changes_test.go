package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// TestChangesSeesEveryCommit: the number moves after a write by this
// store at once, after a write by another handle on the same file
// (another process, such as the import command) once ExternalChangeLag has
// passed, and after nothing else; and it never comes back to an earlier
// value, also after its connection failed.
func TestChangesSeesEveryCommit(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "capplan.db")
	st, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	other, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()

	seen := map[uint64]bool{}
	changes := func(what string, moved bool) {
		t.Helper()
		n, err := st.Changes(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if moved && seen[n] {
			t.Errorf("after %s: Changes = %d, a number already returned", what, n)
		}
		if !moved && !seen[n] {
			t.Errorf("after %s: Changes moved to %d though nothing was committed", what, n)
		}
		seen[n] = true
	}
	changes("opening", true)
	changes("nothing", false)
	u, err := st.CreateUser(ctx, "a@example.com", "A", RoleLead, "a long password")
	if err != nil {
		t.Fatal(err)
	}
	changes("a write by this store", true)
	if _, err := st.Report(ctx, 1); err == nil {
		t.Fatal("a report that does not exist was found")
	}
	changes("a read", false)
	id, err := other.CreateReport(ctx, u, "R")
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(ExternalChangeLag) // the contract for other processes
	changes("a write by another handle", true)
	if err := other.AddComment(ctx, id, u.ID, "matrix", "a comment"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(ExternalChangeLag)
	changes("a comment by another handle", true)
	if err := st.View(ctx, func(r *Store) error { _, err := r.Changes(ctx); return err }); err != nil {
		t.Fatal(err)
	}

	// A failed connection is replaced, and the count goes on from a number
	// not returned before.
	st.watch.conn.Close()
	time.Sleep(ExternalChangeLag)
	if _, err := st.Changes(ctx); err == nil {
		t.Fatal("a closed connection answered")
	}
	changes("a replaced connection", true)
	changes("nothing", false)
}
