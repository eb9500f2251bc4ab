package store

import (
	"context"
	"database/sql"
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

// changeWatch answers "has anything been committed since?" for views kept
// in memory (the report pages). It asks SQLite's data_version on one
// connection of its own, kept open for the purpose: that number moves
// whenever another connection commits, in this process (the writer) or in
// any other (the import command on the same file). It is a property of the
// connection, so a replaced connection starts a new count: the watch's own
// number then moves too, and never goes back.
//
// Asking costs a read transaction, file locks included (tens of
// microseconds under load), so an answer is reused for up to
// ExternalChangeLag while this store has committed nothing since (its
// write generation): a commit by this process is seen by every call made
// after the commit returned, one by another process by every call made
// ExternalChangeLag after it.
type changeWatch struct {
	mu   sync.Mutex
	db   *sql.DB
	conn *sql.Conn // nil until first use and after a failure
	stmt *sql.Stmt // PRAGMA data_version, prepared on conn
	raw  int64     // the connection's data_version last seen
	n    uint64    // what Changes returns: moves whenever raw does
	last atomic.Pointer[changeAnswer]
}

// changeAnswer is an answer of Changes to reuse: its number, the store's
// write generation read before data_version was, and when.
type changeAnswer struct {
	n, gen uint64
	at     time.Time
}

// ExternalChangeLag is how long after a commit by another process Changes
// may still answer as before it (see changeWatch).
const ExternalChangeLag = time.Millisecond

// Changes returns a number that differs from every number it returned
// before whenever anything has been committed to the database since: by
// this store, any commit that returned before the call; by another process
// (`capplan import` on the same file), any commit ExternalChangeLag before
// the call. Anything read from the database after a call is at least as
// new as the number that call returned, so a view built from reads made
// after Changes returned n may be kept under n and served while Changes
// still returns n.
func (s *Store) Changes(ctx context.Context) (uint64, error) {
	w := s.watch
	if a := w.last.Load(); a != nil && a.gen == s.gen.Load() && time.Since(a.at) < ExternalChangeLag {
		return a.n, nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	at, gen := time.Now(), s.gen.Load() // both before data_version is read
	if w.conn == nil {
		c, err := w.db.Conn(ctx)
		if err != nil {
			return 0, err
		}
		st, err := c.PrepareContext(ctx, "PRAGMA data_version")
		if err != nil {
			c.Close()
			return 0, err
		}
		w.conn, w.stmt, w.raw = c, st, -1
	}
	var v int64
	if err := w.stmt.QueryRowContext(ctx).Scan(&v); err != nil {
		// A connection that failed once is not trusted again: a new one
		// counts from its own start, and raw = -1 makes the number move.
		w.drop()
		return 0, err
	}
	if v != w.raw {
		w.raw = v
		w.n++
	}
	w.last.Store(&changeAnswer{n: w.n, gen: gen, at: at})
	return w.n, nil
}

// drop closes the connection; the next Changes opens another.
func (w *changeWatch) drop() error {
	w.last.Store(nil)
	if w.conn == nil {
		return nil
	}
	err := errors.Join(w.stmt.Close(), w.conn.Close())
	w.conn, w.stmt = nil, nil
	return err
}

func (w *changeWatch) close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return errors.Join(w.drop(), w.db.Close())
}
