package web

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"capplan/web/browsertest"
	"capplan/web/demogen/guidellmgen"
)

// TestBrowserEnvelopeJourney: a lead opens a report with a frozen contract
// and an imported five-row matrix, reads the verdicts, the ceiling, the
// admission limit and the chart; types observed figures for a row twice
// (each save swaps the matrix and, out of band, the envelope with its
// chart); records an overload test; and adds two candidates with their
// regression gates (the baseline, judged on the report's matrix, passed;
// a quantized variant failed) to get the decision sentence.
func TestBrowserEnvelopeJourney(t *testing.T) {
	app := newTestApp(t)
	id, rows := seedMatrix(t, app)
	ctx := browsertest.New(t)
	row8 := fmt.Sprintf(`[data-testid="observed-form-%d"]`, rows[8])
	row4 := fmt.Sprintf(`[data-testid="observed-form-%d"]`, rows[4])
	// openRow opens a row's form (a saved row's form comes back open).
	openRow := func(rid int64) chromedp.Action[chromedp.Void] {
		return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.getElementById("observed-%d").open = true`, rid))
	}

	type step struct {
		name    string
		actions []chromedp.Action[chromedp.Void]
	}
	observed := func(headroom, ceiling string) step {
		// Load 4's form is open with figures typed in but not saved while
		// load 8 is saved: they must survive the save.
		return step{"observed headroom " + headroom + " at load 8", []chromedp.Action[chromedp.Void]{
			openRow(rows[4]),
			openRow(rows[8]),
			chromedp.WaitVisible(css(row4 + ` input[name="headroom"]`)),
			chromedp.SetValue(css(row4+` input[name="headroom"]`), "33"),
			chromedp.SetValue(css(row4+` input[name="power_watts"]`), "512"),
			chromedp.WaitVisible(css(row8 + ` input[name="headroom"]`)),
			chromedp.SetValue(css(row8+` input[name="headroom"]`), headroom),
			chromedp.SetValue(css(row8+` input[name="power_watts"]`), "650"),
			chromedp.Click(css(fmt.Sprintf(`[data-testid="save-observed-%d"]`, rows[8]))),
			browsertest.WaitText(fmt.Sprintf(`[data-testid="observed-saved-%d"]`, rows[8]), "Saved"),
			browsertest.WaitText(`[data-testid="ceiling"]`, ceiling),
			browsertest.WaitText(`[data-testid="last-change"]`, "observed figures of load 8"),
			chromedp.WaitVisible(css(`#envelope .chart canvas`)),
		}}
	}
	steps := []step{
		{"log in and open the report", append(browserLogin(app, app.users["lead"].Email),
			chromedp.Navigate(fmt.Sprintf("%s/reports/%d/results", app.srv.URL, id)),
		)},
		{"verdicts, ceiling, admission limit and chart", []chromedp.Action[chromedp.Void]{
			browsertest.WaitText(`[data-testid="matrix-row-4"] [data-testid="verdict"]`, "p95 end-to-end 16.2 s, above the 15 s bound"),
			browsertest.WaitText(`[data-testid="matrix-row-3"] [data-testid="verdict"]`, "pass"),
			browsertest.WaitText(`[data-testid="ceiling"]`, "Demonstrated ceiling: 8"),
			browsertest.WaitText(`[data-testid="max-in-flight"]`, "8"),
			browsertest.WaitText(`[data-testid="admission-settings"] summary`, "--max-num-seqs 8"),
			chromedp.WaitVisible(css(`#envelope .chart canvas`)),
		}},
		observed("5", "Demonstrated ceiling: 4"),
		observed("25", "Demonstrated ceiling: 8"),
		{"record the overload test", []chromedp.Action[chromedp.Void]{
			chromedp.SetValue(css(`#overload input[name="sent"]`), "20 concurrent streams for 60 s"),
			chromedp.SetValue(css(`[data-testid="overload-outcome"]`), "429-retry-after"),
			chromedp.Click(css(`#overload input[name="retry_after"]`)),
			chromedp.Click(css(`#overload input[name="worker_healthy"]`)),
			chromedp.Click(css(`#overload input[name="recovered"]`)),
			chromedp.Click(css(`[data-testid="save-overload"]`)),
			browsertest.WaitText(`[data-testid="overload-verdict"]`, "pass"),
			browsertest.WaitText(`[data-testid="overload-reasons"]`, "refused with 429 and Retry-After"),
		}},
	}
	runSteps := func(steps []step) {
		t.Helper()
		for _, s := range steps {
			if err := chromedp.Do(ctx, browsertest.Steady(s.actions...)...); err != nil {
				t.Fatalf("%s: %v (console: %q)", s.name, err, browsertest.ConsoleErrors(ctx))
			}
		}
	}
	runSteps(steps)
	checkResultsStep(t, ctx, rows)
	steps = nil
	steps = append(steps, step{"go to the candidates, on the evidence step", []chromedp.Action[chromedp.Void]{
		chromedp.Navigate(fmt.Sprintf("%s/reports/%d/evidence#candidates", app.srv.URL, id)),
		chromedp.WaitVisible(css(`[data-testid="candidate-add"] > summary`)),
	}})
	for _, c := range []struct{ name, quant, outcome string }{{"bf16", "", "pass"}, {"awq-int4", "awq-int4", "fail"}} {
		baseline := chromedp.Action[chromedp.Void](chromedp.Click(css(`[data-testid="candidate-form-new"] input[name="baseline"]`)))
		if c.name != "bf16" {
			baseline = chromedp.WaitVisible(css(`[data-testid="candidate-form-new"] input[name="baseline"]`))
		}
		steps = append(steps, step{"add candidate " + c.name, []chromedp.Action[chromedp.Void]{
			chromedp.Click(css(`[data-testid="candidate-add"] > summary`)),
			chromedp.WaitVisible(css(`[data-testid="candidate-form-new"] input[name="name"]`)),
			baseline,
			chromedp.SetValue(css(`[data-testid="candidate-form-new"] input[name="name"]`), c.name),
			chromedp.SetValue(css(`[data-testid="candidate-form-new"] input[name="quantization"]`), c.quant+" "),
			chromedp.SetValue(css(`[data-testid="candidate-form-new"] input[name="gate.gate"]`), "support-tasks-v3"),
			chromedp.SetValue(css(`[data-testid="candidate-form-new"] input[name="gate.cases"]`), "200"),
			chromedp.SetValue(css(`[data-testid="candidate-form-new"] select[name="gate.pass"]`), c.outcome),
			chromedp.SetValue(css(`[data-testid="candidate-form-new"] input[name="gate.date"]`), "2026-11-18"),
			chromedp.Click(css(`[data-testid="save-candidate-new"]`)),
			browsertest.WaitText(`#candidates`, c.name),
		}})
	}
	// awq-int4's own run: the upload refreshes the candidates section with
	// its compact matrix and row forms (not the imports list), and a row
	// of it saves on its own.
	run := filepath.Join(t.TempDir(), "awq-int4-run.json")
	f, err := os.Create(run)
	if err != nil {
		t.Fatal(err)
	}
	if err := guidellmgen.Write(f, guidellmgen.Config{}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	awq := `[data-testid="candidate-awq-int4"]`
	steps = append(steps, step{"import awq-int4's run and type in a row of it", []chromedp.Action[chromedp.Void]{
		chromedp.SetUploadFiles(css(`[data-testid="candidate-upload-awq-int4"] input[type="file"]`), []string{run}),
		browsertest.WaitText(awq+` [data-testid="candidate-import-result"]`, "Added 5 rows from 1 file."),
		chromedp.WaitVisible(css(awq + ` table.compact tbody tr`)),
		chromedp.Click(css(`[data-testid="candidate-observed-awq-int4"] > summary`)),
		chromedp.Click(css(`[data-testid="candidate-observed-awq-int4"] details.observed > summary`)),
		chromedp.SetValue(css(`[data-testid="candidate-observed-awq-int4"] details.observed input[name="headroom"]`), "30"),
		chromedp.Click(css(`[data-testid="candidate-observed-awq-int4"] details.observed button[type="submit"]`)),
		browsertest.WaitText(`[data-testid="candidate-observed-awq-int4"] details.observed .flash.ok`, "Saved"),
		browsertest.WaitText(`[data-testid="last-change"]`, "observed figures of load"),
	}})
	steps = append(steps, step{"decision", []chromedp.Action[chromedp.Void]{
		browsertest.WaitText(`[data-testid="candidate-decision"]`, "candidate bf16 fits with 20 % observed headroom and meets the objective through load 8 concurrent streams"),
		browsertest.WaitText(`[data-testid="candidate-explanation"]`, "awq-int4 is not compared: failed regression gate"),
	}})

	runSteps(steps)
	// awq-int4's rows each have one place for their form, none twice.
	places, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
		const forms = [...document.querySelectorAll('form[data-testid^="observed-form-"]')].map(f => f.dataset.testid);
		return document.querySelectorAll('details.observed').length + " " + (forms.length - new Set(forms).size);
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if places != "5 0" {
		t.Errorf("candidate row places and forms shown twice = %q, want \"5 0\"", places)
	}
	// The candidate's upload drew no imports list inside the candidates.
	lists, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#candidates [data-testid="import"], #candidates #imports').length`))
	if err != nil {
		t.Fatal(err)
	}
	if lists != 0 {
		t.Error("the imports list is drawn inside the candidates section")
	}
	if errs := browsertest.ConsoleErrors(ctx); len(errs) != 0 {
		t.Errorf("console errors: %q", errs)
	}
}

