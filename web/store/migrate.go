package store

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"capplan/migrations"
)

// Migrations are forward-only: each numbered file is applied once, in
// lexical order, in its own transaction together with its record in the
// migrations table, so a migration that fails leaves the database exactly
// as it was before it. A database that records a migration this binary
// does not know was written by a newer release and is refused rather than
// run by code that does not understand it.

// migrationNames lists the *.sql files of fsys in the order they apply.
func migrationNames(fsys fs.FS) ([]string, error) {
	names, err := fs.Glob(fsys, "*.sql")
	if err != nil {
		return nil, fmt.Errorf("store: list migrations: %w", err)
	}
	slices.Sort(names)
	return names, nil
}

// Migrations lists the migrations this binary applies, in order.
func Migrations() []string {
	names, _ := migrationNames(migrations.FS)
	return names
}

// appliedMigrations lists the migrations recorded in db; none when the
// database has no migrations table yet.
func appliedMigrations(ctx context.Context, db queryer) ([]string, error) {
	var n int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table' AND name = 'migrations'`).Scan(&n); err != nil {
		return nil, fmt.Errorf("store: migrations table: %w", err)
	}
	if n == 0 {
		return nil, nil
	}
	rows, err := db.QueryContext(ctx, `SELECT name FROM migrations ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("store: migrations: %w", err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		names = append(names, s)
	}
	return names, rows.Err()
}

// NewerDatabaseError refuses a database written by a newer release: it
// records migrations this binary does not have.
type NewerDatabaseError struct{ Unknown []string }

func (e *NewerDatabaseError) Error() string {
	return fmt.Sprintf("the database was written by a newer capplan (it records migration %s, which this binary does not have); run that release or newer",
		strings.Join(e.Unknown, ", "))
}

// compareMigrations returns the known migrations not applied yet and the
// applied ones this binary does not know.
func compareMigrations(known, applied []string) (pending, unknown []string) {
	for _, k := range known {
		if !slices.Contains(applied, k) {
			pending = append(pending, k)
		}
	}
	for _, a := range applied {
		if !slices.Contains(known, a) {
			unknown = append(unknown, a)
		}
	}
	return pending, unknown
}

// PendingMigrations lists the migrations this binary would still apply to
// the open database: none once Open has returned, unless another process
// changed the file since.
func (s *Store) PendingMigrations(ctx context.Context) ([]string, error) {
	applied, err := appliedMigrations(ctx, s.r)
	if err != nil {
		return nil, err
	}
	pending, unknown := compareMigrations(Migrations(), applied)
	if len(unknown) > 0 {
		return nil, &NewerDatabaseError{Unknown: unknown}
	}
	return pending, nil
}

// migrate applies every embedded migration not yet recorded.
func (s *Store) migrate(ctx context.Context) error { return s.migrateFS(ctx, migrations.FS) }

// migrateFS applies the migrations of fsys not yet recorded, in lexical
// order, each in its own transaction together with its record.
func (s *Store) migrateFS(ctx context.Context, fsys fs.FS) error {
	if _, err := s.w.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS migrations (
		name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)`); err != nil {
		return fmt.Errorf("store: migrations table: %w", err)
	}
	names, err := migrationNames(fsys)
	if err != nil {
		return err
	}
	applied, err := appliedMigrations(ctx, s.w)
	if err != nil {
		return err
	}
	pending, unknown := compareMigrations(names, applied)
	if len(unknown) > 0 {
		return &NewerDatabaseError{Unknown: unknown}
	}
	for _, name := range pending {
		if err := s.migrateFile(ctx, fsys, name); err != nil {
			return err
		}
	}
	return nil
}

// migrateFile applies one migration in its own transaction on the writer
// connection. Foreign keys are switched off around it, as SQLite asks for
// schema changes that rebuild a table (with them on, dropping the old
// table would cascade-delete the rows that refer to it); before the commit
// foreign_key_check must find nothing, so a migration cannot leave a
// dangling reference behind.
func (s *Store) migrateFile(ctx context.Context, fsys fs.FS, name string) error {
	body, err := fs.ReadFile(fsys, name)
	if err != nil {
		return fmt.Errorf("store: migration %s: %w", name, err)
	}
	conn, err := s.w.Conn(ctx)
	if err != nil {
		return fmt.Errorf("store: migration %s: %w", name, err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `PRAGMA foreign_keys = OFF`); err != nil {
		return fmt.Errorf("store: migration %s: %w", name, err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `PRAGMA foreign_keys = ON`)
	if err := migrateTx(ctx, conn, name, string(body), stamp(s.now())); err != nil {
		return &MigrationError{Name: name, Err: err}
	}
	s.gen.Add(1)
	return nil
}

func migrateTx(ctx context.Context, conn *sql.Conn, name, body, at string) error {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM migrations WHERE name = ?`, name).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil // applied meanwhile by another process
	}
	if _, err := tx.ExecContext(ctx, body); err != nil {
		return err
	}
	problems, err := integrityFK(ctx, tx)
	if err != nil {
		return err
	}
	if len(problems) > 0 {
		return fmt.Errorf("it leaves broken references: %s", strings.Join(problems, "; "))
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO migrations (name, applied_at) VALUES (?, ?)`, name, at); err != nil {
		return err
	}
	return tx.Commit()
}

// MigrationError is a migration that failed; it was rolled back, and the
// database is as it was before it.
type MigrationError struct {
	Name string
	Err  error
}

func (e *MigrationError) Error() string {
	return fmt.Sprintf("store: migration %s failed and was rolled back (the database is unchanged by it): %v", e.Name, e.Err)
}

func (e *MigrationError) Unwrap() error { return e.Err }
