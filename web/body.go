package web

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/labstack/echo/v4"
)

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
