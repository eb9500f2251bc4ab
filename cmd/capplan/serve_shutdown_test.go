package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"capplan/web/store"
)

// uploadTemps lists the temporary upload files in the data folder.
func uploadTemps(tb testing.TB, dir string) []string {
	tb.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "files", ".upload-*"))
	if err != nil {
		tb.Fatal(err)
	}
	return names
}

func TestServeRemovesTempFilesACrashLeft(t *testing.T) {
	t.Setenv("CAPPLAN_ADMIN_PASSWORD", "first start password")
	dir := t.TempDir()
	// A first run makes the database and the demo's stored file.
	_, _, _, stop := runServeIn(t, dir)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	kept, _ := filepath.Glob(filepath.Join(dir, "files", "*", "*"))
	if len(kept) == 0 {
		t.Fatal("the demo left no stored file to keep")
	}
	// Then the process dies mid-upload, twice: its temporary files stay.
	for _, name := range []string{".upload-123456", ".upload-987654"} {
		if err := os.WriteFile(filepath.Join(dir, "files", name), make([]byte, 1<<20), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	_, logs, _ := startServe(t, dir)
	if left := uploadTemps(t, dir); len(left) > 0 {
		t.Errorf("left after start: %v", left)
	}
	if !strings.Contains(logs.String(), "removed temporary upload files") || !strings.Contains(logs.String(), `"files":2`) {
		t.Errorf("the removal is not logged:\n%s", logs)
	}
	for _, k := range kept {
		if _, err := os.Stat(k); err != nil {
			t.Errorf("a stored result file went too: %v", err)
		}
	}
}

func TestShutdownCancelsAStuckUploadAndRemovesItsFile(t *testing.T) {
	t.Setenv("CAPPLAN_ADMIN_PASSWORD", "first start password")
	dir := t.TempDir()
	base, logs, _, stop := runServeIn(t, dir)
	defer stop()
	// An API client that starts sending a result file and then stalls.
	st, err := store.Open(context.Background(), filepath.Join(dir, "capplan.db"))
	if err != nil {
		t.Fatal(err)
	}
	admin, err := st.UserByEmail(context.Background(), "admin")
	if err != nil {
		t.Fatal(err)
	}
	tok, err := st.CreateAPIToken(context.Background(), admin.ID, "stuck")
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	defer pw.Close()
	req, _ := http.NewRequest("POST", base+"/api/v1/reports/1/results?name=run.json", pr)
	req.Header.Set("Authorization", "Bearer "+tok)
	go func() {
		if res, err := http.DefaultClient.Do(req); err == nil {
			res.Body.Close()
		}
	}()
	go pw.Write([]byte(`{"benchmarks": [` + strings.Repeat(" ", 256<<10)))
	deadline := time.Now().Add(20 * time.Second)
	for len(uploadTemps(t, dir)) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the upload never started\n%s", logs)
		}
		time.Sleep(10 * time.Millisecond)
	}
	start := time.Now()
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("shutdown took %v with an upload in flight, want under 5 s", took)
	}
	if left := uploadTemps(t, dir); len(left) > 0 {
		t.Errorf("left after shutdown: %v", left)
	}
}
