package web

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Limits are the server's timeouts and its bound on connections per client
// address (README, "Deploy"). A slow or idle client is cut off; a large
// upload over a modest link is not.
type Limits struct {
	// Header is the time a client has to send a request's headers.
	Header time.Duration
	// Idle is how long a keep-alive connection may wait for its next request.
	Idle time.Duration
	// Body is how long a request body may go without progress: the body's
	// first BodyStep bytes (or the whole of a smaller body) must arrive
	// within Body of the headers, and each further BodyStep within Body of
	// the last; a form that is not an upload gets Body for its whole body.
	Body     time.Duration
	BodyStep int64
	// Upload is the longest an upload's body may take in all: 2 GiB at
	// 10 Mbit/s takes 29 minutes.
	Upload time.Duration
	// Write is how long an answer may take to be written, from the end of
	// the request's headers; downloads and uploads get Upload + Write.
	Write time.Duration
	// PerClient is the most connections open at once from one address
	// (behind a reverse proxy, the proxy's).
	PerClient int
}

// DefaultLimits are the limits of `capplan serve`.
var DefaultLimits = Limits{
	Header:    10 * time.Second,
	Idle:      15 * time.Second,
	Body:      10 * time.Second,
	BodyStep:  64 << 10,
	Upload:    45 * time.Minute,
	Write:     2 * time.Minute,
	PerClient: 64,
}

// NewHTTPServer is the HTTP server for h with the limits l.
func NewHTTPServer(h http.Handler, l Limits) *http.Server {
	return &http.Server{
		Handler:           reserveOnly(withDeadlines(h, l)),
		ConnContext:       connContext,
		ReadHeaderTimeout: l.Header,
		IdleTimeout:       l.Idle,
	}
}

// isUpload tells the routes whose bodies are files: results, candidate
// results, evidence (not the evidence's remove and accept forms),
// reference rows and quote catalogues.
func isUpload(r *http.Request) bool {
	if r.Method != http.MethodPost {
		return false
	}
	p := r.URL.Path
	switch {
	case strings.HasSuffix(p, "/imports"), strings.HasSuffix(p, "/results"),
		strings.HasSuffix(p, "/reference"), strings.HasSuffix(p, "/quotes/import"):
		return true
	case strings.Contains(p, "/evidence/"):
		return !strings.HasSuffix(p, "/remove") && !strings.HasSuffix(p, "/accept")
	}
	return false
}

// isDownload tells the answers that may be large files.
func isDownload(r *http.Request) bool {
	p := r.URL.Path
	return r.Method == http.MethodGet && (strings.HasSuffix(p, "/file") || strings.HasSuffix(p, ".xlsx") || strings.HasSuffix(p, ".csv"))
}

// bodyKey keys a request's *progressBody in its context.
type bodyKey struct{}

// bodyTimedOut tells whether r's body was cut off because the client sent
// it too slowly (the read deadline of withDeadlines ran out).
func bodyTimedOut(r *http.Request) bool {
	b, _ := r.Context().Value(bodyKey{}).(*progressBody)
	return b != nil && b.timedOut.Load()
}

// withDeadlines bounds each request: its answer by a write deadline on
// the connection, its body by a read deadline set before each read of it.
// A read may wait for the client up to Body, less what the reads of the
// current BodyStep bytes have already waited; the whole body must arrive
// within Body of the headers (Upload for an upload). Only time spent
// waiting for the client counts: a handler that is slow to start reading
// (a busy server) does not cut off a client whose bytes have arrived.
// Once the body is whole the deadline is lifted, so a finished body is
// never cut off while the handler works on it. A body the handler leaves
// unread is not waited for: the connection is closed after the answer
// (Go's server would otherwise read up to 256 KB of it, with no deadline).
func withDeadlines(h http.Handler, l Limits) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		now := time.Now()
		bodyCap, write := l.Body, l.Write
		upload := isUpload(r)
		if upload {
			bodyCap = l.Upload
		}
		if upload || isDownload(r) {
			write = l.Upload + l.Write
		}
		// An error means a connection without deadlines (a test
		// recorder): there is nothing to bound then.
		_ = rc.SetWriteDeadline(now.Add(write))
		if r.Body == nil || r.Body == http.NoBody {
			h.ServeHTTP(w, r)
			return
		}
		b := &progressBody{ReadCloser: r.Body, rc: rc, l: l, end: now.Add(bodyCap)}
		r.Body = b
		r = r.WithContext(context.WithValue(r.Context(), bodyKey{}, b))
		cw := &closingWriter{ResponseWriter: w, b: b}
		h.ServeHTTP(cw, r)
		b.mu.Lock()
		defer b.mu.Unlock()
		if !b.done {
			// Left unread (a refusal before the body, a handler that
			// stopped early): whatever remains is not read, the
			// connection closes after the answer.
			b.done = true
			_ = rc.SetReadDeadline(time.Now())
		}
	})
}

