package store

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"sort"

	"capplan/migrations"
)

// migrate applies every embedded migration not yet recorded, in lexical
// order, each in its own transaction together with its record.
func (s *Store) migrate(ctx context.Context) error {
	if _, err := s.w.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS migrations (
		name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)`); err != nil {
		return fmt.Errorf("store: migrations table: %w", err)
	}
	names, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil {
		return fmt.Errorf("store: list migrations: %w", err)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := s.migrateFile(ctx, name); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) migrateFile(ctx context.Context, name string) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM migrations WHERE name = ?`, name).Scan(&n); err != nil {
			return fmt.Errorf("store: migration %s: %w", name, err)
		}
		if n > 0 {
			return nil
		}
		body, err := fs.ReadFile(migrations.FS, name)
		if err != nil {
			return fmt.Errorf("store: migration %s: %w", name, err)
		}
		if _, err := tx.ExecContext(ctx, string(body)); err != nil {
			return fmt.Errorf("store: migration %s: %w", name, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO migrations (name, applied_at) VALUES (?, ?)`, name, stamp(s.now())); err != nil {
			return fmt.Errorf("store: record migration %s: %w", name, err)
		}
		return nil
	})
}
