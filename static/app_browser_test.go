package static_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"capplan/static"
	"capplan/web/browsertest"
)

var uploadPage = fmt.Sprintf(`<!doctype html>
<html><head><meta charset="utf-8"><title>upload</title>
<script src="%s"></script>
<script src="%s" defer></script>
</head><body>
<form class="upload" data-upload data-target="#result" action="/upload" method="post" enctype="multipart/form-data">
  <label class="dropzone">Drop files <input type="file" name="files" multiple></label>
  <progress></progress>
</form>
<div id="result"></div>
</body></html>`, static.Path("vendor/htmx/htmx.min.js"), static.Path("app.js"))

// TestUploadForm posts a chosen file through app.js and swaps the reply
// into data-target; a rejected file shows the server's error text.
func TestUploadForm(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static.FS)))
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", "script-src 'self'")
		io.WriteString(w, uploadPage)
	})
	mux.HandleFunc("POST /upload", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("HX-Request") != "true" {
			http.Error(w, "not an htmx-style request", http.StatusBadRequest)
			return
		}
		f, h, err := r.FormFile("files")
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		if string(b) == "bad" {
			http.Error(w, "cannot read "+h.Filename, http.StatusUnprocessableEntity)
			return
		}
		fmt.Fprintf(w, `<p class="flash ok">got %s (%d bytes)</p>`, h.Filename, len(b))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	dir := t.TempDir()
	good := filepath.Join(dir, "run.json")
	bad := filepath.Join(dir, "broken.json")
	os.WriteFile(good, []byte(`{"ok":true}`), 0o644)
	os.WriteFile(bad, []byte("bad"), 0o644)

	ctx := browsertest.New(t)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/"),
		chromedp.SetUploadFiles(chromedp.CSS(`input[type="file"]`), []string{good}),
		browsertest.WaitText("#result .flash.ok", "got run.json (11 bytes)"),
		chromedp.SetUploadFiles(chromedp.CSS(`input[type="file"]`), []string{bad}),
		browsertest.WaitText("#result .flash.error", "cannot read broken.json"),
	); err != nil {
		t.Fatal(err)
	}
	// The 422 shows up as a failed resource load; nothing else may.
	for _, e := range browsertest.ConsoleErrors(ctx) {
		if !strings.Contains(e, "422") {
			t.Errorf("console error: %s", e)
		}
	}
}
