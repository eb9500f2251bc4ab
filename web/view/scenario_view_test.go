package view

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"capplan/planner"
)

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

// TestDemoCostHalfPresentation renders the demo report's print view and checks the cost
// half reads as a person needs it: the crossover far beyond the plan is a
// note rather than the chart's range, the formula is rounded (exact in the
// title), the cheaper option is marked per scenario, label and value sit
// together in the definition grids, and the decision matches the costs.
func TestDemoCostHalfPresentation(t *testing.T) {
	v := demoReport(t) // as its owner sees it: the edit forms shown
	page := printOf(t, v)
	text := html.UnescapeString(page)

	// The demo's figures, worked from its inputs (web/reports/demo_plan.go)
	// rather than copied from the page:
	//   - V_api: (512 x 2.50 + 256 x 10.00) / 1M = 0.00384 a success; 2 %
	//     of attempts fail and are retried until they succeed, so a success
	//     takes 1 / 0.98 attempts: 0.0039183673..., to 6 significant
	//     figures 0.00391837 (docs/method.md, "Retries", "Rounding").
	//   - F_local: 32,000 / 36 + 455 facilities and other + 850 labour + 60
	//     downtime + power by use, the typed 120 W idle x 730 h / 1000 x
	//     0.24 x 1.4 = 29.4336: 2,283.3224888... (was 2,410.868089 with the
	//     ceiling's 640 W for all 730 h).
	//   - V_local: the 640 - 120 = 520 W above idle for the busy time, 1 /
	//     0.9610040 s a request at the ceiling's measured service: 520 /
	//     0.9610040 / 3,600,000 x 0.24 x 1.4 = 0.0000505027 (6 figures).
	//   - N = (2,283.3224888 - 250.00) / (0.00391837 - 0.0000505027) =
	//     525,696.03..., rounded up to 525,697.
	//   - Expected, own 1 box (0.2986 req/s with arrivals) and send the
	//     60,280 overflow requests: 2,283.3225 + 784,720 x 0.0000505027 +
	//     250 + 60,280 x 0.00391837 = 2,809.15, 3.32 per 1,000.
	vAPI := dec("0.00384").Div(dec("0.98")).Round(8)
	fLocal := dec("32000").Div(dec("36")).Add(dec("455")).Add(dec("850")).Add(dec("60")).Add(dec("120").Mul(dec("730")).Div(dec("1000")).Mul(dec("0.24")).Mul(dec("1.4")))
	vLocal := dec("520").Div(dec("0.9610040043731403")).Div(dec("3600000")).Mul(dec("0.336")).Round(10)
	n := fLocal.Sub(dec("250")).Div(vAPI.Sub(vLocal))
	if vAPI.String() != "0.00391837" || vLocal.String() != "0.0000505027" || n.StringFixed(2) != "525696.03" {
		t.Fatalf("hand figures: V_api %s, V_local %s, N %s", vAPI, vLocal, n.StringFixed(2))
	}
	hybrid := fLocal.Add(dec("784720").Mul(vLocal)).Add(dec("250")).Add(dec("60280").Mul(vAPI)).Mul(dec("1000")).Div(dec("845000")).StringFixed(2)
	if got := html.UnescapeString(testid(page, "hybrid-text-expected")); !strings.Contains(got, "own 1 box and buy the peaks: "+hybrid+" per 1,000") || hybrid != "3.32" {
		t.Errorf("expected hybrid = %q, want %s per 1,000", got, hybrid)
	}
	if got := testid(page, "boxes-needed-expected"); !strings.HasPrefix(strings.TrimSpace(got), "3") {
		t.Errorf("expected boxes needed = %q", got)
	}
	m := regexp.MustCompile(`<code data-testid="crossover-formula" title="([^"]*)">(.*?)</code>`).FindStringSubmatch(text)
	if m != nil {
		// F_local, V_api and the like link to the glossary.
		m[2] = regexp.MustCompile(`<[^>]*>`).ReplaceAllString(m[2], "")
	}
	// The shown figures reproduce N to the cent shown.
	if m == nil || !strings.HasSuffix(m[2], "= (2283.3225 - 250.00) / (0.00391837 - 0.0000505027) = 525,696.03, rounded up to 525,697") || !strings.Contains(m[1], "0.00391837") {
		t.Errorf("crossover formula = %q", m)
	}
	if got, want := testid(page, "crossover-n"), planner.DisplayCount(planner.RoundRequests(n, planner.Wanted)); got != want || want != "525,697" {
		t.Errorf("crossover N box = %q, want the formula's %s", got, want)
	}
	// The expected month's busy time on its 3 boxes: 845,000 requests /
	// 0.9610040 req/s / 3,600 = 244.2 h of 3 x 730 h, 11.2 %.
	busy := dec("845000").Div(dec("0.9610040043731403")).Div(dec("3600"))
	util := busy.Div(dec("2190")).Mul(dec("100")).StringFixed(1)
	if want := "expected: power by use: busy " + busy.StringFixed(1) + " h a month of 3 boxes x 730 h powered (" + util + " % utilisation)"; !strings.Contains(text, want) || util != "11.2" {
		t.Errorf("the page lacks %q", want)
	}
	// The page says how power was priced and why.
	if got := html.UnescapeString(testid(page, "power-use")); !strings.Contains(got, "Power priced by use: 120 W idle (typed) for every powered hour, and 640 W (measured) for the busy time") {
		t.Errorf("power use = %q", got)
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
		t.Errorf("residency edit inputs carry no width class")
	}
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }
