package reports

import (
	"container/list"
	"context"
	"errors"
	"sync"
)

// memo is a least-recently-used map bounded in bytes (as estimated by the
// caller) and in entries. Concurrent misses of one key compute it once:
// the others wait for that result. A key that supersedes others (a newer
// version of the same report) pushes them out when it is stored.
type memo[K comparable, V any] struct {
	mu         sync.Mutex
	maxBytes   int64
	maxEntries int
	bytes      int64
	order      *list.List // front: most recently used
	items      map[K]*list.Element
	pending    map[K]*memoCall[V]
	supersedes func(newer, older K) bool
	hits       uint64
	misses     uint64
}

type memoEntry[K comparable, V any] struct {
	key  K
	val  V
	size int64
}

type memoCall[V any] struct {
	done chan struct{}
	val  V
	err  error
}

func newMemo[K comparable, V any](maxBytes int64, maxEntries int, supersedes func(newer, older K) bool) *memo[K, V] {
	return &memo[K, V]{maxBytes: maxBytes, maxEntries: maxEntries, order: list.New(),
		items: map[K]*list.Element{}, pending: map[K]*memoCall[V]{}, supersedes: supersedes}
}

// get returns the value under k, computing it with fn (which also returns
// its estimated size) when it is missing. A value larger than the whole
// bound is returned but not kept. A caller waiting for another's
// computation stops when ctx is done; when that computation failed because
// its own caller went away, the waiter computes the value itself.
func (m *memo[K, V]) get(ctx context.Context, k K, fn func() (V, int64, error)) (V, error) {
	for {
		m.mu.Lock()
		if el, ok := m.items[k]; ok {
			m.order.MoveToFront(el)
			m.hits++
			v := el.Value.(*memoEntry[K, V]).val
			m.mu.Unlock()
			return v, nil
		}
		c, waiting := m.pending[k]
		if !waiting {
			break // this caller computes; m.mu still held
		}
		m.mu.Unlock()
		select {
		case <-c.done:
		case <-ctx.Done():
			var zero V
			return zero, ctx.Err()
		}
		if c.err == nil {
			m.mu.Lock()
			m.hits++ // shared another's computation
			m.mu.Unlock()
			return c.val, nil
		}
		if !errors.Is(c.err, context.Canceled) && !errors.Is(c.err, context.DeadlineExceeded) {
			return c.val, c.err
		}
		// The computing caller went away: try again (as the one computing).
	}
	c := &memoCall[V]{done: make(chan struct{})}
	m.pending[k] = c
	m.misses++
	m.mu.Unlock()

	var size int64
	defer func() { // also when fn panics: waiters must not hang
		m.mu.Lock()
		delete(m.pending, k)
		if c.err == nil && size > 0 && size <= m.maxBytes {
			m.storeLocked(k, c.val, size)
		}
		m.mu.Unlock()
		close(c.done)
	}()
	c.err = errors.New("reports: computation did not finish")
	c.val, size, c.err = fn()
	return c.val, c.err
}

// find returns the most recently used value whose key matches.
func (m *memo[K, V]) find(match func(K) bool) (V, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for el := m.order.Front(); el != nil; el = el.Next() {
		if e := el.Value.(*memoEntry[K, V]); match(e.key) {
			return e.val, true
		}
	}
	var zero V
	return zero, false
}

func (m *memo[K, V]) storeLocked(k K, v V, size int64) {
	if m.supersedes != nil {
		for el := m.order.Front(); el != nil; {
			next := el.Next()
			if old := el.Value.(*memoEntry[K, V]).key; old != k && m.supersedes(k, old) {
				m.removeLocked(el)
			}
			el = next
		}
	}
	if el, ok := m.items[k]; ok {
		m.removeLocked(el)
	}
	m.items[k] = m.order.PushFront(&memoEntry[K, V]{key: k, val: v, size: size})
	m.bytes += size
	for m.bytes > m.maxBytes || len(m.items) > m.maxEntries {
		m.removeLocked(m.order.Back())
	}
}

func (m *memo[K, V]) removeLocked(el *list.Element) {
	e := el.Value.(*memoEntry[K, V])
	m.order.Remove(el)
	delete(m.items, e.key)
	m.bytes -= e.size
}

// MemoStats describes the memo of computed reports.
type MemoStats struct {
	Entries      int
	Bytes        int64 // estimated
	Hits, Misses uint64
}

func (m *memo[K, V]) stats() MemoStats {
	m.mu.Lock()
	defer m.mu.Unlock()
	return MemoStats{Entries: len(m.items), Bytes: m.bytes, Hits: m.hits, Misses: m.misses}
}
