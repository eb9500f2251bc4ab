package web

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"regexp"
	"strings"
	"testing"

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
	res, page := do(t, app.client("reviewer"), http.MethodGet, fmt.Sprintf("%s/reports/%d", app.srv.URL, reports[0].ID), nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET report: %d", res.StatusCode)
	}
	text := html.UnescapeString(page)

	if got := testid(page, "cost-chart-note"); !strings.Contains(html.UnescapeString(got), "8.28 million requests a month, beyond the plan's capacity") {
		t.Errorf("cost chart note = %q", got)
	}
	m := regexp.MustCompile(`<code data-testid="crossover-formula" title="([^"]*)">([^<]*)</code>`).FindStringSubmatch(text)
	// The shown figures reproduce N to the cent shown: 2,160.868089 /
	// 0.00026112 is the exact 8,275,383.30..., rounding up to the 8,275,384
	// in the box (cents and 4 figures would give 8,276,025, 2410.8681
	// 8,275,383.34).
	if m == nil || !strings.HasSuffix(m[2], "= (2410.868089 - 250.00) / (0.00026112 - 0) = 8,275,383.30, rounded up to 8,275,384") || !strings.Contains(m[1], "0.00026112") {
		t.Errorf("crossover formula = %q", m)
	}
	if got := testid(page, "crossover-n"); got != "8,275,384" {
		t.Errorf("crossover N box = %q, want the formula's 8,275,384", got)
	}
	for _, s := range []string{"low", "expected", "peak"} {
		if !regexp.MustCompile(`class="num option-start cheapest"[^>]*data-testid="per1000-` + s + `-Hosted`).MatchString(page) {
			t.Errorf("%s: the API's cost per 1,000 is not marked cheaper", s)
		}
		if strings.Contains(page, `cheapest" title="self-hosted`) {
			t.Errorf("self-hosting marked cheaper")
		}
	}
	for _, pair := range []string{
		`<div><dt>N (requests a month)</dt>`,
		`<div><dt>Decision</dt><dd data-testid="decision"><strong>stop self-hosting</strong></dd></div>`,
	} {
		if !strings.Contains(text, pair) {
			t.Errorf("page lacks %s", pair)
		}
	}
	if !strings.Contains(page, `class="data routes-edit"`) || !strings.Contains(page, `class="in-text"`) {
		// reviewers see the read-only table; the edit form is the admin's
		_, own := do(t, app.client("admin"), http.MethodGet, fmt.Sprintf("%s/reports/%d", app.srv.URL, reports[0].ID), nil)
		if !strings.Contains(own, `class="data routes-edit"`) || !strings.Contains(own, `class="in-text"`) {
			t.Errorf("residency edit inputs carry no width class")
		}
	}
}
