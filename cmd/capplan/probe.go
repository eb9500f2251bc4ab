package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
)

// runProbe asks a running server whether it is ready (GET /readyz) and
// exits 0 only when it is: the container image's HEALTHCHECK, which has no
// curl to do it.
func runProbe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("probe", "probe [URL]\n\nAsks a running server whether it is ready: GET URL (default: /readyz on\nCAPPLAN_ADDR, 127.0.0.1:8080) must answer 200 within --timeout.", stderr)
	timeout := fs.Duration("timeout", 5*time.Second, "how long to wait for the answer")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() > 1 {
		fs.Usage()
		return fmt.Errorf("probe: one URL at most")
	}
	url := fs.Arg(0)
	if url == "" {
		url = "http://" + localAddr(env("CAPPLAN_ADDR", "127.0.0.1:8080")) + "/readyz"
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("probe: %w", err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("probe: %w", err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("probe: %s answered %s: %s", url, res.Status, strings.TrimSpace(string(body)))
	}
	fmt.Fprintf(stdout, "%s: %s\n", url, strings.TrimSpace(string(body)))
	return nil
}

// localAddr turns a listen address into one to dial on this host: an
// unspecified host (":8080", "0.0.0.0:8080", "[::]:8080") becomes 127.0.0.1.
func localAddr(listen string) string {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return listen
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}