// closingWriter asks for the connection to be closed after an answer that
// is written before the request's body was read to its end, so that a
// client still sending it (slowly, perhaps) is not waited for.
type closingWriter struct {
	http.ResponseWriter
	b *progressBody
}

func (w *closingWriter) WriteHeader(code int) {
	if !w.b.whole() {
		w.Header().Set("Connection", "close")
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *closingWriter) Write(p []byte) (int, error) {
	if !w.b.whole() && w.Header().Get("Connection") == "" {
		w.Header().Set("Connection", "close")
	}
	return w.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController reach the connection.
func (w *closingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// progressBody is a request body read under deadlines that follow the
// client's progress: each BodyStep bytes earn a new Body of waiting, never
// past end.
type progressBody struct {
	io.ReadCloser
	rc  *http.ResponseController
	l   Limits
	end time.Time
	n   int64
	// mark is n when the current step began; waited is how long reads
	// have waited for the client since.
	mark     int64
	waited   time.Duration
	mu       sync.Mutex
	done     bool // read to its end, or the handler has returned
	timedOut atomic.Bool
}

// whole tells whether the body was read to its end.
func (b *progressBody) whole() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.done
}

func (b *progressBody) Read(p []byte) (int, error) {
	b.mu.Lock()
	if b.done {
		b.mu.Unlock()
		return b.ReadCloser.Read(p)
	}
	start := time.Now()
	deadline := start.Add(b.l.Body - b.waited)
	if deadline.After(b.end) {
		deadline = b.end
	}
	_ = b.rc.SetReadDeadline(deadline)
	b.mu.Unlock()
	n, err := b.ReadCloser.Read(p)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.n += int64(n)
	b.waited += time.Since(start)
	if b.n-b.mark >= b.l.BodyStep {
		b.mark, b.waited = b.n, 0
	}
	switch {
	case err == io.EOF:
		// Whole: no deadline while the handler works on it (Go's server
		// reads the connection meanwhile, to notice a client gone).
		b.done = true
		_ = b.rc.SetReadDeadline(time.Time{})
	case err != nil && !b.done:
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			b.timedOut.Store(true)
		}
	}
	return n, err
}

// healthReserve is how many connections past the per-client bound one
// address may still open for the health checks (/healthz, /readyz) alone:
// an address whose other connections fill the bound is not thereby locked
// out of its health checks.
const healthReserve = 4

// LimitConns closes at once each connection beyond perClient open from one
// address, but for healthReserve more that may only ask for a health check
// (see reserveOnly), one request each.
func LimitConns(ln net.Listener, perClient int) net.Listener {
	return &connLimiter{Listener: ln, max: perClient, open: map[string]int{}}
}

type connLimiter struct {
	net.Listener
	max  int
	mu   sync.Mutex
	open map[string]int
}

func (l *connLimiter) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		host, _, _ := net.SplitHostPort(c.RemoteAddr().String())
		l.mu.Lock()
		if l.open[host] >= l.max+healthReserve {
			l.mu.Unlock()
			c.Close()
			continue
		}
		reserve := l.open[host] >= l.max
		l.open[host]++
		l.mu.Unlock()
		return &limitedConn{Conn: c, l: l, host: host, reserve: reserve}, nil
	}
}

type limitedConn struct {
	net.Conn
	l       *connLimiter
	host    string
	reserve bool // past the bound: health checks only
	once    sync.Once
}

func (c *limitedConn) Close() error {
	c.once.Do(func() {
		c.l.mu.Lock()
		if c.l.open[c.host]--; c.l.open[c.host] <= 0 {
			delete(c.l.open, c.host)
		}
		c.l.mu.Unlock()
	})
	return c.Conn.Close()
}

// reserveKey marks, in a connection's context, one of the health-check
// reserve.
type reserveKey struct{}

// connContext marks the connections of the health-check reserve.
func connContext(ctx context.Context, c net.Conn) context.Context {
	if lc, ok := c.(*limitedConn); ok && lc.reserve {
		return context.WithValue(ctx, reserveKey{}, true)
	}
	return ctx
}

// reserveOnly answers the requests of a reserve connection: a health
// check is served, anything else refused with 503; either way the
// connection is closed after the one answer.
func reserveOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Context().Value(reserveKey{}) == nil {
			h.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Connection", "close")
		if r.Method == http.MethodGet && (r.URL.Path == "/healthz" || r.URL.Path == "/readyz") {
			h.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Retry-After", "10")
		http.Error(w, "Too many connections are open from your address; close some and try again.", http.StatusServiceUnavailable)
	})
}
