package web

import (
	"container/list"
	"context"
	"sync"
	"time"
)

// pageCache keeps report pages (and the API's report JSON) as sent, for
// the views that follow while nothing in the database has changed. A
// report page is rendered from the database (the report, its history,
// comments, review and the quote library), the viewer, the day and the
// view's options, and from nothing else: so a page rendered after
// store.Changes returned n is good for the same viewer, day and options
// for as long as Changes returns n.
//
// When Changes moves (a save, a comment, a login), the kept pages are
// superseded. The first view of a page after that renders it anew, and
// gets the new page. Views that miss while that rendering is under way
// wait for it instead of each making their own; or, when the caller
// accepts it (maybeStale), they are served the superseded page at once:
// they came in the milliseconds the new page took to make, as if a little
// earlier. The report page accepts it for a viewer who has made no change
// since the superseded page was built (see ownWrites), so that a save by
// one user does not hold up everyone else's views for a rendering, while
// every user always sees their own changes and a lone viewer always gets
// the new page. Nothing is served stale once its successor is there, nor a
// page whose number was read more than staleLimit ago.
//
// The pages are bounded in bytes (maxBytes, least recently viewed dropped
// first); a page larger than maxPage is served but not kept.
type pageCache struct {
	maxBytes, maxPage int

	mu      sync.Mutex
	changes uint64    // the store's Changes number the kept pages belong to
	at      time.Time // taken before changes was read (see ownWrites)
	pages   map[pageKey]*list.Element
	lru     list.List // of *keptPage, most recently viewed in front
	bytes   int
	flights map[pageKey]*pageFlight // renderings under way for changes
	// stale are the pages superseded by the last move of changes, served
	// to the views that accept them while their successors render.
	stale map[pageKey]*keptPage
	// stats counts views: served a kept page, rendered (or waited for a
	// rendering), served a superseded page.
	hits, misses, staleServed uint64
}

// pageKey is everything a report page is rendered from but the database.
type pageKey struct {
	view    string // "page" or "api"
	report  int64
	user    int64  // the viewer: name, role and rights come with the id (0: the same for all)
	asOf    string // the day the report is computed as of
	allRows bool   // ?rows=all, ?include=rows
	allCols bool   // ?cols=all
}

// changesRead is a store.Changes number and when it was read.
type changesRead struct {
	n  uint64
	at time.Time
}

type keptPage struct {
	key  pageKey
	read changesRead // the number the page was built under
	body *body
}

// pageFlight is one rendering that other views of the same page wait for.
type pageFlight struct {
	done chan struct{}
	body *body
	err  error
}

// staleLimit bounds how old a superseded page may be when served; a
// rendering takes milliseconds.
const staleLimit = 2 * time.Second

// Page cache bounds: 32 MB is 140 demo pages, or 15 of a 500-row
// report's with every row shown.
const (
	pageCacheBytes   = 32 << 20
	pageCacheMaxPage = 4 << 20
)

func newPageCache(maxBytes, maxPage int) *pageCache {
	return &pageCache{maxBytes: maxBytes, maxPage: maxPage, pages: map[pageKey]*list.Element{}, flights: map[pageKey]*pageFlight{}, stale: map[pageKey]*keptPage{}}
}

// get returns the page for key as of now (the store's Changes number read
// before this view read anything): the kept one, or the one render
// returns. render must read the database only after now was read.
// maybeStale, when not nil, says whether this view may be served a page
// built under the given number while the page's successor renders.
// compress asks for the gzip form of a page this view renders to be made
// before the page is shared (the view accepts gzip).
func (pc *pageCache) get(ctx context.Context, now changesRead, key pageKey, maybeStale func(uint64) bool, compress bool, render func(context.Context) ([]byte, error)) (*body, error) {
	fresh := func(ctx context.Context) (*body, error) {
		raw, err := render(ctx)
		if err != nil {
			return nil, err
		}
		b := &body{raw: raw}
		if compress && len(raw) >= minGzip {
			b.gzipped() // before the views waiting for it have it: none sends it uncompressed
		}
		return b, nil
	}
	pc.mu.Lock()
	if now.n > pc.changes {
		pc.supersede(now) // every kept page is older than this view
	}
	// From here a page built under a number at least this view's is its
	// own page: as new as what it read, or newer (as if it came later). A
	// rendering started from here on reads the database after pc.changes
	// was read, and is kept under it.
	if e, ok := pc.pages[key]; ok {
		pc.lru.MoveToFront(e)
		body := e.Value.(*keptPage).body
		pc.hits++
		pc.mu.Unlock()
		return body, nil
	}
	var old *body
	if p, ok := pc.stale[key]; ok {
		if p.read.n >= now.n { // this view read its number before the last move
			pc.hits++
			pc.mu.Unlock()
			return p.body, nil
		}
		if maybeStale != nil && time.Since(p.read.at) < staleLimit && maybeStale(p.read.n) {
			old = p.body
		}
	}
	if f, ok := pc.flights[key]; ok {
		if old != nil {
			pc.staleServed++
			pc.mu.Unlock()
			return old, nil
		}
		pc.misses++
		pc.mu.Unlock()
		select {
		case <-f.done:
			if f.err == nil {
				return f.body, nil
			}
			return fresh(ctx) // the rendering failed for its own view (its request ended?)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	f := &pageFlight{done: make(chan struct{})}
	pc.flights[key] = f
	pc.misses++
	under := changesRead{n: pc.changes, at: pc.at}
	pc.mu.Unlock()

	f.body, f.err = fresh(ctx)

	pc.mu.Lock()
	if pc.flights[key] == f {
		delete(pc.flights, key)
	}
	if f.err == nil && under.n == pc.changes {
		pc.keep(key, under, f.body)
		delete(pc.stale, key)
	}
	pc.mu.Unlock()
	close(f.done)
	return f.body, f.err
}

// supersede moves to changes: the kept pages become the stale ones (the
// stale ones before them are dropped). Renderings under way finish for
// their own views and are not kept.
func (pc *pageCache) supersede(now changesRead) {
	pc.changes, pc.at = now.n, now.at
	pc.stale = make(map[pageKey]*keptPage, len(pc.pages))
	for k, e := range pc.pages {
		pc.stale[k] = e.Value.(*keptPage)
	}
	clear(pc.pages)
	clear(pc.flights)
	pc.lru.Init()
	pc.bytes = 0
}

// keep adds a page, dropping the least recently viewed ones beyond the
// bound (the stale pages, at most as many bytes again, are dropped at the
// next move of changes).
func (pc *pageCache) keep(key pageKey, read changesRead, b *body) {
	if b.size() > pc.maxPage {
		return
	}
	if e, ok := pc.pages[key]; ok {
		pc.bytes -= e.Value.(*keptPage).body.size()
		pc.lru.Remove(e)
	}
	pc.pages[key] = pc.lru.PushFront(&keptPage{key: key, read: read, body: b})
	pc.bytes += b.size()
	for pc.bytes > pc.maxBytes {
		e := pc.lru.Back()
		k := e.Value.(*keptPage)
		pc.lru.Remove(e)
		delete(pc.pages, k.key)
		pc.bytes -= k.body.size()
	}
}

// stats counts the views served (see the fields) and the bytes kept now
// (the current pages and the superseded ones).
func (pc *pageCache) stats() (kept, rendered, superseded uint64, bytes int) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	b := pc.bytes
	for _, p := range pc.stale {
		b += p.body.size()
	}
	return pc.hits, pc.misses, pc.staleServed, b
}

// size is the number of pages kept and their bytes.
func (pc *pageCache) size() (pages, bytes int) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	return len(pc.pages), pc.bytes
}
