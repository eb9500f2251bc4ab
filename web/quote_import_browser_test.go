package web

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"capplan/web/browsertest"
	"capplan/web/store"
)

// TestBrowserCatalogueReimport: finance imports a LiteLLM catalogue on
// the quotes page, re-imports a newer retrieval and sees what moved (each
// price up or down with its per cent, the new and the dropped model); the
// draft using the moved quote shows the move in its history. The library
// and the import page fit 375 and 1280 px without sideways scroll.
func TestBrowserCatalogueReimport(t *testing.T) {
	app := newTestApp(t)
	dir := t.TempDir()
	v1, v2 := filepath.Join(dir, "v1", "model_prices_and_context_window.json"), filepath.Join(dir, "v2", "model_prices_and_context_window.json")
	for path, data := range map[string][]byte{v1: catalogueV1(), v2: catalogueV2()} {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := browsertest.New(t)
	upload := func(path, date string) []chromedp.Action[chromedp.Void] {
		return []chromedp.Action[chromedp.Void]{
			chromedp.Navigate(app.srv.URL + "/quotes"),
			chromedp.WaitVisible(css(`[data-testid="catalogue-form"]`)),
			chromedp.SetValue(css(`[data-testid="catalogue-form"] [name="catalogue_date"]`), date),
			chromedp.SetUploadFiles(css(`[data-testid="catalogue-file"]`), []string{path}),
			chromedp.Click(css(`[data-testid="catalogue-submit"]`)),
			chromedp.WaitVisible(css(`[data-testid="import-summary"]`)),
		}
	}
	steps := []struct {
		name    string
		actions []chromedp.Action[chromedp.Void]
	}{
		{"finance logs in", browserLogin(app, app.users["finance"].Email)},
		{"finance imports the catalogue retrieved in November", append(upload(v1, "2026-11-20"),
			browsertest.WaitText(`[data-testid="import-summary"]`, "first import"),
			browsertest.WaitText(`[data-testid="added-models"]`, "gpt-4o"),
			chromedp.Navigate(app.srv.URL+"/quotes"),
			browsertest.WaitText(`[data-testid="quote-list"]`, "LiteLLM: gpt-4o"),
			browsertest.WaitText(`[data-testid="quote-age"]`, "days ago"),
		)},
	}
	for _, s := range steps {
		if err := chromedp.Do(ctx, browsertest.Steady(s.actions...)...); err != nil {
			browsertest.Screenshot(ctx, t, "catalogue-"+s.name)
			t.Fatalf("%s: %v", s.name, err)
		}
	}
	browsertest.NoHorizontalScroll(ctx, t, "quotes-with-catalogue")

	// A draft compares the imported gpt-4o quote.
	bg := context.Background()
	qs, _ := app.store.Quotes(bg)
	var qid int64
	for _, q := range qs {
		if q.Q.Name == "LiteLLM: gpt-4o" {
			qid = q.ID
		}
	}
	lead := app.users["lead"]
	draft, err := app.store.CreateReport(bg, lead, "Draft on the catalogue")
	if err != nil {
		t.Fatal(err)
	}
	if err := app.store.AttachQuote(bg, store.Edit{ReportID: draft, BaseVersion: 1, UserID: lead.ID, Action: "quote attached", Section: "costs"}, qid); err != nil {
		t.Fatal(err)
	}

	steps = []struct {
		name    string
		actions []chromedp.Action[chromedp.Void]
	}{
		{"finance re-imports the retrieval of December and sees what moved", append(upload(v2, "2026-12-01"),
			browsertest.WaitText(`[data-testid="import-summary"]`, "2 models with a price moved, 1 new, 1 no longer listed"),
			browsertest.WaitText(`[data-testid="price-moves"]`, "−20 %"),
			browsertest.WaitText(`[data-testid="price-moves"]`, "+20 %"),
			browsertest.WaitText(`[data-testid="removed-models"]`, "old-model"),
			browsertest.WaitText(`[data-testid="added-models"]`, "new-model"),
			browsertest.WaitText(`[data-testid="repriced"]`, "Draft on the catalogue"),
		)},
	}
	for _, s := range steps {
		if err := chromedp.Do(ctx, browsertest.Steady(s.actions...)...); err != nil {
			browsertest.Screenshot(ctx, t, "catalogue-reimport")
			t.Fatalf("%s: %v", s.name, err)
		}
	}
	browsertest.NoHorizontalScroll(ctx, t, "catalogue-import")
	browsertest.CheckAxe(ctx, t, "catalogue-import")
	if err := chromedp.Do(ctx,
		chromedp.Navigate(fmt.Sprintf("%s/reports/%d/review", app.srv.URL, draft)),
		browsertest.WaitText(`[data-testid="history"]`, "LiteLLM gpt-4o: input price 2.50 → 2.00 USD per 1M tokens (−20 %)"),
	); err != nil {
		browsertest.Screenshot(ctx, t, "catalogue-draft-history")
		t.Fatalf("the draft's history: %v", err)
	}
	if errs := browsertest.ConsoleErrors(ctx); len(errs) != 0 {
		t.Errorf("console errors: %q", errs)
	}
}
