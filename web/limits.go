package web

import (
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
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
		Handler:           withDeadlines(h, l),
		ReadHeaderTimeout: l.Header,
		IdleTimeout:       l.Idle,
	}
}

// isUpload tells the routes whose bodies are files: results, candidate
// results and evidence (not the evidence's remove and accept forms).
func isUpload(r *http.Request) bool {
	if r.Method != http.MethodPost {
		return false
	}
	p := r.URL.Path
	switch {
	case strings.HasSuffix(p, "/imports"), strings.HasSuffix(p, "/results"):
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

// withDeadlines bounds each request: its answer by a write deadline on
// the connection, its body by a timer that moves on with the body's
// progress and, when it runs out before the body is whole, ends the
// body's read (a read deadline set to now). Once the body is whole or the
// handler has returned the timer is stopped, so a finished body is never
// cut off while the handler works on it.
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
		if r.Body != nil && r.Body != http.NoBody {
			b := &progressBody{ReadCloser: r.Body, rc: rc, l: l, end: now.Add(bodyCap)}
			b.timer = time.AfterFunc(min(l.Body, bodyCap), b.expire)
			defer b.stop()
			r.Body = b
		}
		h.ServeHTTP(w, r)
	})
}

// progressBody is a request body whose timer is moved on each time
// BodyStep more bytes have arrived, never past end.
type progressBody struct {
	io.ReadCloser
	rc    *http.ResponseController
	l     Limits
	end   time.Time
	n     int64
	mark  int64
	mu    sync.Mutex
	timer *time.Timer
	done  bool
}

// expire ends the body's read: the client was too slow.
func (b *progressBody) expire() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.done {
		_ = b.rc.SetReadDeadline(time.Now())
	}
}

func (b *progressBody) stop() {
	b.mu.Lock()
	b.done = true
	b.mu.Unlock()
	b.timer.Stop()
}

func (b *progressBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n += int64(n)
	if err == io.EOF {
		b.stop()
		return n, err
	}
	if err == nil && b.n-b.mark >= b.l.BodyStep {
		b.mark = b.n
		next := min(b.l.Body, time.Until(b.end))
		b.timer.Reset(max(next, 0))
	}
	return n, err
}

// LimitConns closes at once each connection beyond perClient open from one
// address.
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
		if l.open[host] >= l.max {
			l.mu.Unlock()
			c.Close()
			continue
		}
		l.open[host]++
		l.mu.Unlock()
		return &limitedConn{Conn: c, l: l, host: host}, nil
	}
}

type limitedConn struct {
	net.Conn
	l    *connLimiter
	host string
	once sync.Once
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
