package web

import (
	"sync"
	"time"
)

// pageCache keeps rendered report pages for a moment. A page is cached
// under the report, the store's write generation (so any change made
// through this server misses at once), the day (evidence ages by date) and
// the user (edit buttons differ); an entry also expires after pageTTL, so
// a change written by another process (the import command) shows within
// that time.
type pageCache struct {
	mu      sync.Mutex
	entries map[pageKey]pageEntry
	// pending are the pages being rendered: a burst of views of a changed
	// report renders it once, the others wait for that render.
	pending map[pageKey]*pendingPage
}

type pendingPage struct {
	done chan struct{}
	body []byte
	err  error
}

// pageTTL bounds how stale a cached page can be after an outside write.
const pageTTL = 2 * time.Second

// maxCachedPages bounds the cache; when full it is emptied.
const maxCachedPages = 512

type pageKey struct {
	report int64
	gen    uint64
	day    string
	user   int64
}

type pageEntry struct {
	body    []byte
	expires time.Time
}

func (pc *pageCache) get(k pageKey, now time.Time) ([]byte, bool) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	e, ok := pc.entries[k]
	if !ok || now.After(e.expires) {
		return nil, false
	}
	return e.body, true
}

func (pc *pageCache) put(k pageKey, body []byte, now time.Time) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if pc.entries == nil || len(pc.entries) >= maxCachedPages {
		pc.entries = make(map[pageKey]pageEntry)
	}
	pc.entries[k] = pageEntry{body: body, expires: now.Add(pageTTL)}
}

// getOrRender returns the cached page for k, or renders it with render
// once however many ask at the same time, caching a success.
func (pc *pageCache) getOrRender(k pageKey, now time.Time, render func() ([]byte, error)) ([]byte, error) {
	pc.mu.Lock()
	if e, ok := pc.entries[k]; ok && !now.After(e.expires) {
		pc.mu.Unlock()
		return e.body, nil
	}
	if p, ok := pc.pending[k]; ok {
		pc.mu.Unlock()
		<-p.done
		return p.body, p.err
	}
	p := &pendingPage{done: make(chan struct{})}
	if pc.pending == nil {
		pc.pending = make(map[pageKey]*pendingPage)
	}
	pc.pending[k] = p
	pc.mu.Unlock()

	p.body, p.err = render()
	pc.mu.Lock()
	delete(pc.pending, k)
	pc.mu.Unlock()
	if p.err == nil {
		pc.put(k, p.body, now)
	}
	close(p.done)
	return p.body, p.err
}
