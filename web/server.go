// Package web is capplan's HTTP side: Echo handlers (one screen or action
// per file), templ components, the session and API-token auth, and the
// rendering of planner results as pages, JSON and XLSX.
package web

//go:generate go tool templ generate -path ..

import (
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"time"

	"github.com/labstack/echo/v4"

	"capplan/web/metrics"
	"capplan/web/reports"
	"capplan/web/store"
)

// Config holds what the server needs to know about its deployment.
type Config struct {
	// SecureCookies marks cookies Secure; set it when serving behind TLS.
	SecureCookies bool
	// MaxUploadBytes limits one uploaded result file; 0 means 2 GiB.
	MaxUploadBytes int64
	// DataDir holds the raw result files, content-addressed by sha256.
	DataDir string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// TrustedProxies are the reverse proxies whose X-Forwarded-For header
	// names the client. Without any, the client is the connection's peer
	// and the header is ignored (anyone can write it).
	TrustedProxies []netip.Prefix
	// MetricsToken, when set, must be sent as "Authorization: Bearer <token>"
	// to read /metrics.
	MetricsToken string
}

// Server holds the handlers' dependencies.
type Server struct {
	store  *store.Store
	svc    *reports.Service // report loading, imports, export, review steps
	log    *slog.Logger
	cfg    Config
	logins *loginThrottle // failed logins per client address
	// metrics counts requests and imports for /metrics.
	metrics *metrics.Metrics
	pages   *pageCache // report pages kept while nothing changes
	writes  *ownWrites // each session's last change, for pages
	auth    *authCache // sessions' and tokens' users while nothing changes
}

// New returns the application's HTTP handler: the Echo router wrapped in
// cross-origin request protection.
func New(st *store.Store, log *slog.Logger, cfg Config) http.Handler {
	return newServer(st, log, cfg).handler()
}

// newServer returns the server with New's defaults filled in.
func newServer(st *store.Store, log *slog.Logger, cfg Config) *Server {
	if cfg.MaxUploadBytes == 0 {
		cfg.MaxUploadBytes = 2 << 30
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Server{store: st, svc: reports.New(st, cfg.DataDir, cfg.Now), log: log, cfg: cfg, logins: newLoginThrottle(),
		pages: newPageCache(pageCacheBytes, pageCacheMaxPage), writes: newOwnWrites(), auth: newAuthCache()}
}

// handler is the server's HTTP handler (see New).
func (s *Server) handler() http.Handler {
	e := s.echo()
	// CSRF: browsers send Sec-Fetch-Site (or Origin) with every request;
	// state-changing requests from another origin are refused. Requests
	// without either header (curl, the API clients) are not browser-driven
	// and pass; the API authenticates them by token instead of cookie.
	csrf := http.NewCrossOriginProtection()
	// The API authenticates by token, never by cookie, so a cross-site
	// request gains nothing there; its clients get JSON errors instead.
	csrf.AddInsecureBypassPattern("/api/")
	return csrf.Handler(e)
}

// echo builds the router with every route and the error handler.
func (s *Server) echo() *echo.Echo {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = s.handleError
	e.IPExtractor = clientAddr(s.cfg.TrustedProxies)
	if s.metrics == nil {
		s.metrics = metrics.New(metrics.Probes{DatabaseBytes: s.store.Size, ActiveSessions: s.store.ActiveSessions, KeptViews: s.pages.stats})
	}
	s.routes(e)
	return e
}

// clientAddr is how c.RealIP finds the client: the connection's peer, or,
// when that peer is one of the trusted proxies, the nearest address in
// X-Forwarded-For that is not itself a trusted proxy.
func clientAddr(trusted []netip.Prefix) echo.IPExtractor {
	if len(trusted) == 0 {
		return echo.ExtractIPDirect()
	}
	// Echo trusts loopback and private ranges by default; here only what
	// was configured counts.
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, p := range trusted {
		p = p.Masked()
		opts = append(opts, echo.TrustIPRange(&net.IPNet{IP: p.Addr().AsSlice(), Mask: net.CIDRMask(p.Bits(), p.Addr().BitLen())}))
	}
	return echo.ExtractIPFromXFFHeader(opts...)
}
