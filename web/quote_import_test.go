package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"capplan/planner"
	"capplan/web/demogen/pricegen"
	"capplan/web/reports"
	"capplan/web/store"
)

// catalogueV1 and catalogueV2 are two retrievals of a LiteLLM catalogue:
// the second cuts gpt-4o's input price by a fifth, raises claude-x's
// output price, drops old-model and lists new-model.
func catalogueV1() []byte {
	return pricegen.LiteLLM([]pricegen.Model{
		{Key: "gpt-4o", Provider: "openai", Input: "2.5e-06", Output: "1e-05", CacheRead: "1.25e-06", BatchInput: "1.25e-06", BatchOutput: "5e-06"},
		{Key: "anthropic/claude-x", Provider: "anthropic", Input: "3e-06", Output: "1.5e-05"},
		{Key: "old-model", Provider: "x", Input: "1e-06", Output: "2e-06"},
		{Key: "bad-model", Provider: "x", Input: "-1e-06", Output: "2e-06"},
	})
}

func catalogueV2() []byte {
	return pricegen.LiteLLM([]pricegen.Model{
		{Key: "gpt-4o", Provider: "openai", Input: "2e-06", Output: "1e-05", CacheRead: "1.25e-06", BatchInput: "1e-06", BatchOutput: "5e-06"},
		{Key: "anthropic/claude-x", Provider: "anthropic", Input: "3e-06", Output: "1.8e-05"},
		{Key: "new-model", Provider: "x", Input: "1e-06", Output: "3e-06"},
	})
}

