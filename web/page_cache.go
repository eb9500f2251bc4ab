package web

import (
	"bytes"
	"compress/gzip"
	"container/list"
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"
)

// pageCache keeps report pages (and the API's report JSON) as sent, for
// the views that follow while nothing in the database has changed. A
// report page is rendered from the database (the report, its history,
// comments, review and the quote library), the viewer, the day and the
// view's options, and from nothing else: so a page rendered after
// store.Changes returned n is good for the same viewer, day and options
// for as long as Changes returns n. Any
// commit (a save, a comment, a login) moves the number and drops every page
// kept; pages are only ever served for the number they were built under.
//
// The pages are bounded in bytes (maxBytes, least recently viewed dropped
// first); a page larger than maxPage is served but not kept. Views that
// miss at the same time wait for one rendering instead of each making
// their own (a page is most often missed by every viewer right after a
// change).
type pageCache struct {
	maxBytes, maxPage int

	mu      sync.Mutex
	changes uint64 // the store's Changes number the kept pages belong to
	pages   map[pageKey]*list.Element
	lru     list.List // of *keptPage, most recently viewed in front
	bytes   int
	flights map[pageKey]*pageFlight // renderings under way for changes
}

// pageKey is everything a report page is rendered from but the database.
type pageKey struct {
	view    string // "page" or "api"
	report  int64
	user    int64  // the viewer: name, role and rights come with the id (0: the same for all)
	asOf    string // the day the report is computed as of
	allRows bool   // ?rows=all, ?include=rows
}

type keptPage struct {
	key  pageKey
	body *body
}

// pageFlight is one rendering that other views of the same page wait for.
type pageFlight struct {
	done chan struct{}
	body *body
	err  error
}

// body is a response body held in memory, with its gzip form made on the
// first request that accepts it and kept with it.
type body struct {
	raw    []byte
	gzOnce sync.Once
	gz     []byte
}

// minGzip is the smallest body worth compressing.
const minGzip = 1024

// gzipped is b compressed (fast level: it is made while a viewer waits).
func (b *body) gzipped() []byte {
	b.gzOnce.Do(func() {
		var buf bytes.Buffer
		buf.Grow(len(b.raw) / 6)
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
		zw.Write(b.raw)
		zw.Close()
		b.gz = buf.Bytes()
	})
	return b.gz
}

// size is what b holds in memory.
func (b *body) size() int { return len(b.raw) + len(b.raw)/4 } // the gzip form, allowed for

// send writes b as the response, compressed when the client accepts gzip.
func (b *body) send(c echo.Context, status int, contentType string) error {
	h := c.Response().Header()
	h.Add("Vary", "Accept-Encoding")
	out := b.raw
	if len(b.raw) >= minGzip && acceptsGzip(c.Request()) {
		h.Set(echo.HeaderContentEncoding, "gzip")
		out = b.gzipped()
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
	return &pageCache{maxBytes: maxBytes, maxPage: maxPage, pages: map[pageKey]*list.Element{}, flights: map[pageKey]*pageFlight{}}
}

// get returns the page for key as of changes (the store's Changes number
// read before this view read anything): the kept one, or the one render
// returns. render must read the database only after changes was read.
func (pc *pageCache) get(ctx context.Context, changes uint64, key pageKey, render func() ([]byte, error)) (*body, error) {
	fresh := func() (*body, error) {
		b, err := render()
		if err != nil {
			return nil, err
		}
		return &body{raw: b}, nil
	}
	pc.mu.Lock()
	if changes > pc.changes {
		pc.clear(changes) // every kept page is older than this view
	}
	if changes < pc.changes {
		// Something was committed since this view read the number: the
		// kept pages are newer than what it asked for and its own page is
		// out of date as it is made. It renders for itself, keeping nothing.
		pc.mu.Unlock()
		return fresh()
	}
	if e, ok := pc.pages[key]; ok {
		pc.lru.MoveToFront(e)
		body := e.Value.(*keptPage).body
		pc.mu.Unlock()
		return body, nil
	}
	if f, ok := pc.flights[key]; ok {
		pc.mu.Unlock()
		select {
		case <-f.done:
			if f.err == nil {
				return f.body, nil
			}
			return fresh() // the rendering failed for its own view (its request ended?)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	f := &pageFlight{done: make(chan struct{})}
	pc.flights[key] = f
	pc.mu.Unlock()

	f.body, f.err = fresh()

	pc.mu.Lock()
	if pc.flights[key] == f {
		delete(pc.flights, key)
	}
	if f.err == nil && changes == pc.changes {
		pc.keep(key, f.body)
	}
	pc.mu.Unlock()
	close(f.done)
	return f.body, f.err
}

// clear drops every kept page and moves to changes. Renderings under way
// finish for their own views and are not kept.
func (pc *pageCache) clear(changes uint64) {
	pc.changes = changes
	clear(pc.pages)
	clear(pc.flights)
	pc.lru.Init()
	pc.bytes = 0
}

// keep adds a page, dropping the least recently viewed ones beyond the
// bound.
func (pc *pageCache) keep(key pageKey, b *body) {
	if b.size() > pc.maxPage {
		return
	}
	if e, ok := pc.pages[key]; ok {
		pc.bytes -= e.Value.(*keptPage).body.size()
		pc.lru.Remove(e)
	}
	pc.pages[key] = pc.lru.PushFront(&keptPage{key: key, body: b})
	pc.bytes += b.size()
	for pc.bytes > pc.maxBytes {
		e := pc.lru.Back()
		k := e.Value.(*keptPage)
		pc.lru.Remove(e)
		delete(pc.pages, k.key)
		pc.bytes -= k.body.size()
	}
}

// size is the number of pages kept and their bytes.
func (pc *pageCache) size() (pages, bytes int) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	return len(pc.pages), pc.bytes
}
