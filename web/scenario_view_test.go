package web

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/store"
)

// TestDemoCostHalfPresentation renders the demo report and checks the cost
// half reads as a person needs it: the crossover far beyond the plan is a
// note rather than the chart's range, the formula is rounded (exact in the
// title), the cheaper option is marked per scenario, label and value sit
// together in the definition grids, and the decision matches the costs.
func TestDemoCostHalfPresentation(t *testing.T) {
	app := newTestApp(t)
	// The demo is owned by the account named "admin", as on a fresh server.
	if _, err := app.store.CreateUser(context.Background(), "admin", "Admin", store.RoleAdmin, testPassword); err != nil {
		t.Fatal(err)
	}
	if err := reports.SeedDemo(context.Background(), app.store, t.TempDir()); err != nil {
		t.Fatal(err)
	}
	reports, err := app.store.Reports(context.Background())
	if err != nil || len(reports) != 1 {
		t.Fatalf("reports %v %v", reports, err)
	}
	res, page := do(t, app.client("reviewer"), http.MethodGet, fmt.Sprintf("%s/reports/%d/print", app.srv.URL, reports[0].ID), nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET report: %d", res.StatusCode)
	}
	text := html.UnescapeString(page)

	// The expected month needs 3 boxes with random arrivals; owning one
	// for the base and buying the busy hours' overflow beats both whole
	// options (docs/method.md, "The hybrid plan").
	if got := html.UnescapeString(testid(page, "hybrid-text-expected")); !strings.Contains(got, "own 1 box and buy the peaks: 3.43 per 1,000") {
		t.Errorf("expected hybrid = %q", got)
	}
	if got := testid(page, "boxes-needed-expected"); !strings.HasPrefix(strings.TrimSpace(got), "3") {
		t.Errorf("expected boxes needed = %q", got)
	}
	m := regexp.MustCompile(`<code data-testid="crossover-formula" title="([^"]*)">(.*?)</code>`).FindStringSubmatch(text)
	if m != nil {
		// F_local, V_api and the like link to the glossary.
		m[2] = regexp.MustCompile(`<[^>]*>`).ReplaceAllString(m[2], "")
	}
	// The shown figures reproduce N to the cent shown: 2,160.868089 /
	// 0.0039168 (the frontier quote's 512 x 2.50 + 256 x 10.00 per million
	// tokens, 2 % retried) is the exact 551,692.22..., rounding up to the
	// 551,693 in the box.
	if m == nil || !strings.HasSuffix(m[2], "= (2410.8681 - 250.00) / (0.0039168 - 0) = 551,692.22, rounded up to 551,693") || !strings.Contains(m[1], "0.0039168") {
		t.Errorf("crossover formula = %q", m)
	}
	if got := testid(page, "crossover-n"); got != "551,693" {
		t.Errorf("crossover N box = %q, want the formula's 551,693", got)
	}
	for _, s := range []string{"low", "expected", "peak"} {
		if !regexp.MustCompile(`class="num option-start cheapest"[^>]*data-testid="per1000-` + s + `-Frontier`).MatchString(page) {
			t.Errorf("%s: the API's cost per 1,000 is not marked cheaper", s)
		}
		if strings.Contains(page, `cheapest" title="self-hosted`) {
			t.Errorf("self-hosting marked cheaper")
		}
	}
	for _, pair := range []string{
		`<div><dt>N (requests a month)</dt>`,
		`<div><dt>Decision</dt><dd data-testid="decision"><strong>change how we self-host</strong></dd></div>`,
	} {
		if !strings.Contains(text, pair) {
			t.Errorf("page lacks %s", pair)
		}
	}
	if !strings.Contains(page, `class="data routes-edit"`) || !strings.Contains(page, `class="in-text"`) {
		// reviewers see the read-only table; the edit form is the admin's
		_, own := do(t, app.client("admin"), http.MethodGet, fmt.Sprintf("%s/reports/%d/print", app.srv.URL, reports[0].ID), nil)
		if !strings.Contains(own, `class="data routes-edit"`) || !strings.Contains(own, `class="in-text"`) {
			t.Errorf("residency edit inputs carry no width class")
		}
	}
}

// A scenario whose busy hour needs thousands of boxes shows a window of
// its hybrid plans, the cheapest marked, and says how many it left out.
func TestHybridTableWindow(t *testing.T) {
	h := &planner.Hybrid{Best: 40, Text: "own 40 boxes"}
	for n := range 3000 {
		h.Options = append(h.Options, planner.HybridOption{Boxes: n, Paid: n})
	}
	r := planner.Result{Currency: "EUR", Scenarios: []planner.ScenarioResult{{Scenario: planner.Scenario{Name: "peak"}, Hybrid: h}}}
	var b strings.Builder
	if err := scenarioQueues(r).Render(t.Context(), &b); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if n := strings.Count(page, `data-testid="hybrid-peak-`); n != 28 {
		t.Errorf("%d hybrid rows, want 28 (8 first, 17 around the best, 3 last)", n)
	}
	if !strings.Contains(page, `class="cheapest" data-testid="hybrid-peak-40"`) {
		t.Error("n = 40 not marked the cheapest")
	}
	if got := testid(page, "hybrid-cut-peak"); !strings.Contains(got, "28 of 3,000 box counts shown") {
		t.Errorf("cut note = %q", got)
	}
}
