package web

import (
	"bytes"
	"compress/gzip"
	"container/list"
	"context"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"
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

// body is a response body held in memory, with its gzip form made by the
// first request that accepts it and kept with it.
type body struct {
	raw []byte
	gz  atomic.Pointer[[]byte] // nil until made
	// compressing is set by the request making gz; others send raw meanwhile.
	compressing atomic.Bool
}

// minGzip is the smallest body worth compressing.
const minGzip = 1024

// gzipped is b compressed, made by the first caller; while it is being
// made, other callers get nil and send b as it is rather than wait. The
// level is a middle one: a page is compressed once per change and sent
// many times (level 5 makes the demo report page 24 KB in 2.6 ms; level 1,
// 30 KB in 1.6 ms; level 9, 23.6 KB in 3.9 ms).
func (b *body) gzipped() []byte {
	if gz := b.gz.Load(); gz != nil {
		return *gz
	}
	if !b.compressing.CompareAndSwap(false, true) {
		return nil
	}
	var buf bytes.Buffer
	buf.Grow(len(b.raw) / 5)
	zw, _ := gzip.NewWriterLevel(&buf, 5)
	for raw := b.raw; len(raw) > 0; {
		n := min(len(raw), yieldEvery)
		zw.Write(raw[:n])
		raw = raw[n:]
		runtime.Gosched()
	}
	zw.Close()
	gz := bytes.Clone(buf.Bytes()) // kept at its length
	b.gz.Store(&gz)
	return gz
}

// yieldEvery is how many bytes a page's rendering or compression makes
// before it lets other goroutines run: a page is made while other views
// are answered (from kept pages), and a rendering that held its processor
// for milliseconds would hold up every view queued behind it.
const yieldEvery = 16 << 10

// yieldingBuffer is a bytes.Buffer that yields the processor every
// yieldEvery bytes written (see yieldEvery).
type yieldingBuffer struct {
	bytes.Buffer
	since int
}

func (y *yieldingBuffer) Write(p []byte) (int, error) {
	y.since += len(p)
	if y.since >= yieldEvery {
		y.since = 0
		runtime.Gosched()
	}
	return y.Buffer.Write(p)
}

func (y *yieldingBuffer) WriteString(s string) (int, error) {
	y.since += len(s)
	if y.since >= yieldEvery {
		y.since = 0
		runtime.Gosched()
	}
	return y.Buffer.WriteString(s)
}

// size is what b holds in memory.
func (b *body) size() int { return len(b.raw) + len(b.raw)/4 } // the gzip form, allowed for

// send writes b as the response, compressed when the client accepts gzip.
func (b *body) send(c echo.Context, status int, contentType string) error {
	h := c.Response().Header()
	h.Add("Vary", "Accept-Encoding")
	out := b.raw
	if len(b.raw) >= minGzip && acceptsGzip(c.Request()) {
		if gz := b.gzipped(); gz != nil {
			h.Set(echo.HeaderContentEncoding, "gzip")
			out = gz
		}
	}
	// With its length known the body goes out in one write, not chunked.
	h.Set(echo.HeaderContentLength, strconv.Itoa(len(out)))
	return c.Blob(status, contentType, out)
}

// acceptsGzip tells whether the request's Accept-Encoding allows gzip
// (named without "q=0").
func acceptsGzip(r *http.Request) bool {
	for _, v := range r.Header.Values("Accept-Encoding") {
		for part := range strings.SplitSeq(v, ",") {
			name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
			if !strings.EqualFold(strings.TrimSpace(name), "gzip") {
				continue
			}
			q := strings.ReplaceAll(params, " ", "")
			return !(strings.HasPrefix(q, "q=0") && strings.Trim(strings.TrimPrefix(q, "q="), "0.") == "")
		}
	}
	return false
}

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

// ownWrites remembers, for staleLimit, the store's Changes number after
// each session's last change (any request but GET and HEAD), so that the
// session is never served a page built before it: its view waits for the
// page that shows its change.
//
// A page built under n whose number was read at time a (taken before the
// read) is served stale only while a is within staleLimit. A note (c, w),
// w taken after c was read, is forgotten once w is staleLimit old: a page
// still servable then has a > w, so its number was read after c was and
// n >= c. Forgetting loses nothing.
type ownWrites struct {
	mu sync.Mutex
	m  map[string]changesRead // by session cookie
}

func newOwnWrites() *ownWrites { return &ownWrites{m: map[string]changesRead{}} }

// note records that session changed something, committed before n was
// read; at is taken after the read.
func (w *ownWrites) note(session string, n uint64, at time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for k, r := range w.m {
		if at.Sub(r.at) >= staleLimit {
			delete(w.m, k)
		}
	}
	w.m[session] = changesRead{n: n, at: at}
}

// since is whether a page built under a number may be served to session
// while its successor renders: built after the session's last change.
func (w *ownWrites) since(session string) func(uint64) bool {
	return func(n uint64) bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		r, ok := w.m[session]
		return !ok || n >= r.n
	}
}

// noteOwnWrites is middleware recording each session's changes (see
// ownWrites). The note is taken as the answer starts, before any of it
// reaches the client, so that no view the client makes after it can miss
// it; and whether the handler failed or not (it may have committed first).
func (s *Server) noteOwnWrites(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if m := c.Request().Method; m == http.MethodGet || m == http.MethodHead {
			return next(c)
		}
		if sess := sessionOf(c); sess != "" {
			c.Response().Before(func() {
				n, err := s.store.Changes(context.WithoutCancel(c.Request().Context()))
				if err != nil {
					n = ^uint64(0) // no number: no stale page at all for a while
				}
				s.writes.note(sess, n, time.Now())
			})
		}
		return next(c)
	}
}

// sessionOf is the request's session cookie, or "".
func sessionOf(c echo.Context) string {
	if ck, err := c.Cookie(sessionCookie); err == nil {
		return ck.Value
	}
	return ""
}