// postCatalogue sends a catalogue as the quotes page's upload form does.
func postCatalogue(t testing.TB, c *http.Client, base, date, name string, data []byte) (*http.Response, string) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("catalogue_date", date)
	w, _ := mw.CreateFormFile("file", name)
	w.Write(data)
	mw.Close()
	req, _ := http.NewRequest(http.MethodPost, base+"/quotes/import", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// TestCatalogueImportAndReimport: finance imports a catalogue in the
// browser, the quotes it makes carry source, retrieval date and age; a
// newer retrieval sent through the token API lists what moved; a draft
// report using a moved quote gets a history entry in sentences and a new
// version, an approved one keeps its snapshot, version and history. A
// lead may not import, and a bad file changes nothing.
func TestCatalogueImportAndReimport(t *testing.T) {
	app := newTestApp(t)
	ctx := context.Background()
	fin := app.client("finance")
	// Dated from today, before the demo's test date (12 days ago): a
	// catalogue's prices go stale after 30 days.
	daysAgo := func(n int) string { return time.Now().UTC().AddDate(0, 0, -n).Format(time.DateOnly) }
	first, newer := daysAgo(16), daysAgo(14)
	res, body := postCatalogue(t, fin, app.srv.URL, first, "model_prices_and_context_window.json", catalogueV1())
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "/quotes/imports/") {
		t.Fatalf("import: %d %s", res.StatusCode, between(body, "<main", "</main>"))
	}
	_, page := do(t, fin, http.MethodGet, app.srv.URL+res.Header.Get("Location"), nil)
	if s := testid(page, "import-summary"); !strings.Contains(s, "3 models imported") || !strings.Contains(s, "first import") {
		t.Errorf("first import summary %q", s)
	}
	if !strings.Contains(page, "bad-model input_cost_per_token: -1e-06 is negative") {
		t.Error("the refused price is not named on the import page")
	}
	q := quoteNamed(t, app, "LiteLLM: gpt-4o")
	if q.ID == 0 || q.Catalogue != planner.CatalogueLiteLLM || q.CatalogueKey != "gpt-4o" || q.Retrieved != first || q.Currency != "USD" ||
		q.Q.InputPerMTokens.Amount.String() != "2.5" || q.Q.CachedInputPerMTokens.Amount.String() != "1.25" || q.Q.BatchDiscount.Amount.String() != "0.5" {
		t.Fatalf("imported quote %+v", q)
	}
	_, lib := do(t, fin, http.MethodGet, app.srv.URL+"/quotes", nil)
	if !strings.Contains(lib, "retrieved 16 days ago") || strings.Contains(lib, "stale (older than 30 days)") {
		t.Error("the library does not show the catalogue quote's age, current")
	}

	// A draft and a report to approve both use the quote.
	r := seedDemoInto(t, app)
	demoAdmin, _ := app.store.UserByEmail(ctx, "admin")
	lead := app.users["lead"]
	draft, err := app.store.CreateReport(ctx, lead, "Draft on the catalogue")
	if err != nil {
		t.Fatal(err)
	}
	if err := app.store.AttachQuote(ctx, store.Edit{ReportID: draft, BaseVersion: 1, UserID: lead.ID, Action: "quote attached", Section: "costs"}, q.ID); err != nil {
		t.Fatal(err)
	}
	r, _ = app.store.Report(ctx, r.ID)
	if err := app.store.AttachQuote(ctx, store.Edit{ReportID: r.ID, BaseVersion: r.Version, UserID: demoAdmin.ID, Action: "quote attached", Section: "costs"}, q.ID); err != nil {
		t.Fatal(err)
	}
	// The demo is in EUR: a dated USD rate lets the USD quote compare.
	r, _ = app.store.Report(ctx, r.ID)
	settings := reports.Settings{Currency: "EUR", TokenBasis: "contract", MaxBoxes: 2, StaleAfterDays: 90,
		ExchangeRates: []planner.ExchangeRate{{Currency: "USD", Rate: planner.Fig("0.9", "EUR/USD", "ECB reference rate", first)}}}
	if err := app.store.SaveSection(ctx, store.Edit{ReportID: r.ID, BaseVersion: r.Version, UserID: demoAdmin.ID, Action: "cost settings changed", Section: reports.SecSettings}, reports.SecSettings, settings); err != nil {
		t.Fatal(err)
	}
	r, _ = app.store.Report(ctx, r.ID)
	if err := app.store.Transition(ctx, store.Edit{ReportID: r.ID, BaseVersion: r.Version, UserID: demoAdmin.ID, Action: "submitted for review", Section: "review"}, store.StateInReview, ""); err != nil {
		t.Fatal(err)
	}
	if res, body := do(t, app.client("reviewer"), http.MethodPost, fmt.Sprintf("%s/reports/%d/approve", app.srv.URL, r.ID), url.Values{"version": {app.version(r.ID)}, "confirm": {"yes"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("approve: %d %s", res.StatusCode, between(body, `class="flash`, "</"))
	}
	tok, _ := app.store.CreateAPIToken(ctx, app.users["finance"].ID, "prices")
	reportJSON := func(id int64) (string, int) {
		var c struct {
			Report struct {
				Version int `json:"version"`
			} `json:"report"`
			Result json.RawMessage `json:"result"`
		}
		apiGet(t, app, tok, fmt.Sprintf("/api/v1/reports/%d", id), &c)
		return string(c.Result), c.Report.Version
	}
	approvedBefore, approvedVersion := reportJSON(r.ID)
	_, draftVersion := reportJSON(draft)
	approvedHist, _ := app.store.History(ctx, r.ID)

	// A lead may not import; a cut-off file changes nothing.
	leadTok, _ := app.store.CreateAPIToken(ctx, lead.ID, "x")
	if res, _ := do(t, http.DefaultClient, http.MethodPost, app.srv.URL+"/api/v1/quotes/import?name=p.json", nil, "Authorization", "Bearer "+leadTok); res.StatusCode != http.StatusForbidden {
		t.Errorf("a lead's import: %d, want 403", res.StatusCode)
	}
	v2 := catalogueV2()
	apiImport := func(data []byte, date string) (*http.Response, []byte) {
		req, _ := http.NewRequest(http.MethodPost, app.srv.URL+"/api/v1/quotes/import?name=model_prices_and_context_window.json&date="+date, bytes.NewReader(data))
		req.Header.Set("Authorization", "Bearer "+tok)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res, b
	}
	if res, b := apiImport(v2[:len(v2)/2], newer); res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(string(b), "cut off") || !strings.Contains(string(b), "Nothing was imported") {
		t.Errorf("a cut-off catalogue: %d %s", res.StatusCode, b)
	}
	if res, b := apiImport(v2, "2099-01-01"); res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(string(b), "after today") {
		t.Errorf("a retrieval date in the future: %d %s", res.StatusCode, b)
	}
	if _, v := reportJSON(draft); v != draftVersion {
		t.Fatalf("a refused import moved the draft to v%d", v)
	}

	// The newer retrieval, through the API.
	res, b := apiImport(v2, newer)
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("API import: %d %s", res.StatusCode, b)
	}
	var qi store.QuoteImport
	if err := json.Unmarshal(b, &qi); err != nil {
		t.Fatal(err)
	}
	var moves []string
	for _, m := range qi.Changes.Moves {
		moves = append(moves, m.Sentence())
	}
	wantMoves := "anthropic/claude-x: output price 15.00 → 18.00 USD per 1M tokens (+20 %)|gpt-4o: input price 2.50 → 2.00 USD per 1M tokens (−20 %)|gpt-4o: batch input price 1.25 → 1.00 USD per 1M tokens (−20 %)"
	if strings.Join(moves, "|") != wantMoves || strings.Join(qi.Changes.Added, ",") != "new-model" || strings.Join(qi.Changes.Removed, ",") != "old-model" || qi.First {
		t.Errorf("moves %q added %v removed %v", moves, qi.Changes.Added, qi.Changes.Removed)
	}
	if len(qi.Repriced) != 1 || qi.Repriced[0].ReportID != draft {
		t.Errorf("repriced %+v, want the draft only", qi.Repriced)
	}

	// The draft: a new version and its history in sentences.
	if _, v := reportJSON(draft); v != draftVersion+1 {
		t.Errorf("draft v%d, was v%d", v, draftVersion)
	}
	hist, _ := app.store.History(ctx, draft)
	if !strings.Contains(hist[0].Action, "library quote LiteLLM: gpt-4o repriced by the LiteLLM catalogue retrieved "+newer) ||
		hist[0].After != "LiteLLM gpt-4o: input price 2.50 → 2.00 USD per 1M tokens (−20 %)\nLiteLLM gpt-4o: batch input price 1.25 → 1.00 USD per 1M tokens (−20 %)" {
		t.Errorf("draft history %q: %q", hist[0].Action, hist[0].After)
	}
	_, dp := do(t, fin, http.MethodGet, fmt.Sprintf("%s/reports/%d/print", app.srv.URL, draft), nil)
	if !strings.Contains(dp, "LiteLLM gpt-4o: input price 2.50 → 2.00 USD per 1M tokens (−20 %)") {
		t.Error("the draft's page does not show the move in its history")
	}
	// The approved report: its snapshot, version and history as approved.
	approvedAfter, v := reportJSON(r.ID)
	if approvedAfter != approvedBefore || v != approvedVersion {
		t.Errorf("the approved report moved (v%d, was v%d)", v, approvedVersion)
	}
	if h, _ := app.store.History(ctx, r.ID); len(h) != len(approvedHist) {
		t.Errorf("the approved report got a history entry: %+v", h[0])
	}

	// The library: the re-imported quote, the one no longer listed; the
	// import's page shows what moved.
	q2, _ := app.store.QuoteByID(ctx, q.ID)
	if q2.Retrieved != newer || q2.Q.InputPerMTokens.Amount.String() != "2" || q2.Q.InputPerMTokens.EvidenceDate != newer {
		t.Errorf("re-imported quote %+v", q2)
	}
	_, lib = do(t, fin, http.MethodGet, app.srv.URL+"/quotes", nil)
	if !strings.Contains(lib, `data-testid="quote-unlisted"`) {
		t.Error("old-model is not marked as no longer listed")
	}
	_, page = do(t, fin, http.MethodGet, fmt.Sprintf("%s/quotes/imports/%d", app.srv.URL, qi.ID), nil)
	if n := strings.Count(page, `data-testid="price-move"`); n != 3 {
		t.Errorf("%d moves on the import page, want 3", n)
	}
	for _, want := range []string{"−20 %", "+20 %", "old-model", "new-model", "Draft on the catalogue", "2 models with a price moved, 1 new, 1 no longer listed, 0 unchanged"} {
		if !strings.Contains(page, want) {
			t.Errorf("the import page lacks %q", want)
		}
	}
	for _, s := range rawFloatsIn(visibleText(page)) {
		t.Errorf("import page: raw float in %q", s)
	}
}

// A quote from a catalogue retrieved more than 30 days ago is stale in the
// library and in every report using it, even one whose own limit is 90
// days: the report's evidence says whose limit it broke, and a reviewer
// cannot approve it until the catalogue is imported again.
func TestCatalogueQuoteStaleBlocksApproval(t *testing.T) {
	app := newTestApp(t)
	ctx := context.Background()
	fin := app.client("finance")
	retrieved := time.Now().UTC().AddDate(0, 0, -40).Format(time.DateOnly)
	if res, body := postCatalogue(t, fin, app.srv.URL, retrieved, "model_prices_and_context_window.json", catalogueV1()); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("import: %d %s", res.StatusCode, between(body, "<main", "</main>"))
	}
	_, lib := do(t, fin, http.MethodGet, app.srv.URL+"/quotes", nil)
	if !strings.Contains(lib, "retrieved 40 days ago: stale (older than 30 days)") {
		t.Error("the library does not show the catalogue quote as stale")
	}
	q := quoteNamed(t, app, "LiteLLM: gpt-4o")
	r := seedDemoInto(t, app)
	admin, _ := app.store.UserByEmail(ctx, "admin")
	r, _ = app.store.Report(ctx, r.ID)
	if err := app.store.AttachQuote(ctx, store.Edit{ReportID: r.ID, BaseVersion: r.Version, UserID: admin.ID, Action: "quote attached", Section: "costs"}, q.ID); err != nil {
		t.Fatal(err)
	}
	r, _ = app.store.Report(ctx, r.ID)
	settings := reports.Settings{Currency: "EUR", TokenBasis: "contract", MaxBoxes: 2, StaleAfterDays: 90,
		ExchangeRates: []planner.ExchangeRate{{Currency: "USD", Rate: planner.Fig("0.9", "EUR/USD", "ECB reference rate", time.Now().UTC().AddDate(0, 0, -16).Format(time.DateOnly))}}}
	if err := app.store.SaveSection(ctx, store.Edit{ReportID: r.ID, BaseVersion: r.Version, UserID: admin.ID, Action: "cost settings changed", Section: reports.SecSettings}, reports.SecSettings, settings); err != nil {
		t.Fatal(err)
	}
	_, page := do(t, app.client("reviewer"), http.MethodGet, fmt.Sprintf("%s/reports/%d/print", app.srv.URL, r.ID), nil)
	if !strings.Contains(html.UnescapeString(between(page, `role="table" data-testid="evidence"`, "</table>")), "40 days old, older than 30 days (the LiteLLM catalogue's limit)") {
		t.Error("the report's evidence does not say the catalogue price is stale by the catalogue's limit")
	}
	r, _ = app.store.Report(ctx, r.ID)
	if err := app.store.Transition(ctx, store.Edit{ReportID: r.ID, BaseVersion: r.Version, UserID: admin.ID, Action: "submitted for review", Section: "review"}, store.StateInReview, ""); err != nil {
		t.Fatal(err)
	}
	res, body := do(t, app.client("reviewer"), http.MethodPost, fmt.Sprintf("%s/reports/%d/approve", app.srv.URL, r.ID), url.Values{"version": {app.version(r.ID)}, "confirm": {"yes"}})
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(html.UnescapeString(body), "Evidence dates") || !strings.Contains(html.UnescapeString(body), "catalogue's limit") {
		t.Fatalf("approving with a stale catalogue price: %d %s", res.StatusCode, between(body, `class="flash`, "</"))
	}
}

// TestCatalogueImportSkipsKeysThatAreNotModels: a LiteLLM map with a
// mirror's "last_updated" string imports its models in the browser, and
// the import page counts and names the top-level keys skipped.
func TestCatalogueImportSkipsKeysThatAreNotModels(t *testing.T) {
	app := newTestApp(t)
	fin := app.client("finance")
	data, err := os.ReadFile("../importers/testdata/litellm_last_updated.json")
	if err != nil {
		t.Fatal(err)
	}
	date := time.Now().UTC().AddDate(0, 0, -1).Format(time.DateOnly)
	res, body := postCatalogue(t, fin, app.srv.URL, date, "model_prices_and_context_window.json", data)
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("import: %d %s", res.StatusCode, between(body, "<main", "</main>"))
	}
	_, page := do(t, fin, http.MethodGet, app.srv.URL+res.Header.Get("Location"), nil)
	if s := testid(page, "import-summary"); !strings.Contains(s, "2 models imported") {
		t.Errorf("summary %q", s)
	}
	if s := between(page, `data-testid="import-skipped"`, "</details>"); !strings.Contains(s, "top-level keys that are not models, skipped: 2") || !strings.Contains(s, "last_updated: not a model: a string") {
		t.Errorf("skipped %q", s)
	}
}
