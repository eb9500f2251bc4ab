package store

import (
	"context"
	"database/sql"
	"errors"
	"sync"
)

// readPool is the read connection pool with a cache of prepared
// statements. Parsing SQL is most of what a small SQLite query costs, and
// a report page runs a few dozen of them; database/sql keeps each cached
// statement prepared on every connection that has used it, so a query is
// parsed once per connection instead of on every call.
type readPool struct {
	*sql.DB
	mu        sync.Mutex
	stmts     map[string]*sql.Stmt // nil once closed
	preparing map[string]bool      // prepared in the background (see prepareLater)
}

func newReadPool(db *sql.DB) *readPool {
	return &readPool{DB: db, stmts: map[string]*sql.Stmt{}, preparing: map[string]bool{}}
}

// stmt returns the prepared statement for query, preparing it once. The
// lock is not held while preparing, which may wait for a free connection:
// the transactions holding them look statements up under that lock.
func (p *readPool) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if st, ok := p.cached(query); ok {
		return st, nil
	}
	st, err := p.DB.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	return p.keep(query, st), nil
}

// keep records st for query, or closes it when another is kept already (or
// the pool is closed) and returns that one.
func (p *readPool) keep(query string, st *sql.Stmt) *sql.Stmt {
	p.mu.Lock()
	defer p.mu.Unlock()
	if prev, ok := p.stmts[query]; ok {
		st.Close()
		return prev
	}
	if p.stmts == nil {
		st.Close() // closed meanwhile: the statement fails when used
		return st
	}
	p.stmts[query] = st
	return st
}

// prepareLater prepares query in the background, once, for the next time
// it is run: a read transaction that meets a query not prepared yet runs it
// unprepared rather than wait for a second connection.
func (p *readPool) prepareLater(query string) {
	p.mu.Lock()
	if _, ok := p.stmts[query]; ok || p.preparing[query] || p.stmts == nil {
		p.mu.Unlock()
		return
	}
	p.preparing[query] = true
	p.mu.Unlock()
	go func() {
		st, err := p.DB.PrepareContext(context.Background(), query)
		if err == nil {
			p.keep(query, st)
		}
		p.mu.Lock()
		delete(p.preparing, query)
		p.mu.Unlock()
	}()
}

// cached returns the prepared statement for query when there is one.
func (p *readPool) cached(query string) (*sql.Stmt, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	st, ok := p.stmts[query]
	return st, ok
}

// QueryContext runs a cached statement.
func (p *readPool) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	st, err := p.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

// QueryRowContext runs a cached statement for one row. A statement that
// cannot be prepared is run unprepared, so the *sql.Row carries its error.
func (p *readPool) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	st, err := p.stmt(ctx, query)
	if err != nil {
		return p.DB.QueryRowContext(ctx, query, args...)
	}
	return st.QueryRowContext(ctx, args...)
}

// Close closes the cached statements and the pool.
func (p *readPool) Close() error {
	p.mu.Lock()
	var errs []error
	for _, st := range p.stmts {
		errs = append(errs, st.Close())
	}
	p.stmts = nil
	p.mu.Unlock()
	return errors.Join(append(errs, p.DB.Close())...)
}

// reader is what the read methods query: the pool or a read transaction.
type reader interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// txReader runs queries inside one read transaction, with the pool's
// prepared statement when it has one. It never waits for the pool to
// prepare one: that needs a second connection while the transaction holds
// one, and with every connection held by a transaction waiting to prepare,
// none would ever be free. A query not prepared yet runs unprepared and is
// prepared in the background for the next time (prepareLater).
type txReader struct {
	tx   *sql.Tx
	pool *readPool
}

func (t txReader) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st, ok := t.pool.cached(query); ok {
		return t.tx.StmtContext(ctx, st).QueryContext(ctx, args...)
	}
	t.pool.prepareLater(query)
	return t.tx.QueryContext(ctx, query, args...)
}

func (t txReader) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st, ok := t.pool.cached(query); ok {
		return t.tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
	}
	t.pool.prepareLater(query)
	return t.tx.QueryRowContext(ctx, query, args...)
}
