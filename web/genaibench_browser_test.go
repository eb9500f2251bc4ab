package web

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"capplan/web/browsertest"
	"capplan/web/demogen/genaibenchgen"
)

// TestBrowserGenAIBenchFolder: a lead picks a genai-bench experiment
// folder's files (the metadata and two runs) in the upload form and sees
// one row per concurrency, of the experiment's model, each with its goodput
// (successful in-objective req/s from the per-request records), without the
// metadata file listed as an import of its own.
func TestBrowserGenAIBenchFolder(t *testing.T) {
	app := newTestApp(t)
	r := frozenReport(t, app)
	dir := t.TempDir()
	folder := genaibenchgen.Folder("ms", "sk-proj-browserSECRET0123456789", 120, 0, 1, 4)
	var paths []string
	for _, n := range genaibenchgen.Names(folder) {
		p := filepath.Join(dir, n)
		if err := os.WriteFile(p, folder[n], 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	ctx := browsertest.New(t)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.srv.URL+"/login"),
		chromedp.SendKeys(css(`input[name="email"]`), app.users["lead"].Email),
		chromedp.SendKeys(css(`input[name="password"]`), testPassword),
		chromedp.Click(css(`[data-testid="login-submit"]`)),
		browsertest.WaitText(`h1`, "Reports"),
		chromedp.Navigate(fmt.Sprintf("%s/reports/%d/results", app.srv.URL, r.ID)),
		browsertest.WaitText(`[data-testid="no-imports"]`, "No results imported yet."),
		chromedp.SetUploadFiles(css(`[data-testid="upload-input"]`), paths),
		browsertest.WaitText(`[data-testid="import-result"]`, "Added 2 rows from 2 files."),
		browsertest.WaitText(`#imports`, genaibenchgen.RunName(4)),
		browsertest.WaitText(`#imports`, "genai-bench"),
		chromedp.WaitVisible(css(`#matrix [data-testid="matrix-row-0"]`)),
		chromedp.WaitVisible(css(`#matrix [data-testid="matrix-row-1"]`)),
		browsertest.WaitText(`#matrix`, "Qwen/Qwen3-8B"),
		browsertest.WaitText(`#matrix [data-testid="matrix-row-0"] [data-testid="goodput"]`, "in objective"),
		browsertest.WaitText(`#matrix [data-testid="matrix-row-1"] [data-testid="goodput"]`, "in objective"),
	); err != nil {
		t.Fatal(err)
	}
	for _, e := range browsertest.ConsoleErrors(ctx) {
		t.Errorf("console: %s", e)
	}
}
