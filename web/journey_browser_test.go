package web

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"capplan/web/browsertest"
	"capplan/web/demogen/guidellmgen"
	"capplan/web/view"
)

// A role journey is a list of steps, each a few actions in the browser
// and, once they are done, checks of the page as it then stands. Every
// step's page is looked at 375 and 1280 px wide (lookAt).
type journeyStep struct {
	name    string
	actions []chromedp.Action[chromedp.Void]
	// after checks the page the actions leave, before it is looked at.
	after func(ctx context.Context, t *testing.T)
	// seen is true for a page looked at already in the journeys (the
	// login page after logging out, the list again): it is not looked at
	// twice, to keep the journeys' time down.
	seen bool
}

// lookAt checks the page at each of browsertest.Widths: it does not
// scroll sideways (browsertest.NoHorizontalScroll keeps a full-page
// screenshot of each width when CAPPLAN_SCREENSHOTS names a folder, and of
// any width that scrolls), and axe-core finds no serious or critical
// violation. A screenshot of the screen at each width, around the focus
// when something has it, is always kept, in browsertest.ArtifactDir. The
// viewport is left at 1280 px.
func lookAt(ctx context.Context, t *testing.T, name string) {
	t.Helper()
	for _, w := range browsertest.Widths {
		browsertest.NoHorizontalScroll(ctx, t, name, w)
		// What the step shows on a screen this wide, kept at every width
		// (NoHorizontalScroll keeps the whole page when asked to): around
		// the focus, where the browser keeps it, once the width changed.
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](`(() => { const a = document.activeElement; if (a && a !== document.body) a.scrollIntoView({block: "center"}); })()`)); err != nil {
			t.Logf("scrolling to the focus at %d px: %v", w, err)
		}
		if err := browsertest.KeepView(ctx, t, fmt.Sprintf("%s-%d-view", name, w)); err != nil {
			t.Logf("screenshot of %s at %d px: %v", name, w, err)
		}
		browsertest.CheckAxe(ctx, t, fmt.Sprintf("%s at %d px", name, w))
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatal(err)
	}
}

// runJourney runs one role's steps in order; a step that cannot be done
// ends the test, a check that fails is reported and the journey goes on.
// stepPageHeight: a step page of a report (not its print view) is at
// most 6,000 px tall at the width it is shown at.
func stepPageHeight(ctx context.Context, t *testing.T, name string) {
	t.Helper()
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]any](`[location.pathname, document.documentElement.scrollHeight]`))
	if err != nil || len(got) != 2 {
		t.Errorf("%s: height: %v", name, err)
		return
	}
	path, _ := got[0].(string)
	h, _ := got[1].(float64)
	if !strings.HasPrefix(path, "/reports/") || strings.HasSuffix(path, "/print") {
		return
	}
	t.Logf("%s (%s): %.0f px tall", name, path, h)
	if h > 6000 {
		t.Errorf("%s (%s): %.0f px tall at 1280 px, want at most 6,000", name, path, h)
	}
}

func runJourney(ctx context.Context, t *testing.T, who string, steps []journeyStep) {
	t.Helper()
	if dir, err := browsertest.ArtifactDir(ctx); err == nil {
		t.Logf("%s: every step's screen at 375 and 1280 px in %s", who, dir)
	}
	for i, s := range steps {
		name := fmt.Sprintf("%s-%02d-%s", who, i+1, s.name)
		if err := chromedp.Do(ctx, browsertest.Steady(s.actions...)...); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if s.after != nil {
			s.after(ctx, t)
		}
		if !s.seen {
			start := time.Now()
			lookAt(ctx, t, name)
			stepPageHeight(ctx, t, name) // lookAt leaves the viewport at 1280 px
			t.Logf("%s looked at in %v", name, time.Since(start).Round(time.Millisecond))
		}
	}
}

