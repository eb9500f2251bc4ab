package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"capplan/migrations"
)

// dump is the whole database as text: its schema and every row of every
// table, in order.
func dump(t *testing.T, s *Store) string {
	t.Helper()
	ctx := context.Background()
	var b strings.Builder
	rows, err := s.w.QueryContext(ctx, `SELECT type, name, COALESCE(sql, '') FROM sqlite_schema ORDER BY type, name`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var typ, name, sql string
		rows.Scan(&typ, &name, &sql)
		fmt.Fprintf(&b, "%s %s: %s\n", typ, name, sql)
		if typ == "table" {
			tables = append(tables, name)
		}
	}
	rows.Close()
	for _, tb := range tables {
		rows, err := s.w.QueryContext(ctx, `SELECT * FROM "`+tb+`" ORDER BY rowid`)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			rows.Scan(ptrs...)
			fmt.Fprintf(&b, "%s %v\n", tb, vals)
		}
		rows.Close()
	}
	return b.String()
}

// withMigrations is the embedded migrations plus extra ones.
func withMigrations(t *testing.T, extra map[string]string) fs.FS {
	t.Helper()
	m := fstest.MapFS{}
	for _, name := range Migrations() {
		b, err := fs.ReadFile(migrations.FS, name)
		if err != nil {
			t.Fatal(err)
		}
		m[name] = &fstest.MapFile{Data: b}
	}
	for name, body := range extra {
		m[name] = &fstest.MapFile{Data: []byte(body)}
	}
	return m
}

// seeded opens a database with an account, a session and a report.
func seeded(t *testing.T) *Store {
	t.Helper()
	ctx := context.Background()
	st, err := Open(ctx, filepath.Join(t.TempDir(), "capplan.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	u, err := st.CreateUser(ctx, "lead@example.com", "Lead", RoleLead, "a long password")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := st.CreateSession(ctx, u.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateReport(ctx, u, "R"); err != nil {
		t.Fatal(err)
	}
	return st
}

func TestAFailedMigrationLeavesTheDatabaseAsItWas(t *testing.T) {
	ctx := context.Background()
	for name, body := range map[string]string{
		// fails half-way, after a table, a column and a row change
		"9990_broken.sql": `CREATE TABLE extra (id INTEGER PRIMARY KEY);
			ALTER TABLE reports ADD COLUMN colour TEXT NOT NULL DEFAULT '';
			UPDATE users SET name = 'changed';
			INSERT INTO no_such_table VALUES (1);`,
		// runs, but would leave reports pointing at deleted owners
		"9990_dangling.sql": `DELETE FROM users;`,
	} {
		t.Run(name, func(t *testing.T) {
			st := seeded(t)
			before := dump(t, st)
			err := st.migrateFS(ctx, withMigrations(t, map[string]string{name: body}))
			var me *MigrationError
			if !errors.As(err, &me) || me.Name != name || !strings.Contains(err.Error(), "rolled back") {
				t.Fatalf("err = %v, want a MigrationError naming %s", err, name)
			}
			if after := dump(t, st); after != before {
				t.Errorf("the database changed:\nbefore:\n%s\nafter:\n%s", before, after)
			}
			// And it still works: a write goes through with foreign keys on.
			var fk int
			st.w.QueryRowContext(ctx, `PRAGMA foreign_keys`).Scan(&fk)
			if fk != 1 {
				t.Error("foreign keys left off after the failed migration")
			}
		})
	}
}

func TestAMigrationMayRebuildATableWithoutCascading(t *testing.T) {
	ctx := context.Background()
	st := seeded(t)
	// The way SQLite rebuilds a table to change a column: sessions refer to
	// users with ON DELETE CASCADE, so with foreign keys on, dropping the old
	// table would delete every session.
	var create string
	if err := st.w.QueryRowContext(ctx, `SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'users'`).Scan(&create); err != nil {
		t.Fatal(err)
	}
	table, ok := strings.CutPrefix(create, "CREATE TABLE users")
	if !ok {
		t.Fatalf("users is created as %q", create)
	}
	rebuild := "CREATE TABLE users_new" + table + `;
		INSERT INTO users_new SELECT * FROM users;
		DROP TABLE users;
		ALTER TABLE users_new RENAME TO users;`
	if err := st.migrateFS(ctx, withMigrations(t, map[string]string{"9990_rebuild.sql": rebuild})); err != nil {
		t.Fatal(err)
	}
	var n int
	st.w.QueryRowContext(ctx, `SELECT COUNT(*) FROM sessions`).Scan(&n)
	if n != 1 {
		t.Errorf("%d sessions after rebuilding users, want 1", n)
	}
	var fk int
	st.w.QueryRowContext(ctx, `PRAGMA foreign_keys`).Scan(&fk)
	if fk != 1 {
		t.Error("foreign keys left off after the migration")
	}
}

func TestADatabaseFromANewerReleaseIsRefused(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "capplan.db")
	st, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.w.ExecContext(ctx, `INSERT INTO migrations (name, applied_at) VALUES ('9999_future.sql', '')`); err != nil {
		t.Fatal(err)
	}
	st.Close()
	_, err = Open(ctx, path)
	var ne *NewerDatabaseError
	if !errors.As(err, &ne) || !strings.Contains(err.Error(), "9999_future.sql") {
		t.Errorf("err = %v, want NewerDatabaseError naming 9999_future.sql", err)
	}
}
