package web

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"capplan/web/browsertest"
	"capplan/web/demogen/guidellmgen"
	"capplan/web/reports"
	"capplan/web/store"
)

// TestBrowserPlanThenFrontierRatio: before the box exists the lead imports
// InferenceX rows into a frozen report, which becomes a plan (marked in the
// headline and the section, its first exit-check item failing, and the
// submit dialog naming it); then the load test's results are imported
// beside them, the plan mark goes, and the page gives the box's share of
// the public frontier with the reference rows drawn as their own series.
// Each state is looked at 375 and 1280 px wide: no sideways scroll, no
// serious axe violation.
func TestBrowserPlanThenFrontierRatio(t *testing.T) {
	app := newTestApp(t)
	// The demo's contract without the memory and OOM terms, which no
	// benchmark file records: the imported rows alone give the ceiling.
	ctx0 := t.Context()
	lead := app.users["lead"]
	id, err := app.store.CreateReport(ctx0, lead, "H100 plan")
	if err != nil {
		t.Fatal(err)
	}
	c := reports.DemoContract()
	c.Objective.MinHeadroom, c.Objective.NoOOM = nil, false
	if err := app.store.SaveContract(ctx0, store.Edit{ReportID: id, BaseVersion: 1, UserID: lead.ID, Action: "contract edited", Section: "contract"}, c, nil); err != nil {
		t.Fatal(err)
	}
	if err := app.store.Freeze(ctx0, store.Edit{ReportID: id, BaseVersion: 2, UserID: lead.ID, Action: "contract frozen", Section: "contract"}); err != nil {
		t.Fatal(err)
	}
	r, err := app.store.Report(ctx0, id)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	agg := filepath.Join(dir, "agg_bmk.json")
	if err := os.WriteFile(agg, inferenceXRows(false), 0o644); err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(dir, "benchmarks.json")
	f, err := os.Create(run)
	if err != nil {
		t.Fatal(err)
	}
	if err := guidellmgen.Write(f, guidellmgen.Config{}); err != nil {
		t.Fatal(err)
	}
	f.Close()

	ctx := browsertest.New(t)
	report := fmt.Sprintf("%s/reports/%d", app.srv.URL, r.ID)
	err = chromedp.Do(ctx, append(browserLogin(app, app.users["lead"].Email),
		chromedp.Navigate(report+"#reference"),
		browsertest.WaitText(`[data-testid="reference-none"]`, "No reference rows"),
		chromedp.Click(css(`[data-testid="reference-edit-import"] > summary`)),
		chromedp.SetValue(css(`[data-testid="reference-import-date"]`), "2026-11-20"),
		chromedp.SetUploadFiles(css(`[data-testid="reference-file"]`), []string{agg}),
		chromedp.Click(css(`[data-testid="reference-submit-import"]`)),
		browsertest.WaitText(`[data-testid="flash"]`, "agg_bmk.json: 5 reference rows imported"),
		browsertest.WaitText(`[data-testid="reference-plan"]`, "A plan cannot be approved"),
		// The overview says it is a plan, and so does the exit check.
		chromedp.Click(css(`[data-testid="step-overview"] a`)),
		browsertest.WaitText(`[data-testid="headline-reference"]`, "Plan, not evidence: A plan: the public frontier"),
		chromedp.WaitVisible(css(`[data-testid="exit-plan"][data-pass="false"]`)),
		chromedp.Navigate(report+"#envelope"),
		browsertest.WaitText(`[data-testid="envelope-chart-reference"]`, "public frontier (reference, not evidence)"),
	)...)
	if err != nil {
		t.Fatal(err)
	}
	lookAt(ctx, t, "plan-report")

	// Submitting asks first, naming the plan's item; going back leaves it a draft.
	err = chromedp.Do(ctx,
		chromedp.Navigate(report+"/review"),
		chromedp.Click(css(`[data-testid="submit-review-open"]`)),
		browsertest.WaitText(`[data-testid="submit-failing"]`, "Evidence from the box, not only the public frontier"),
		browsertest.WaitText(`[data-testid="review-state"]`, "draft"),
		chromedp.Click(css(`[data-testid="submit-go-back"]`)),
		chromedp.WaitVisible(css(`[data-testid="exit-plan"][data-pass="false"]`)),
	)
	if err != nil {
		t.Fatal(err)
	}

	// The results of the box, imported beside the reference rows.
	err = chromedp.Do(ctx,
		chromedp.Navigate(report+"/print#imports"),
		chromedp.SetUploadFiles(css(`[data-testid="upload-input"]`), []string{run}),
		browsertest.WaitText(`[data-testid="import-result"]`, "Added 5 rows"),
		// 230.1 output tok/s on 1 GPU at 1/33.7 ms = 29.7 tok/s/user; the
		// frontier there, between 12 and 30 tok/s/user: about 2,215.
		browsertest.WaitText(`[data-testid="reference-ratio"]`, "of the public frontier at 29.7 tok/s/user"),
		browsertest.WaitText(`[data-testid="headline-reference"]`, "Your box reaches"),
		chromedp.WaitVisible(css(`[data-testid="headline-reference"][data-plan="false"]`)),
		chromedp.WaitVisible(css(`[data-testid="reference-ratios"]`)),
		browsertest.WaitText(`[data-testid="reference-differences"]`, "ignore-eos"),
	)
	if err != nil {
		t.Fatal(err)
	}
	gone, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('[data-testid="reference-plan"]') === null && document.querySelector('[data-testid="exit-plan"]') === null`))
	if err != nil {
		t.Fatal(err)
	}
	if !gone {
		t.Error("the plan mark or its exit item stayed after the results were imported")
	}
	err = chromedp.Do(ctx,
		chromedp.Navigate(report+"/print#envelope"),
		browsertest.WaitText(`[data-testid="envelope-chart-reference"]`, "diamonds"),
	)
	if err != nil {
		t.Fatal(err)
	}
	series, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('[data-testid="envelope-chart"]').innerHTML.includes("public frontier (reference, not evidence)")`))
	if err != nil {
		t.Fatal(err)
	}
	if !series {
		t.Error("the envelope chart does not name the reference series")
	}
	lookAt(ctx, t, "frontier-ratio")
	if errs := browsertest.ConsoleErrors(ctx); len(errs) > 0 {
		t.Fatalf("console errors: %v", errs)
	}
}