// focusIs waits until the focused element matches js, a predicate on a
// (the active element): app.js moves the focus once htmx has settled the
// swap, which can be a moment after the swapped text is seen. When the
// wait runs out it names where the focus is.
func focusIs(ctx context.Context, t *testing.T, what, js string) {
	t.Helper()
	cond := `(() => { const a = document.activeElement; return !!a && a !== document.body && (` + js + `); })()`
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](cond,
		chromedp.WithPollingInterval(50*time.Millisecond),
		chromedp.WithPollingTimeout(browsertest.WaitTimeout)))
	if err != nil {
		at, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const a = document.activeElement; return a ? a.outerHTML.slice(0, 160) : "nothing"; })()`))
		t.Errorf("%s: the focus is on %s (%v)", what, at, err)
	}
}

// objectiveInView checks that at 1280 px the matrix's objective figures
// (p95 TTFT and end-to-end) of its first counted row lie inside the
// viewport, so they are read without scrolling the matrix's box.
func objectiveInView(ctx context.Context, t *testing.T, what string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatal(err)
	}
	out, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
		const vw = document.documentElement.clientWidth;
		const row = document.querySelector('[data-testid="matrix-table"] tbody tr[data-counted="true"]');
		if (!row) return ["no counted row in the matrix"];
		const out = [];
		for (const id of ["ttft-p95", "e2e-p95"]) {
			const cell = row.querySelector('[data-testid="' + id + '"]');
			if (!cell) { out.push(id + ": no such cell"); continue; }
			const r = cell.getBoundingClientRect();
			if (r.right > vw || r.left < 0) out.push(id + ": at " + Math.round(r.left) + "-" + Math.round(r.right) + " px in a " + vw + " px viewport");
		}
		return out;
	})()`))
	if err != nil {
		t.Errorf("%s: %v", what, err)
	}
	for _, o := range out {
		t.Errorf("%s: the matrix's objective is out of view at 1280 px: %s", what, o)
	}
}

func logoutStep() journeyStep {
	return journeyStep{name: "logged-out", seen: true, actions: []chromedp.Action[chromedp.Void]{
		chromedp.Click(css(`[data-testid="logout"]`)),
		chromedp.WaitVisible(css(`input[name="email"]`)),
	}}
}

