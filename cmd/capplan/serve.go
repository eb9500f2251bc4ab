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
	"path/filepath"
	"time"

	"capplan/web"
	"capplan/web/store"
)

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	start := time.Now()
	fs := newFlags("serve", "serve [--addr HOST:PORT] [--db FILE] [--no-demo] [--secure-cookies] [--max-upload-mb N]", stderr)
	addr := fs.String("addr", env("CAPPLAN_ADDR", "127.0.0.1:8080"), "listen address (env CAPPLAN_ADDR)")
	dbPath := fs.String("db", defaultDB(), "SQLite database file, created if missing (env CAPPLAN_DB)")
	noDemo := fs.Bool("no-demo", false, "do not seed the demo report into an empty database")
	secure := fs.Bool("secure-cookies", env("CAPPLAN_SECURE_COOKIES", "") != "", "mark cookies Secure (behind TLS; env CAPPLAN_SECURE_COOKIES)")
	maxUpload := fs.Int64("max-upload-mb", 2048, "largest result file accepted, in MB")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))

	st, err := store.Open(ctx, *dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := ensureAdmin(ctx, st, log); err != nil {
		return err
	}
	dataDir := filepath.Join(filepath.Dir(*dbPath), "files")
	if !*noDemo {
		if err := web.SeedDemo(ctx, st, dataDir); err != nil {
			return fmt.Errorf("seed demo report: %w", err)
		}
	}
	h := web.New(st, log, web.Config{SecureCookies: *secure, MaxUploadBytes: *maxUpload << 20, DataDir: dataDir})

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	log.Info("capplan ready: open the url and log in (the first account is \"admin\"; `capplan user add` creates others)",
		"url", "http://"+ln.Addr().String(), "db", *dbPath, "startup", time.Since(start).Round(time.Millisecond))
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
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
