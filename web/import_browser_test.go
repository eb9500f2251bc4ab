package web

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"capplan/web/browsertest"
	"capplan/web/demogen/guidellmgen"
)

// TestBrowserImportUpload: a lead opens a frozen report, drops a generated
// five-row GuideLLM run on the upload form, watches the progress finish
// and sees the import listed with its rows, their warnings and sources.
func TestBrowserImportUpload(t *testing.T) {
	app := newTestApp(t)
	r := frozenReport(t, app)

	// A run of another model than the contract's: every row is warned.
	path := filepath.Join(t.TempDir(), "guidellm-run.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := guidellmgen.Write(f, guidellmgen.Config{Model: "mistralai/Mistral-7B-Instruct-v0.3"}); err != nil {
		t.Fatal(err)
	}
	f.Close()

	// Keeps the upload's progress bar and reports its value once the
	// request has finished.
	const watchProgress = `(() => {
		window.uploadProgress = -1;
		const send = XMLHttpRequest.prototype.send;
		XMLHttpRequest.prototype.send = function (body) {
			const bar = document.querySelector('form.upload progress');
			this.addEventListener('loadend', () => { window.uploadProgress = bar ? bar.value : -2; });
			return send.call(this, body);
		};
		return true;
	})()`

	ctx := browsertest.New(t)
	report := fmt.Sprintf("%s/reports/%d/results", app.srv.URL, r.ID)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.srv.URL+"/login"),
		chromedp.SendKeys(css(`input[name="email"]`), app.users["lead"].Email),
		chromedp.SendKeys(css(`input[name="password"]`), testPassword),
		chromedp.Click(css(`[data-testid="login-submit"]`)),
		browsertest.WaitText(`h1`, "Reports"),
		chromedp.Navigate(report),
		browsertest.WaitText(`[data-testid="no-imports"]`, "No results imported yet."),
	); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](watchProgress)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.SetUploadFiles(css(`[data-testid="upload-input"]`), []string{path}),
		browsertest.WaitText(`[data-testid="import-result"]`, "Added 5 rows from 1 file."),
		browsertest.WaitText(`[data-testid="import-file"]`, "guidellm-run.json"),
		browsertest.WaitText(`[data-testid="import-rows"]`, "5 rows"),
		browsertest.WaitText(`[data-testid="row-warning-lines"]`, "The file's model is mistralai/Mistral-7B-Instruct-v0.3; the contract names meta-llama/Llama-3.1-8B-Instruct. (5 rows)"),
		// The sections the rows change are swapped in without a reload.
		chromedp.WaitVisible(css(`#matrix [data-testid="matrix-row-4"]`)),
		browsertest.WaitText(`[data-testid="last-change"]`, "results imported"),
	); err != nil {
		t.Fatal(err)
	}
	progress, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`window.uploadProgress`))
	if err != nil || progress != 100 {
		t.Errorf("progress at the end %v (%v), want 100", progress, err)
	}

	// Open the rows, see a row's warning and its sources.
	if err := chromedp.Do(ctx,
		chromedp.Click(css(`[data-testid="row-warnings"]`)),
		browsertest.WaitText(`[data-testid="import-row"]`, "concurrency 1"),
		browsertest.WaitText(`[data-testid="import-row"]`, "the contract names meta-llama/Llama-3.1-8B-Instruct"),
		chromedp.Click(css(`[data-testid="show-sources"]`)),
		browsertest.WaitText(`[data-testid="provenance"]`, "ttft_s.p95"),
	); err != nil {
		t.Fatal(err)
	}
	for _, e := range browsertest.ConsoleErrors(ctx) {
		t.Errorf("console: %s", e)
	}

	// The same file again is refused with a pointer to the first import.
	if err := chromedp.Do(ctx,
		chromedp.SetUploadFiles(css(`[data-testid="upload-input"]`), []string{path}),
		browsertest.WaitText(`[data-testid="import-result"]`, "already imported"),
		browsertest.WaitText(`[data-testid="duplicate-link"]`, "See import #"),
	); err != nil {
		t.Fatal(err)
	}
	for _, e := range browsertest.ConsoleErrors(ctx) {
		if !strings.Contains(e, "409") {
			t.Errorf("console: %s", e)
		}
	}
}
