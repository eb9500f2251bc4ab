package store

import (
	"context"
	"database/sql"
	"errors"
	"sync"
)

// changeWatch answers "has anything been committed since?" for views kept
// in memory (the report pages). It asks SQLite's data_version on one
// connection of its own, kept open for the purpose: that number moves
// whenever another connection commits, in this process (the writer) or in
// any other (the import command on the same file). It is a property of the
// connection, so a replaced connection starts a new count: the watch's own
// number then moves too, and never goes back.
type changeWatch struct {
	mu   sync.Mutex
	db   *sql.DB
	conn *sql.Conn // nil until first use and after a failure
	stmt *sql.Stmt // PRAGMA data_version, prepared on conn
	raw  int64     // the connection's data_version last seen
	n    uint64    // what Changes returns: moves whenever raw does
}

// Changes returns a number that differs from every number it returned
// before whenever anything has been committed to the database since, by
// this process or another. Anything read from the database after a call
// is at least as new as the number that call returned, so a view built
// from reads made after Changes returned n may be kept under n and served
// while Changes still returns n.
func (s *Store) Changes(ctx context.Context) (uint64, error) {
	w := s.watch
	w.mu.Lock()
	defer w.mu.Unlock()
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
	return w.n, nil
}

// drop closes the connection; the next Changes opens another.
func (w *changeWatch) drop() error {
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