// checkResultsStep checks the results step after the row saves: what was
// typed in load 4's open form outlived the saves of load 8, each row has
// one place for its form, and the chart swapped in is one live instance.
func checkResultsStep(t *testing.T, ctx context.Context, rows map[float64]int64) {
	t.Helper()
	// What was typed in load 4's open form outlived the saves of load 8.
	kept, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`(() => {
		const d = document.getElementById("observed-%d");
		return d.open + " " + d.querySelector('input[name="headroom"]').value + " " + d.querySelector('input[name="power_watts"]').value;
	})()`, rows[4])))
	if err != nil {
		t.Fatal(err)
	}
	if kept != "true 33 512" {
		t.Errorf("load 4's typed figures after saving load 8: %q, want open with 33 and 512", kept)
	}
	// The page holds one place per row for its form (fetched when first
	// opened), and no row's form twice after the swaps.
	places, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
		const forms = [...document.querySelectorAll('form[data-testid^="observed-form-"]')].map(f => f.dataset.testid);
		return document.querySelectorAll('details.observed').length + " " + (forms.length - new Set(forms).size);
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("%d 0", len(rows)); places != want {
		t.Errorf("row places and forms shown twice = %q, want %q (the matrix's rows, no form twice)", places, want)
	}

	// The chart swapped in twice is one live instance drawn from the
	// latest option, with the ceiling line at 8.
	if err := chromedp.Do(ctx, waitTrue("the envelope chart drawn", `!!(window.echarts && echarts.getInstanceByDom(document.querySelector("#envelope .chart")))`)); err != nil {
		t.Fatal(err)
	}
	ceiling, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
		const c = echarts.getInstanceByDom(document.querySelector("#envelope .chart"));
		return c ? c.getOption().series[0].markLine.data[0].name : "no chart";
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if ceiling != "ceiling 8" {
		t.Errorf("chart ceiling line = %q, want %q", ceiling, "ceiling 8")
	}
}

