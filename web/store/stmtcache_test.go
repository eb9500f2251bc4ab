package store

import (
	"context"
	"sync"
	"testing"
	"time"
)

// TestReadTransactionsPrepareTheirQueriesOnce: a query first met inside a
// read transaction runs there unprepared, is prepared in the background,
// and later transactions use the prepared statement; with every read
// connection held by a transaction, a new query still runs.
func TestReadTransactionsPrepareTheirQueriesOnce(t *testing.T) {
	st, err := Open(context.Background(), t.TempDir()+"/capplan.db")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	const q = `SELECT COUNT(*) FROM reports WHERE id > ?`
	count := func(r *Store) int {
		var n int
		if err := r.r.QueryRowContext(ctx, q, -1).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if err := st.View(ctx, func(r *Store) error { count(r); return nil }); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, ok := st.pool.cached(q); ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the query met in a read transaction was not prepared for the next time")
		}
		time.Sleep(time.Millisecond)
	}

	// Every read connection held by a transaction that meets a new query:
	// none waits for a connection to prepare it.
	const fresh = `SELECT COUNT(*) FROM users WHERE id > ?`
	var wg, began sync.WaitGroup
	began.Add(8)
	start := make(chan struct{})
	done := make(chan struct{})
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st.View(ctx, func(r *Store) error {
				began.Done()
				<-start
				var n int
				return r.r.QueryRowContext(ctx, fresh, -1).Scan(&n)
			})
		}()
	}
	go func() { wg.Wait(); close(done) }()
	began.Wait() // every read connection is in a transaction
	close(start)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("read transactions holding every connection hung on a new query")
	}
}
