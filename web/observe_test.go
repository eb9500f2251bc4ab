package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// lockedBuffer collects log lines from the server's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// scrape reads /metrics and returns the value of the series named exactly
// by series (name and labels as the exposition writes them); -1 when absent.
func scrape(t *testing.T, base, token, series string) float64 {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+"/metrics", nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("/metrics: %d %s", res.StatusCode, b)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, series+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			return f
		}
	}
	return -1
}

func TestMetricsCountImportsRequestsAndSessions(t *testing.T) {
	app := newTestApp(t)
	ctx := context.Background()
	logs := &lockedBuffer{}
	app.srv.Close()
	app.srv = httptest.NewServer(New(app.store, slog.New(slog.NewJSONHandler(logs, nil)), Config{DataDir: t.TempDir(), MetricsToken: "scrape-me"}))
	t.Cleanup(app.srv.Close)
	base := app.srv.URL

	// Behind the token.
	res, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("/metrics without the token: %d", res.StatusCode)
	}

	const imported = `capplan_imports_total{format="guidellm",outcome="imported"}`
	const unreadable = `capplan_imports_total{format="unknown",outcome="unreadable"}`
	const bytesIn = `capplan_import_bytes_total{format="guidellm"}`
	const created = `capplan_http_request_duration_seconds_count{method="POST",route="/api/v1/reports/:id/results",status="201"}`
	for _, s := range []string{imported, unreadable, bytesIn, created} {
		if v := scrape(t, base, "scrape-me", s); v > 0 {
			t.Fatalf("%s is %v before any import", s, v)
		}
	}

	r := frozenReport(t, app)
	tok, err := app.store.CreateAPIToken(ctx, app.users["lead"].ID, "ci")
	if err != nil {
		t.Fatal(err)
	}
	f := readUpload(t, benchGuideLLM)
	res, body := apiPost(t, app, tok, fmt.Sprintf("/api/v1/reports/%d/results?name=%s", r.ID, f.name), "application/json", f.data)
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("import: %d %s", res.StatusCode, body)
	}
	res, _ = apiPost(t, app, tok, fmt.Sprintf("/api/v1/reports/%d/results?name=notes.json", r.ID), "application/json", []byte(`{"hello": "world"}`))
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("unreadable file: %d", res.StatusCode)
	}
	app.client("reviewer") // one browser session

	if v := scrape(t, base, "scrape-me", imported); v != 1 {
		t.Errorf("%s = %v, want 1", imported, v)
	}
	if v := scrape(t, base, "scrape-me", unreadable); v != 1 {
		t.Errorf("%s = %v, want 1", unreadable, v)
	}
	if v := scrape(t, base, "scrape-me", bytesIn); v != float64(len(f.data)) {
		t.Errorf("%s = %v, want %d", bytesIn, v, len(f.data))
	}
	if v := scrape(t, base, "scrape-me", created); v != 1 {
		t.Errorf("%s = %v, want 1", created, v)
	}
	if v := scrape(t, base, "scrape-me", "capplan_active_sessions"); v < 1 {
		t.Errorf("capplan_active_sessions = %v after a login", v)
	}
	if v := scrape(t, base, "scrape-me", "capplan_database_bytes"); v < 4096 {
		t.Errorf("capplan_database_bytes = %v", v)
	}

	// The report page twice: rendered, then kept.
	rev := app.client("reviewer")
	for range 2 {
		if res, _ := do(t, rev, "GET", fmt.Sprintf("%s/reports/%d/print", base, r.ID), nil); res.StatusCode != http.StatusOK {
			t.Fatalf("report page: %d", res.StatusCode)
		}
	}
	for served, want := range map[string]float64{"rendered": 1, "kept": 1} {
		if v := scrape(t, base, "scrape-me", `capplan_report_views_total{served="`+served+`"}`); v != want {
			t.Errorf("report views %s = %v, want %v", served, v, want)
		}
	}
	if v := scrape(t, base, "scrape-me", "capplan_report_views_kept_bytes"); v < 10000 {
		t.Errorf("capplan_report_views_kept_bytes = %v after a report page", v)
	}

	// Every request is one JSON log line with its id, route and status.
	var line map[string]any
	for _, l := range strings.Split(logs.String(), "\n") {
		if strings.Contains(l, `"route":"/api/v1/reports/:id/results"`) && strings.Contains(l, `"status":201`) {
			if err := json.Unmarshal([]byte(l), &line); err != nil {
				t.Fatalf("not JSON: %s", l)
			}
		}
	}
	if line == nil || line["msg"] != "request" || !regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString(fmt.Sprint(line["request_id"])) || line["duration_ms"] == nil {
		t.Errorf("no request log line for the import:\n%s", logs.String())
	}
}

func TestRequestIDIsKeptOrMadeUp(t *testing.T) {
	app := newTestApp(t)
	req, _ := http.NewRequest(http.MethodGet, app.srv.URL+"/login", nil)
	req.Header.Set("X-Request-Id", "proxy-42.a")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if got := res.Header.Get("X-Request-Id"); got != "proxy-42.a" {
		t.Errorf("a proxy's request id came back as %q", got)
	}
	req.Header.Set("X-Request-Id", "<script>")
	res, _ = http.DefaultClient.Do(req)
	res.Body.Close()
	if got := res.Header.Get("X-Request-Id"); len(got) != 16 {
		t.Errorf("an unusable request id was not replaced: %q", got)
	}
}

func TestReadyz(t *testing.T) {
	app := newTestApp(t)
	get := func() (int, map[string]any) {
		res, err := http.Get(app.srv.URL + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var doc map[string]any
		json.NewDecoder(res.Body).Decode(&doc)
		return res.StatusCode, doc
	}
	status, doc := get()
	checks, _ := doc["checks"].(map[string]any)
	if status != http.StatusOK || doc["status"] != "ready" || checks["database"] != "writable" || checks["migrations"] != "current" || checks["files"] != "writable" {
		t.Errorf("readyz: %d %v", status, doc)
	}
	if pending, err := app.store.PendingMigrations(context.Background()); err != nil || len(pending) > 0 {
		t.Errorf("pending migrations %v %v", pending, err)
	}

	// A data folder that cannot be created (a file is in the way): not ready, saying why.
	blocker := filepath.Join(t.TempDir(), "file")
	os.WriteFile(blocker, nil, 0o600)
	withConfig(t, app, Config{DataDir: filepath.Join(blocker, "files")})
	status, doc = get()
	checks, _ = doc["checks"].(map[string]any)
	if status != http.StatusServiceUnavailable || doc["status"] != "not ready" || !strings.HasPrefix(fmt.Sprint(checks["files"]), "failing:") {
		t.Errorf("readyz with an unusable data folder: %d %v", status, doc)
	}
}