// TestBrowserMatrixPrintFitsPage: printed on an A4-wide page the matrix
// fits the page width (small type, wrapping cells, the least important
// columns left out), and on screen its judged columns, right after the
// verdict, are in view without scrolling. MATRIX_SHOT=dir keeps the two
// screenshots for a look.
func TestBrowserMatrixPrintFitsPage(t *testing.T) {
	app := newTestApp(t)
	id, _ := seedMatrix(t, app)
	ctx := browsertest.New(t)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.srv.URL+"/login"),
		chromedp.SendKeys(css(`input[name="email"]`), app.users["lead"].Email),
		chromedp.SendKeys(css(`input[name="password"]`), testPassword),
		chromedp.Click(css(`[data-testid="login-submit"]`)),
		browsertest.WaitText(`h1`, "Reports"),
		chromedp.Navigate(fmt.Sprintf("%s/reports/%d#matrix", app.srv.URL, id)),
		browsertest.WaitText(`[data-testid="matrix-row-4"] [data-testid="verdict"]`, "fail"),
	); err != nil {
		t.Fatal(err)
	}
	// right edge of the E2E judged cell against the scroll box's.
	const judgedInView = `(() => {
		const box = document.getElementById("matrix-table-wrap").getBoundingClientRect();
		const cell = document.querySelector('[data-testid="matrix-row-4"] [data-testid="e2e-p95"]').getBoundingClientRect();
		return cell.right <= box.right + 1;
	})()`
	inView, err := chromedp.Run(ctx, chromedp.Evaluate[bool](judgedInView))
	if err != nil {
		t.Fatal(err)
	}
	if !inView {
		t.Error("on screen the judged E2E p95 column is scrolled out of view")
	}
	shot(t, ctx, "matrix-screen.png")

	// A4 at 96 dpi is 794 px wide; print margins leave less.
	if err := chromedp.Do(ctx,
		chromedp.EmulateViewport(740, 1000),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"})
			return err
		}),
	); err != nil {
		t.Fatal(err)
	}
	fit, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => {
		const t = document.querySelector('[data-testid="matrix-table"]');
		const hidden = getComputedStyle(t.querySelector("th.print-hide")).display === "none" ? 1 : 0;
		return [t.scrollWidth, document.documentElement.clientWidth, hidden];
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if len(fit) != 3 || fit[0] > fit[1] || fit[2] != 1 {
		t.Errorf("printed matrix: table %v px wide on a page of %v px (print-hide applied: %v)", fit[0], fit[1], fit[2])
	}
	shot(t, ctx, "matrix-print.png")
}

// shot keeps a screenshot of the matrix in $MATRIX_SHOT, when set.
func shot(t *testing.T, ctx context.Context, name string) {
	dir := os.Getenv("MATRIX_SHOT")
	if dir == "" {
		return
	}
	b, err := chromedp.Run(ctx, chromedp.Screenshot(css(`#matrix`)))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
		t.Fatal(err)
	}
}
