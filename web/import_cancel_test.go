package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
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

// countingBody counts what the client's transport reads of a request body.
type countingBody struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingBody) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// TestImportOverLimitStopsReading sends a 1 GB result file, generated as it
// is sent, to a server that takes files up to 1 MB: the refusal comes
// after the limit and a bounded drain, not after the whole file.
func TestImportOverLimitStopsReading(t *testing.T) {
	app := newTestApp(t)
	dir := t.TempDir()
	withConfig(t, app, Config{DataDir: dir, MaxUploadBytes: 1 << 20})
	r := frozenReport(t, app)
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		mw.WriteField("version", fmt.Sprint(r.Version))
		part, err := mw.CreateFormFile("files", "huge.json")
		if err == nil {
			err = guidellmgen.Write(part, guidellmgen.Config{Loads: []float64{1, 2, 4, 8}, TargetBytes: 1 << 30})
		}
		if err == nil {
			err = mw.Close()
		}
		pw.CloseWithError(err)
	}()
	defer pr.CloseWithError(errors.New("test over"))
	body := &countingBody{r: pr}
	req, _ := http.NewRequest(http.MethodPost, fmt.Sprintf("%s/reports/%d/imports", app.srv.URL, r.ID), body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	res, err := app.client("lead").Do(req)
	if err != nil {
		t.Fatal(err)
	}
	msg, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(msg), "huge.json is larger than the upload limit") {
		t.Fatalf("status %d, want 413 naming the file", res.StatusCode)
	}
	if sent := body.n.Load(); sent > 100<<20 {
		t.Errorf("the server read %d MB of a refused 1 GB upload, want the 1 MB limit and at most a 64 MB drain", sent>>20)
	}
	assertNoFiles(t, dir)
}
