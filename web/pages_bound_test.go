package web

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"capplan/web/demogen/guidellmgen"
	"capplan/web/demogen/pricegen"
	"capplan/web/reports"
	"capplan/web/store"
	"capplan/web/view"
)

// seedManyImports makes a frozen report with n imports, one generated
// GuideLLM file (one load level) each, committed as one batch.
func seedManyImports(tb testing.TB, app *testApp, n int) int64 {
	tb.Helper()
	ctx := context.Background()
	lead := app.users["lead"]
	id, err := app.store.CreateReport(ctx, lead, fmt.Sprintf("%d imports", n))
	if err != nil {
		tb.Fatal(err)
	}
	if err := app.store.SaveContract(ctx, store.Edit{ReportID: id, BaseVersion: 1, UserID: lead.ID, Action: "contract edited"}, reports.DemoContract(), nil); err != nil {
		tb.Fatal(err)
	}
	if err := app.store.Freeze(ctx, store.Edit{ReportID: id, BaseVersion: 2, UserID: lead.ID, Action: "contract frozen"}); err != nil {
		tb.Fatal(err)
	}
	batch := reports.NewImportBatch(tb.TempDir(), 0)
	defer batch.Close()
	for i := range n {
		var b bytes.Buffer
		if err := guidellmgen.Write(&b, guidellmgen.Config{Loads: []float64{float64(i%16 + 1)}, RequestsPerRow: 4, Seed: int64(i + 1)}); err != nil {
			tb.Fatal(err)
		}
		if err := batch.Add(fmt.Sprintf("run-%04d.json", i), &b); err != nil {
			tb.Fatal(err)
		}
	}
	if _, err := reports.CommitLatest(ctx, app.store, batch, id, lead.ID); err != nil {
		tb.Fatal(err)
	}
	return id
}

// TestPagesBounded: a report with 120 imports shows the 30 newest on its
// page and the rest on searchable pages of 50; a library of 1,500 quotes
// lists 100 a page, searchable. No page passes 400 KB.
func TestPagesBounded(t *testing.T) {
	app := newTestApp(t)
	id := seedManyImports(t, app, 120)
	c := app.client("lead")
	const bound = 400 << 10
	get := func(u string) string {
		t.Helper()
		res, body := do(t, c, http.MethodGet, app.srv.URL+u, nil)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d", u, res.StatusCode)
		}
		if len(body) > bound {
			t.Errorf("GET %s: %d KB", u, len(body)>>10)
		}
		return body
	}
	page := get(fmt.Sprintf("/reports/%d/results", id))
	if n := strings.Count(page, `data-testid="import"`); n != view.ImportsShown || !strings.Contains(page, `data-testid="imports-folded"`) {
		t.Errorf("the report page shows %d imports", n)
	}
	ids := regexp.MustCompile(`<article id="import-(\d+)"`).FindAllStringSubmatch(page, -1)
	if len(ids) < 2 || atoiT(ids[0][1]) < atoiT(ids[1][1]) {
		t.Errorf("the newest import is not first: %v", ids[:min(len(ids), 2)])
	}
	for p, want := range map[int]int{1: 50, 3: 20} {
		list := get(fmt.Sprintf("/reports/%d/imports?page=%d", id, p))
		if n := strings.Count(list, `data-testid="import"`); n != want {
			t.Errorf("imports page %d: %d imports, want %d", p, n, want)
		}
	}
	found := get(fmt.Sprintf("/reports/%d/imports?q=RUN-0007", id))
	if n := strings.Count(found, `data-testid="import"`); n != 1 || !strings.Contains(found, "run-0007.json") {
		t.Errorf("search: %d imports", n)
	}

	var ms []pricegen.Model
	for i := range 1500 {
		ms = append(ms, pricegen.Model{Key: fmt.Sprintf("model-%04d", i), Provider: "openai", Input: "1e-06", Output: "2e-06"})
	}
	if res, body := postCatalogue(t, app.client("finance"), app.srv.URL, "2026-11-20", "c.json", pricegen.LiteLLM(ms)); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("catalogue: %d %s", res.StatusCode, between(body, "<main", "</main>"))
	}
	lib := get("/quotes")
	if n := strings.Count(lib, `<tr id="quote-`); n != view.QuotesPerPage || !strings.Contains(lib, `data-testid="quote-pager"`) {
		t.Errorf("/quotes lists %d quotes", n)
	}
	last := get("/quotes?page=15")
	if n := strings.Count(last, `<tr id="quote-`); n != 100 || !strings.Contains(last, "model-1499") {
		t.Errorf("/quotes page 15: %d quotes", n)
	}
	one := get("/quotes?q=MODEL-0042")
	if n := strings.Count(one, `<tr id="quote-`); n != 1 {
		t.Errorf("search: %d quotes", n)
	}
}

func atoiT(s string) int { n, _ := strconv.Atoi(s); return n }
