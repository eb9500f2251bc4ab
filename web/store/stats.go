package store

import (
	"context"
	"fmt"
	"os"
)

// Size is the size in bytes of the database file and its write-ahead log.
func (s *Store) Size() (int64, error) {
	st, err := os.Stat(s.path)
	if err != nil {
		return 0, err
	}
	n := st.Size()
	if wal, err := os.Stat(s.path + "-wal"); err == nil {
		n += wal.Size()
	}
	return n, nil
}

// ActiveSessions counts the browser sessions not yet expired.
func (s *Store) ActiveSessions(ctx context.Context) (int, error) {
	var n int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM sessions WHERE expires_at > ?`, stamp(s.now())).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: active sessions: %w", err)
	}
	return n, nil
}

// CheckWritable proves the database takes writes: it takes the write lock
// and creates a table in a transaction it then rolls back, so nothing is
// left behind. A read-only file, a full lock or a broken file fails it.
func (s *Store) CheckWritable(ctx context.Context) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: begin a write: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `CREATE TABLE readiness_probe (x)`); err != nil {
		return fmt.Errorf("store: write: %w", err)
	}
	return nil
}

// Path is the database file's path.
func (s *Store) Path() string { return s.path }