// TestBrowserRoleJourneys walks the app as its three roles would, in one
// browser against one server, each step's page looked at 375 and 1280 px
// wide (no sideways scroll) and checked by axe-core (no serious or
// critical violation). The lead starts a blank report, whose headline says
// what is missing; works the contract with the keyboard (the focus moves
// into the form htmx swaps in, onto the first invalid field of a refused
// save, back on the section after saving); freezes it; imports a
// generated GuideLLM file (the matrix's objective in view at 1280 px);
// enters costs and a scenario. The reviewer reads the demo (the headline's
// three answers) and the lead's report; finance reads the quotes and the
// demo's costs. Every step's screen is kept at both widths (the folder is
// logged); CAPPLAN_SCREENSHOTS=dir keeps whole pages too.
func TestBrowserRoleJourneys(t *testing.T) {
	app := newTestApp(t)
	demo := demoReport(t, app)
	ctx := browsertest.NewFor(t, 8*time.Minute)

	run := filepath.Join(t.TempDir(), "guidellm-run.json")
	f, err := os.Create(run)
	if err != nil {
		t.Fatal(err)
	}
	if err := guidellmgen.Write(f, guidellmgen.Config{}); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}

	// The fields the lead types (text into an input) and chooses (a
	// select, a box ticked, a file) on the way to the three answers,
	// counted by name: at most 40 typed.
	typed, chosen := map[string]bool{}, map[string]bool{}
	lean := contractValues(0)
	for _, k := range []string{"objective.e2e_max_s", "objective.min_headroom", "device_memory_gib", "test_date"} {
		lean.Del(k) // not needed for the freeze or the answers
	}
	fill := contractFill(lean, typed)
	for _, k := range []string{"workload.data", "workload.prompts", "load_kind"} {
		delete(typed, k)
		chosen[k] = true
	}
	typeIn := func(sel, name, v string) chromedp.Action[chromedp.Void] {
		typed[name] = true
		return chromedp.SetValue(css(sel+` [name="`+name+`"]`), v)
	}
	// choose picks an option as a person does: the change event fires.
	choose := func(sel, name, v string) chromedp.Action[chromedp.Void] {
		chosen[name] = true
		return chromedp.Evaluate[chromedp.Void](`(() => { const e = document.querySelector('` + sel + ` [name="` + name + `"]'); e.value = "` + v + `"; e.dispatchEvent(new Event("change", {bubbles: true})); })()`)
	}
	costs := []chromedp.Action[chromedp.Void]{
		choose(`[data-testid="self-hosted-form"]`, "self_hosted.equipment_mode", "rent"),
		choose(`[data-testid="self-hosted-form"]`, "self_hosted.rent_includes_power", "yes"),
		typeIn(`[data-testid="self-hosted-form"]`, "self_hosted.source", "cloud offer and ops plan"),
		typeIn(`[data-testid="self-hosted-form"]`, "self_hosted.evidence_date", time.Now().UTC().Format("2006-01-02")),
	}
	for _, f := range []struct{ name, amount string }{
		{"rent_per_hour", "2.5"}, {"facilities", "0"}, {"hosting", "0"}, {"support", "150"}, {"software", "0"},
		{"monitoring", "20"}, {"backup", "10"}, {"labour_hours_per_month", "8"}, {"labour_rate", "75"}, {"downtime_allowance", "50"},
	} {
		costs = append(costs, typeIn(`[data-testid="self-hosted-form"]`, "self_hosted."+f.name, f.amount))
	}
	chosen["quote_id"] = true // the library's quote, as the attach form offers it
	scenario := []chromedp.Action[chromedp.Void]{
		typeIn(`[data-testid="scenario-form"]`, "scenarios[1].monthly_requests", "300000"),
		choose(`[data-testid="scenario-form"]`, "scenarios[1].busy_hour_kind", "day_share"),
		typeIn(`[data-testid="scenario-form"]`, "scenarios[1].busy_hour", "0.1"),
	}
	const title = "Chat on one H100"

	lead := []journeyStep{
		{name: "login", actions: []chromedp.Action[chromedp.Void]{
			chromedp.Navigate(app.srv.URL + "/login"),
			chromedp.WaitVisible(css(`input[name="email"]`)),
		}},
		{name: "reports", actions: browserLogin(app, app.users["lead"].Email)},
		{name: "blank-report", actions: []chromedp.Action[chromedp.Void]{
			chromedp.Click(css(`[data-testid="new-report"]`)),
			chromedp.SendKeys(css(`input[name="title"]`), title),
			chromedp.Click(css(`[data-testid="create-report"]`)),
			browsertest.WaitText(`[data-testid="report-title"]`, title),
			// A new report opens at its first step, the contract.
			chromedp.WaitVisible(css(`[data-testid="step-contract"] a[aria-current="page"]`)),
			// The overview says what is missing, and where to enter it.
			chromedp.Click(css(`[data-testid="step-overview"] a`)),
			browsertest.WaitText(`[data-testid="headline-serve-missing"]`, "No load-test results imported"),
			chromedp.WaitVisible(css(`[data-testid="headline-own-missing"]`)),
			chromedp.WaitVisible(css(`[data-testid="headline-decision-missing"]`)),
		}, after: func(ctx context.Context, t *testing.T) {
			if err := chromedp.Do(ctx, chromedp.KeyEvent("\t")); err != nil {
				t.Fatal(err)
			}
			focusIs(ctx, t, "the first Tab", `a.dataset.testid === "skip-link"`)
		}},
		{name: "contract-form-by-keyboard", actions: []chromedp.Action[chromedp.Void]{
			chromedp.Click(css(`[data-testid="path-next-link"]`)),
			chromedp.WaitVisible(css(`[data-testid="edit-contract"]`)),
			chromedp.Focus(css(`[data-testid="edit-contract"]`)),
			chromedp.KeyEvent("\r"),
			chromedp.WaitVisible(css(`[data-testid="contract-form"]`)),
		}, after: func(ctx context.Context, t *testing.T) {
			focusIs(ctx, t, "Enter on the contract's Edit", `!!a.closest('[data-testid="contract-form"]') && a.matches("input, select, textarea")`)
		}},
		{name: "contract-refused", actions: append(append([]chromedp.Action[chromedp.Void]{}, fill...),
			typeIn("", "workload.output_tokens", "lots"),
			typeIn("", "row_duration_s", "long"),
			chromedp.Click(css(`[data-testid="save-contract"]`)),
			browsertest.WaitText(`[data-testid="form-errors"]`, "Please fix 2 fields"),
		), after: func(ctx context.Context, t *testing.T) {
			focusIs(ctx, t, "a refused contract", `!!a.closest("#contract") && a === [...a.closest("#contract").querySelectorAll('[aria-invalid="true"]')].find(e => e.getClientRects().length > 0)`)
		}},
		{name: "contract-saved", actions: []chromedp.Action[chromedp.Void]{
			chromedp.SetValue(css(`input[name="workload.output_tokens"]`), "256"),
			chromedp.SetValue(css(`input[name="row_duration_s"]`), "30"),
			chromedp.Click(css(`input[name="objective.no_oom"]`)),
			chromedp.Click(css(`[data-testid="save-contract"]`)),
			chromedp.WaitVisible(css(`[data-testid="freeze"]`)),
		}, after: func(ctx context.Context, t *testing.T) {
			focusIs(ctx, t, "the contract saved", `!!a.closest("#contract") && !a.closest("form")`)
		}},
		{name: "contract-frozen", actions: []chromedp.Action[chromedp.Void]{
			chromedp.Click(css(`[data-testid="freeze-confirm"]`)),
			chromedp.Click(css(`[data-testid="freeze"]`)),
			browsertest.WaitText(`[data-testid="frozen"]`, "Frozen"),
		}},
		{name: "results-imported", actions: []chromedp.Action[chromedp.Void]{
			// The results step from the step bar. (Its "next" stays on the
			// contract: the path wants a test date, which the freeze does
			// not need and the three answers do not use.)
			chromedp.Click(css(`[data-testid="step-results"] a`)),
			chromedp.WaitVisible(css(`[data-testid="upload-input"]`)),
			chromedp.SetUploadFiles(css(`[data-testid="upload-input"]`), []string{run}),
			browsertest.WaitText(`[data-testid="import-result"]`, "Added 5 rows"),
			chromedp.WaitVisible(css(`#matrix [data-testid="matrix-row-4"]`)),
		}, after: func(ctx context.Context, t *testing.T) {
			chosen["file"] = true
			objectiveInView(ctx, t, "the lead's matrix")
		}},
		{name: "costs", actions: append(append([]chromedp.Action[chromedp.Void]{
			chromedp.Click(css(`[data-testid="step-costs"] a`)),
			chromedp.WaitVisible(css(`[data-testid="self-hosted-form"]`)),
		}, costs...),
			waitTrue("no power asked once the rent includes it", `!document.querySelector('[data-testid="self-hosted-form"] [name="self_hosted.power_price_per_kwh"]').checkVisibility()`),
			chromedp.Click(css(`[data-testid="save-costs"]`)),
			browsertest.WaitText(`[data-testid="line-power"]`, "included in the rent"),
			chromedp.WaitVisible(css(`[data-testid="attach-quote"]`)),
			chromedp.Click(css(`[data-testid="attach-quote"]`)),
			chromedp.WaitVisible(css(`[data-testid="quote-cost"]`)),
		)},
		{name: "scenario", actions: append(append([]chromedp.Action[chromedp.Void]{
			chromedp.Click(css(`[data-testid="step-decision"] a`)),
			chromedp.WaitVisible(css(`[data-testid="scenario-form"]`)),
		}, scenario...),
			chromedp.Click(css(`[data-testid="save-scenarios"]`)),
			chromedp.WaitVisible(css(`[data-testid="per1000-expected-self-hosted"]`)),
		)},
		{name: "three-answers", actions: []chromedp.Action[chromedp.Void]{
			chromedp.Click(css(`[data-testid="step-overview"] a`)),
			chromedp.WaitVisible(css(`[data-testid="headline-serve"][data-answered="true"]`)),
			chromedp.WaitVisible(css(`[data-testid="headline-admit"][data-answered="true"]`)),
			chromedp.WaitVisible(css(`[data-testid="headline-own"][data-answered="true"]`)),
		}, after: func(ctx context.Context, t *testing.T) {
			typed["title"] = true
			t.Logf("the lead reached the three answers typing %d fields and choosing %d (%s; chosen: %s)",
				len(typed), len(chosen), strings.Join(view.SortedKeys(typed), ", "), strings.Join(view.SortedKeys(chosen), ", "))
			if len(typed) > 40 {
				t.Errorf("the lead typed %d fields to reach the three answers, want at most 40", len(typed))
			}
		}},
		logoutStep(),
	}
	runJourney(ctx, t, "lead", lead)

	list, err := app.store.Reports(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var mine int64
	for _, r := range list {
		if r.Title == title {
			mine = r.ID
		}
	}
	if mine == 0 {
		t.Fatalf("the lead's report is not in %v", list)
	}

	reviewer := []journeyStep{
		{name: "reports", actions: browserLogin(app, app.users["reviewer"].Email)},
		{name: "demo", actions: []chromedp.Action[chromedp.Void]{
			chromedp.Navigate(fmt.Sprintf("%s/reports/%d", app.srv.URL, demo.ID)),
			// The headline's three answers.
			chromedp.WaitVisible(css(`[data-testid="headline-serve"][data-answered="true"]`)),
			chromedp.WaitVisible(css(`[data-testid="headline-admit"][data-answered="true"]`)),
			chromedp.WaitVisible(css(`[data-testid="headline-own"][data-answered="true"]`)),
			browsertest.WaitText(`[data-testid="headline-admit-answer"]`, "requests in flight"),
			browsertest.WaitText(`[data-testid="headline-own"]`, "per 1,000"),
		}},
		{name: "demo-results", actions: []chromedp.Action[chromedp.Void]{
			chromedp.Click(css(`[data-testid="headline-serve-evidence"]`)),
			chromedp.WaitVisible(css(`#matrix [data-testid="matrix-row-4"]`)),
		}, after: func(ctx context.Context, t *testing.T) {
			objectiveInView(ctx, t, "the demo's matrix")
		}},
		{name: "demo-print", actions: []chromedp.Action[chromedp.Void]{
			chromedp.Click(css(`[data-testid="print-link"]`)),
			chromedp.WaitVisible(css(`#history`)),
			chromedp.WaitVisible(css(`#costs`)),
		}},
		{name: "leads-report", actions: []chromedp.Action[chromedp.Void]{
			chromedp.Navigate(fmt.Sprintf("%s/reports/%d#matrix", app.srv.URL, mine)),
			browsertest.WaitText(`[data-testid="report-title"]`, title),
			chromedp.WaitVisible(css(`#matrix [data-testid="matrix-row-4"]`)),
		}},
		logoutStep(),
	}
	runJourney(ctx, t, "reviewer", reviewer)

	finance := []journeyStep{
		{name: "reports", seen: true, actions: browserLogin(app, app.users["finance"].Email)},
		{name: "quotes", actions: []chromedp.Action[chromedp.Void]{
			chromedp.Navigate(app.srv.URL + "/quotes"),
			chromedp.WaitVisible(css(`[data-testid="quote-form"]`)),
		}},
		{name: "demo-costs", actions: []chromedp.Action[chromedp.Void]{
			chromedp.Navigate(fmt.Sprintf("%s/reports/%d#costs", app.srv.URL, demo.ID)),
			chromedp.WaitVisible(css(`[data-testid="settings-form"]`)),
		}},
		logoutStep(),
	}
	runJourney(ctx, t, "finance", finance)

	// The refused contract's 422 is logged by the browser as a failed
	// load; it is the expected answer, anything else is not.
	for _, e := range browsertest.ConsoleErrors(ctx) {
		if !strings.Contains(e, "status of 422") {
			t.Errorf("console error: %s", e)
		}
	}
}
