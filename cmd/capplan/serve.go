package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"capplan/web"
	"capplan/web/reports"
	"capplan/web/store"
)

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	start := time.Now()
	fs := newFlags("serve", "serve [--addr HOST:PORT] [--db FILE] [--no-demo] [--secure-cookies] [--max-upload-mb N] [--trusted-proxy ADDR[,ADDR...]] [--metrics-token T]", stderr)
	addr := fs.String("addr", env("CAPPLAN_ADDR", "127.0.0.1:8080"), "listen address (env CAPPLAN_ADDR)")
	dbPath := fs.String("db", defaultDB(), "SQLite database file, created if missing (env CAPPLAN_DB)")
	noDemo := fs.Bool("no-demo", false, "do not seed the demo report into an empty database")
	secure := fs.Bool("secure-cookies", env("CAPPLAN_SECURE_COOKIES", "") != "", "mark cookies Secure (behind TLS; env CAPPLAN_SECURE_COOKIES)")
	maxUpload := fs.Int64("max-upload-mb", 2048, "largest result file accepted, in MB")
	proxies := fs.String("trusted-proxy", env("CAPPLAN_TRUSTED_PROXY", ""), "reverse proxies (IP addresses or CIDR ranges, comma-separated) whose X-Forwarded-For names the client; without one the header is ignored (env CAPPLAN_TRUSTED_PROXY)")
	metricsToken := fs.String("metrics-token", env("CAPPLAN_METRICS_TOKEN", ""), "when set, /metrics asks for \"Authorization: Bearer TOKEN\" (env CAPPLAN_METRICS_TOKEN)")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	trusted, err := parsePrefixes(*proxies)
	if err != nil {
		return fmt.Errorf("--trusted-proxy: %w", err)
	}
	// Structured logs: one JSON object a line, each request's with its id.
	log := slog.New(slog.NewJSONHandler(stderr, nil))

	st, err := store.Open(ctx, *dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := ensureAdmin(ctx, st, log); err != nil {
		return err
	}
	dataDir := filepath.Join(filepath.Dir(*dbPath), "files")
	// Uploads that a crash or kill cut short left their temporary files.
	removeTempFiles(log, dataDir)
	defer removeTempFiles(log, dataDir)
	if !*noDemo {
		if err := web.SeedDemo(ctx, st, dataDir); err != nil {
			return fmt.Errorf("seed demo report: %w", err)
		}
	}
	h := web.New(st, log, web.Config{SecureCookies: *secure, MaxUploadBytes: *maxUpload << 20, DataDir: dataDir, TrustedProxies: trusted, MetricsToken: *metricsToken})

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	// Every request's context derives from reqCtx, so that shutdown can
	// cancel the requests still running (long imports) after a grace.
	reqCtx, cancelRequests := context.WithCancel(context.Background())
	defer cancelRequests()
	var inflight sync.WaitGroup
	// Timeouts and the bound on connections per client: web.DefaultLimits.
	srv := web.NewHTTPServer(trackRequests(&inflight, h), web.DefaultLimits)
	srv.BaseContext = func(net.Listener) context.Context { return reqCtx }
	ln = web.LimitConns(ln, web.DefaultLimits.PerClient)
	log.Info("capplan ready: open the url and log in (the first account is \"admin\"; `capplan user add` creates others)",
		"url", "http://"+ln.Addr().String(), "db", *dbPath, "startup", time.Since(start).Round(time.Millisecond).String())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	return shutdown(log, srv, cancelRequests, &inflight)
}

// Shutdown: requests in flight get shutdownGrace to finish; then their
// contexts are canceled and their connections closed (an import stops and
// removes its temporary file), and they get shutdownDrain to return.
const (
	shutdownGrace = 2 * time.Second
	shutdownDrain = 2 * time.Second
)

func shutdown(log *slog.Logger, srv *http.Server, cancelRequests context.CancelFunc, inflight *sync.WaitGroup) error {
	ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	err := srv.Shutdown(ctx)
	if err == nil || errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	log.Warn("requests still running at shutdown: canceling them")
	cancelRequests()
	srv.Close()
	done := make(chan struct{})
	go func() { inflight.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(shutdownDrain):
		log.Warn("requests did not stop in time after cancel")
	}
	return nil
}

// trackRequests counts the requests in flight in wg.
func trackRequests(wg *sync.WaitGroup, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		wg.Add(1)
		defer wg.Done()
		h.ServeHTTP(w, r)
	})
}

// removeTempFiles deletes what uploads cut short left in the data folder.
func removeTempFiles(log *slog.Logger, dataDir string) {
	n, size, err := reports.RemoveTempFiles(dataDir)
	if err != nil {
		log.Warn("removing temporary upload files", "dir", dataDir, "err", err)
	}
	if n > 0 {
		log.Info("removed temporary upload files", "files", n, "bytes", size)
	}
}

// parsePrefixes reads a comma-separated list of IP addresses and CIDR
// ranges.
func parsePrefixes(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("%q is neither an IP address nor a CIDR range", f)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

// ensureAdmin creates the admin account on first start: the password comes
// from CAPPLAN_ADMIN_PASSWORD, else a random one is printed once.
func ensureAdmin(ctx context.Context, st *store.Store, log *slog.Logger) error {
	n, err := st.CountUsers(ctx)
	if err != nil || n > 0 {
		return err
	}
	pw := env("CAPPLAN_ADMIN_PASSWORD", "")
	generated := pw == ""
	if generated {
		b := make([]byte, 12)
		rand.Read(b)
		pw = base64.RawURLEncoding.EncodeToString(b)
	}
	if _, err := st.CreateUser(ctx, "admin", "Administrator", store.RoleAdmin, pw); err != nil {
		return fmt.Errorf("create admin: %w", err)
	}
	if generated {
		log.Warn("created the admin account; this password is shown once", "email", "admin", "password", pw)
	} else {
		log.Info("created the admin account with CAPPLAN_ADMIN_PASSWORD", "email", "admin")
	}
	return nil
}
