package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"capplan/web/demogen/guidellmgen"
)

// TestUploadStopsWhenTheClientGoes sends a result file of 8 GB, generated as
// it is sent, to the API and goes away in the middle: the server stops
// reading and parsing within a second and removes the file's temporary
// copy from its data folder.
func TestUploadStopsWhenTheClientGoes(t *testing.T) {
	app := newTestApp(t)
	ctx := context.Background()
	lead := app.users["lead"]
	id, err := app.store.CreateReport(ctx, lead, "uploads")
	if err != nil {
		t.Fatal(err)
	}
	tok, err := app.store.CreateAPIToken(ctx, lead.ID, "upload")
	if err != nil {
		t.Fatal(err)
	}
	dataDir := t.TempDir()
	s := newServer(app.store, slog.New(slog.NewTextHandler(io.Discard, nil)), Config{DataDir: dataDir})
	srv := httptest.NewServer(s.handler())
	defer srv.Close()

	pr, pw := io.Pipe()
	go func() {
		pw.CloseWithError(guidellmgen.Write(pw, guidellmgen.Config{Loads: []float64{1, 2, 4, 8}, TargetBytes: 8 << 30}))
	}()
	defer pr.CloseWithError(errors.New("test over"))
	reqCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	req, _ := http.NewRequestWithContext(reqCtx, http.MethodPost, fmt.Sprintf("%s/api/v1/reports/%d/results?name=big.json", srv.URL, id), pr)
	req.Header.Set("Authorization", "Bearer "+tok)
	req.ContentLength = -1
	answered := make(chan struct{})
	go func() {
		defer close(answered)
		if res, err := http.DefaultClient.Do(req); err == nil {
			res.Body.Close()
			t.Errorf("the upload was answered %d before the client left", res.StatusCode)
		}
	}()

	temps := func() []string {
		m, _ := filepath.Glob(filepath.Join(dataDir, ".upload-*"))
		return m
	}
	deadline := time.Now().Add(time.Minute)
	for { // wait until the server holds a few MB of the file
		if m := temps(); len(m) == 1 {
			if fi, err := filepathStat(m[0]); err == nil && fi > 4<<20 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no upload under way after a minute: %v", temps())
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	<-answered
	left := time.Now()
	for len(temps()) > 0 {
		if time.Since(left) > 10*time.Second {
			t.Fatalf("the temporary file is still there 10 s after the client left: %v", temps())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if took := time.Since(left); took > time.Second {
		t.Errorf("the server stopped %v after the client left, want within 1 s", took)
	}
	if n, err := app.store.Imports(ctx, id); err != nil || len(n) != 0 {
		t.Errorf("imports after a cut upload: %v %v", n, err)
	}
	if r, _ := app.store.Report(ctx, id); r.Version != 1 {
		t.Errorf("report version %d after a cut upload", r.Version)
	}
}

func filepathStat(name string) (int64, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}
