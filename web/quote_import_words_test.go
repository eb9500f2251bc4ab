package web

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"capplan/planner"
	"capplan/web/demogen/pricegen"
	"capplan/web/store"
)

// TestCatalogueKeysWithNULRefusedInWords: catalogue keys holding a NUL
// character (escaped in the JSON) are refused as such, one or two of
// them, and no raw NUL reaches the page; a refusal says "Nothing was
// imported." once.
func TestCatalogueKeysWithNULRefusedInWords(t *testing.T) {
	app := newTestApp(t)
	c := app.client("finance")
	for name, keys := range map[string][]string{"one": {"gpt-NUL-x"}, "two": {"gpt-NUL-a", "gpt-NUL-b"}} {
		var ms []pricegen.Model
		for _, k := range keys {
			ms = append(ms, pricegen.Model{Key: k, Provider: "openai", Input: "1e-06", Output: "2e-06"})
		}
		data := []byte(strings.ReplaceAll(string(pricegen.LiteLLM(ms)), "-NUL-", `\u0000`))
		res, body := postCatalogue(t, c, app.srv.URL, "2026-11-20", "c.json", data)
		if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "holds a NUL character") || strings.Contains(body, "typed quote") {
			t.Errorf("%s: %d %s", name, res.StatusCode, between(body, "<main", "</main>"))
		}
		if strings.ContainsRune(body, 0) {
			t.Errorf("%s: a raw NUL in the page", name)
		}
		if msg := between(body, `data-testid="catalogue-error">`, "</small>"); strings.Count(msg, "Nothing was imported") != 1 || strings.Contains(msg, ">file:") {
			t.Errorf("%s: %q", name, msg)
		}
	}
	if qs, _ := app.store.Quotes(context.Background()); len(qs) != 0 {
		t.Errorf("%d quotes imported", len(qs))
	}
	// A model named like a typed quote: refused naming it, once.
	if _, err := app.store.SaveQuote(context.Background(), app.users["finance"].ID, store.Quote{Q: planner.Quote{Name: planner.QuoteName(planner.CatalogueLiteLLM, "gpt-4o"), Provider: "openai", Model: "gpt-4o"}, Currency: "USD"}); err != nil {
		t.Skipf("typed quote: %v", err)
	}
	res, body := postCatalogue(t, c, app.srv.URL, "2026-11-20", "c.json", pricegen.LiteLLM([]pricegen.Model{{Key: "gpt-4o", Provider: "openai", Input: "1e-06", Output: "2e-06"}}))
	if msg := between(body, `data-testid="catalogue-error">`, "</small>"); res.StatusCode != http.StatusUnprocessableEntity || strings.Count(msg, "Nothing was imported") != 1 || !strings.Contains(msg, "typed quote") {
		t.Errorf("typed quote: %d %q", res.StatusCode, msg)
	}
}
