// Package store keeps capplan's data in one SQLite file: SQL lives here and
// nowhere else. Reads go through a pool, writes through one connection in
// short transactions, so writers never fight over the file lock.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"modernc.org/sqlite" // registers the "sqlite" driver (pure Go, no cgo)
	sqlite3 "modernc.org/sqlite/lib"
)

// BusyTimeout is how long a write waits for SQLite's write lock held by
// another writer (another process: the one writer connection of this one
// queues its own writes) before it is refused as busy: well past the
// longest write of a CLI import (a 49,000-model catalogue commits in
// under 15 s on a small machine).
const BusyTimeout = 60 * time.Second

// IsBusy tells whether err is SQLite's "database is locked": another
// writer held the lock past the busy timeout. Nothing was written; the
// same write may succeed later.
func IsBusy(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		code := se.Code() & 0xff
		return code == sqlite3.SQLITE_BUSY || code == sqlite3.SQLITE_LOCKED
	}
	return false
}

// SetBusyTimeout changes how long this store's writes wait for another
// writer's lock (tests make it short).
func (s *Store) SetBusyTimeout(ctx context.Context, d time.Duration) error {
	_, err := s.w.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", d.Milliseconds()))
	return err
}

// ErrNotFound is returned when a requested record does not exist.
var ErrNotFound = errors.New("not found")

// ErrConflict is returned when a save is based on a stale version.
var ErrConflict = errors.New("conflict")

// Store is the application's database: one writer connection and a read pool.
type Store struct {
	path string
	w    *sql.DB   // exactly one connection: every write goes through it
	pool *readPool // read pool, with prepared statements cached
	// r is what the read methods query: the pool, or one read transaction
	// inside View.
	r reader
	// gen counts committed writes; caches of derived views key on it.
	gen *atomic.Uint64
	// watch tells views kept in memory whether anything was committed
	// since they were built (see Changes).
	watch *changeWatch
	now   func() time.Time
}

// Open opens (creating if missing) the SQLite file at path and applies the
// migrations. The parent directory is created too.
func Open(ctx context.Context, path string) (*Store, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return nil, fmt.Errorf("store: create directory: %w", err)
		}
	}
	// The pragmas, applied to every connection, in this order:
	//   busy_timeout(BusyTimeout): wait for another process's lock instead of failing at once
	//     (set first, so that the journal_mode switch below can wait too);
	//   journal_mode(WAL): readers never block the writer nor the writer readers;
	//   synchronous(NORMAL): with WAL, durable at checkpoints and never corrupt,
	//     at a fraction of FULL's fsyncs;
	//   foreign_keys(1): SQLite leaves them off unless asked, per connection.
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", BusyTimeout.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "foreign_keys(1)")
	dsn := "file:" + path + "?" + q.Encode()

	// The writer begins transactions with BEGIN IMMEDIATE, taking the write
	// lock up front, so a read-then-write transaction cannot fail half-way
	// with SQLITE_BUSY.
	w, err := sql.Open("sqlite", dsn+"&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("store: open writer: %w", err)
	}
	w.SetMaxOpenConns(1)
	w.SetConnMaxIdleTime(0)
	// Readers are refused writes by query_only, so a stray write in a read path fails loudly.
	r, err := sql.Open("sqlite", dsn+"&_pragma=query_only(1)")
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("store: open readers: %w", err)
	}
	// Every reader is kept open when idle: database/sql keeps 2 by default,
	// and under load a connection closed and opened again pays its pragmas
	// and every prepared statement afresh.
	r.SetMaxOpenConns(8)
	r.SetMaxIdleConns(8)
	pool := newReadPool(r)
	// The change watch's one connection, read-only too, never closed for
	// being idle: its data_version counts from when it was opened.
	wd, err := sql.Open("sqlite", dsn+"&_pragma=query_only(1)")
	if err != nil {
		w.Close()
		r.Close()
		return nil, fmt.Errorf("store: open change watch: %w", err)
	}
	wd.SetMaxOpenConns(1)
	wd.SetConnMaxIdleTime(0)
	s := &Store{path: path, w: w, pool: pool, r: pool, gen: new(atomic.Uint64), watch: &changeWatch{db: wd}, now: time.Now}
	if err := s.migrate(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Close closes both handles.
func (s *Store) Close() error {
	return errors.Join(s.watch.close(), s.pool.Close(), s.w.Close())
}

// View runs fn with a store whose read methods all see one snapshot of the
// database: a read transaction, so a page assembled from many queries never
// mixes data from before and after a concurrent write. Only read methods
// may be called on the store fn gets.
func (s *Store) View(ctx context.Context, fn func(r *Store) error) error {
	tx, err := s.pool.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("store: begin read: %w", err)
	}
	defer tx.Rollback()
	return fn(&Store{path: s.path, w: s.w, pool: s.pool, r: txReader{tx: tx, pool: s.pool}, gen: s.gen, watch: s.watch, now: s.now})
}

// SetClock replaces the clock (tests).
func (s *Store) SetClock(now func() time.Time) { s.now = now }

// Backup writes a consistent copy of the live database to dst with
// VACUUM INTO; dst must not exist.
func (s *Store) Backup(ctx context.Context, dst string) error {
	if _, err := os.Stat(dst); err == nil {
		return fmt.Errorf("store: backup: %s already exists", dst)
	}
	if _, err := s.w.ExecContext(ctx, "VACUUM INTO ?", dst); err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	return nil
}

// tx runs fn in a write transaction, committing when fn returns nil.
func (s *Store) tx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: begin: %w", err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	s.gen.Add(1)
	return nil
}

// exec runs one write statement outside a transaction.
func (s *Store) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	res, err := s.w.ExecContext(ctx, query, args...)
	if err == nil {
		s.gen.Add(1)
	}
	return res, err
}

// Generation is a number that changes whenever this store commits a
// write. A view derived from the database may be cached under it (writes
// by another process, such as the import command, are not counted: cache
// briefly).
func (s *Store) Generation() uint64 { return s.gen.Load() }

// stamp formats t the way every timestamp is stored: RFC 3339 in UTC.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// parseStamp reads a stored timestamp; the zero time for "".
func parseStamp(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

// InputError is a refused input: the field and the rule it breaks. Its
// text is meant for the user.
type InputError struct {
	Field, Msg string
}

func (e *InputError) Error() string { return e.Field + ": " + e.Msg }

func inputErr(field, msg string) error { return &InputError{Field: field, Msg: msg} }
