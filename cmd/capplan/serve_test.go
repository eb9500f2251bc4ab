package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"capplan/web/store"
)

// syncBuffer is a bytes.Buffer safe for the server's log writer and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func freeAddr(tb testing.TB) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startServe runs `capplan serve` on the database in dir and waits until it
// answers; it returns the base URL, the log and the time to ready. The
// server stops when the test ends.
func startServe(tb testing.TB, dir string) (string, *syncBuffer, time.Duration) {
	tb.Helper()
	base, logs, ready, stop := runServeIn(tb, dir)
	tb.Cleanup(func() {
		if err := stop(); err != nil {
			tb.Errorf("serve: %v", err)
		}
	})
	return base, logs, ready
}

// runServeIn starts `capplan serve` like startServe and returns stop,
// which sends the shutdown signal and waits for serve to return.
func runServeIn(tb testing.TB, dir string) (base string, logs *syncBuffer, ready time.Duration, stop func() error) {
	tb.Helper()
	addr := freeAddr(tb)
	ctx, cancel := context.WithCancel(context.Background())
	logs = &syncBuffer{}
	done := make(chan error, 1)
	start := time.Now()
	go func() {
		done <- run(ctx, []string{"serve", "--addr", addr, "--db", filepath.Join(dir, "capplan.db")}, io.Discard, logs)
	}()
	stopped := false
	stop = func() error {
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		return <-done
	}
	base = "http://" + addr
	for {
		res, err := http.Get(base + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return base, logs, time.Since(start), stop
			}
		}
		select {
		case err := <-done:
			cancel()
			tb.Fatalf("serve stopped: %v\n%s", err, logs.String())
		case <-time.After(5 * time.Millisecond):
		}
		if time.Since(start) > 30*time.Second {
			stop()
			tb.Fatalf("not ready after 30 s\n%s", logs.String())
		}
	}
}

func TestServeFirstStartCreatesAdminAndDemo(t *testing.T) {
	t.Setenv("CAPPLAN_ADMIN_PASSWORD", "first start password")
	base, logs, _ := startServe(t, t.TempDir())
	if !strings.Contains(logs.String(), "created the admin account") {
		t.Errorf("log does not say the admin was created:\n%s", logs)
	}
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	res, err := c.PostForm(base+"/login", url.Values{"email": {"admin"}, "password": {"first start password"}})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "Demo: support assistant") {
		t.Fatalf("after login: %d, demo report missing", res.StatusCode)
	}
}

func TestServeRandomAdminPasswordIsPrintedOnce(t *testing.T) {
	t.Setenv("CAPPLAN_ADMIN_PASSWORD", "")
	_, logs, _ := startServe(t, t.TempDir())
	if !strings.Contains(logs.String(), `"password":"`) {
		t.Errorf("no generated password in the log:\n%s", logs)
	}
}

func TestUserAddAndBackup(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "c.db")
	var out bytes.Buffer
	err := run(context.Background(), []string{"user", "add", "--db", db, "--email", "ann@example.com", "--role", "lead"}, &out, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "added ann@example.com as lead") || !strings.Contains(out.String(), "password (shown once): ") {
		t.Errorf("output: %s", out.String())
	}
	err = run(context.Background(), []string{"user", "add", "--db", db, "--email", "bob@example.com", "--role", "boss"}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "role") {
		t.Errorf("bad role accepted: %v", err)
	}
	archive := filepath.Join(dir, "backup.tar")
	if err := run(context.Background(), []string{"backup", "--db", db, "-o", archive}, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	cp := filepath.Join(dir, "restored", "c.db")
	if err := run(context.Background(), []string{"restore", archive, "--db", cp}, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), cp)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.UserByEmail(context.Background(), "ann@example.com"); err != nil {
		t.Errorf("backup lacks the user: %v", err)
	}
}

func TestHelpOnEverySubcommand(t *testing.T) {
	for name := range commands {
		t.Run(name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			args := []string{name, "--help"}
			if name == "user" {
				args = []string{"user", "add", "--help"}
			}
			if err := run(context.Background(), args, &out, &errOut); err != nil {
				t.Fatalf("--help: %v", err)
			}
			if !strings.Contains(strings.ToLower(out.String()+errOut.String()), "usage: capplan "+name) {
				t.Errorf("no usage for %s:\n%s%s", name, out.String(), errOut.String())
			}
		})
	}
}

// BenchmarkStartToReady measures a first start on an empty database:
// migrations, the admin account, the demo report, then the first answer.
//
//	go test -run '^$' -bench StartToReady -benchtime 5x ./cmd/capplan
func BenchmarkStartToReady(b *testing.B) {
	b.Setenv("CAPPLAN_ADMIN_PASSWORD", "bench start password")
	var total time.Duration
	for i := 0; i < b.N; i++ {
		_, _, d := startServe(b, b.TempDir())
		total += d
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms-to-ready")
}

func TestStrayArgumentsAndMissingDatabaseAreRefused(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"serve", "extra", "--db", filepath.Join(dir, "x.db")},
		{"backup", "--db", filepath.Join(dir, "typo.db"), "-o", filepath.Join(dir, "b.db")},
		{"export", "--report", "1", "--db", filepath.Join(dir, "typo.db"), "-o", filepath.Join(dir, "x.xlsx")},
		{"user", "add", "--email", "a@example.com", "stray", "--role", "lead", "--db", filepath.Join(dir, "u.db")},
		{"user", "remove"},
	} {
		if err := run(context.Background(), args, io.Discard, io.Discard); err == nil {
			t.Errorf("%v: accepted", args)
		}
	}
	for _, f := range []string{"x.db", "typo.db"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s was created", f)
		}
	}
}

func TestFlagsMayFollowFileNames(t *testing.T) {
	var out bytes.Buffer
	err := run(context.Background(), []string{"inspect", "../../../shared/benchmarks/llmperf/ray-project__llmperf-leaderboard__together_70b.json", "--json"}, &out, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(strings.TrimSpace(out.String()), "{") {
		t.Errorf("--json after the file was not taken as a flag:\n%.200s", out.String())
	}
}
