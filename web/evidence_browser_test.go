package web

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"capplan/planner"
	"capplan/web/browsertest"
	"capplan/web/demogen/telemetrygen"
	"capplan/web/reports"
	"capplan/web/store"
)

// browserLogin logs who in.
func browserLogin(app *testApp, email string) []chromedp.Action[chromedp.Void] {
	return []chromedp.Action[chromedp.Void]{
		chromedp.Navigate(app.srv.URL + "/login"),
		chromedp.SendKeys(css(`input[name="email"]`), email),
		chromedp.SendKeys(css(`input[name="password"]`), testPassword),
		chromedp.Click(css(`[data-testid="login-submit"]`)),
		browsertest.WaitText(`h1`, "Reports"),
	}
}

// TestBrowserTelemetryIntoDemo: an admin imports a GPU log into the demo
// report and the matrix's headroom comes from it.
func TestBrowserTelemetryIntoDemo(t *testing.T) {
	app := newTestApp(t)
	demo := demoReport(t, app)
	ctx := context.Background()

	// A GPU log of the demo's rows with more memory in use than the seeded
	// one: each row's headroom becomes 1 - 73,400 / 81,559 = 10.0 %.
	stored, err := app.store.Rows(ctx, demo.ID)
	if err != nil {
		t.Fatal(err)
	}
	var rows []planner.Row
	for _, sr := range stored {
		if sr.CandidateID == 0 {
			rows = append(rows, sr.Row)
		}
	}
	sort.Slice(rows, func(a, b int) bool { la, _ := rows[a].LoadValue(); lb, _ := rows[b].LoadValue(); return la < lb })
	cfg := telemetrygen.Config{Start: DemoTelemetryStart(), LeadS: 10}
	for _, r := range rows {
		cfg.Rows = append(cfg.Rows, telemetrygen.Row{DurationS: *r.DurationS, Watts: 600, MemUsedMiB: 73400, UtilPct: 99, TempC: 60})
	}
	smi := filepath.Join(t.TempDir(), "smi.csv")
	f, err := os.Create(smi)
	if err != nil {
		t.Fatal(err)
	}
	if err := telemetrygen.Write(f, cfg); err != nil {
		t.Fatal(err)
	}
	f.Close()

	bctx := browsertest.New(t)
	err = chromedp.Do(bctx, append(browserLogin(app, app.users["admin"].Email),
		chromedp.Navigate(fmt.Sprintf("%s/reports/%d#evidence-telemetry", app.srv.URL, demo.ID)),
		chromedp.WaitVisible(css(`[data-testid="telemetry-table"]`)),
		chromedp.Click(css(`[data-testid="evidence-edit-telemetry"] > summary`)),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid="telemetry-start"]').value = "`+DemoTelemetryStart().Format("2006-01-02T15:04:05")+`"`),
		chromedp.SetUploadFiles(css(`[data-testid="evidence-file-telemetry"]`), []string{smi}),
		chromedp.Click(css(`[data-testid="evidence-submit-telemetry"]`)),
		browsertest.WaitText(`[data-testid="flash"]`, "smi.csv"),
		browsertest.WaitText(`[data-testid="evidence-source-telemetry"]`, "smi.csv"),
		browsertest.WaitText(`[data-testid="telemetry-table"]`, "10.0 %"),
	)...)
	if err != nil {
		t.Fatal(err)
	}
	if errs := browsertest.ConsoleErrors(bctx); len(errs) > 0 {
		t.Fatalf("console errors: %v", errs)
	}
}

// TestBrowserSoakExitItem: the lead imports a soak table into a report whose
// contract asks for a six-hour soak, and the exit check's soak item turns
// from failing to passing.
func TestBrowserSoakExitItem(t *testing.T) {
	app := newTestApp(t)
	ctx := context.Background()
	soak := filepath.Join(t.TempDir(), "soak.md")
	if err := os.WriteFile(soak, []byte(DemoSoak), 0o644); err != nil {
		t.Fatal(err)
	}
	lead := app.users["lead"]
	sid, err := app.store.CreateReport(ctx, lead, "Soak test")
	if err != nil {
		t.Fatal(err)
	}
	c := reports.DemoContract()
	c.SoakHours = 6
	if err := app.store.SaveContract(ctx, store.Edit{ReportID: sid, BaseVersion: 1, UserID: lead.ID, Action: "contract edited", Section: "contract"}, c, nil); err != nil {
		t.Fatal(err)
	}
	bctx := browsertest.New(t)
	err = chromedp.Do(bctx, append(browserLogin(app, app.users["lead"].Email),
		chromedp.Navigate(fmt.Sprintf("%s/reports/%d", app.srv.URL, sid)),
		browsertest.WaitText(`[data-testid="exit-soak"]`, "none imported"),
		chromedp.Click(css(`[data-testid="exit-soak"] a`)), // the exit check's link to the soak, on the evidence step
		chromedp.WaitVisible(css(`[data-testid="evidence-edit-soak"] > summary`)),
		chromedp.Click(css(`[data-testid="evidence-edit-soak"] > summary`)),
		chromedp.SetUploadFiles(css(`[data-testid="evidence-file-soak"]`), []string{soak}),
		chromedp.Click(css(`[data-testid="evidence-submit-soak"]`)),
		// 11,868 / (11,868 + 2) = 99.983 %.
		browsertest.WaitText(`[data-testid="soak-availability"]`, "99.983 %"),
		browsertest.WaitText(`[data-testid="no-inflight-loss"]`, "No in-flight loss"),
		chromedp.Navigate(fmt.Sprintf("%s/reports/%d", app.srv.URL, sid)),
		chromedp.WaitVisible(css(`[data-testid="exit-soak"][data-pass="true"]`)),
	)...)
	if err != nil {
		t.Fatal(err)
	}
}

// TestBrowserCompareCandidates: a reviewer opens a comparison of the demo's
// baseline and its FP8 candidate from the report page, and its URL carries
// the picks so it can be shared.
func TestBrowserCompareCandidates(t *testing.T) {
	app := newTestApp(t)
	demo := demoReport(t, app)
	cands, err := app.store.Candidates(context.Background(), demo.ID)
	if err != nil {
		t.Fatal(err)
	}
	var fp8 int64
	for _, cd := range cands {
		if cd.Candidate.Name == "fp8" {
			fp8 = cd.ID
		}
	}
	bctx := browsertest.New(t)
	err = chromedp.Do(bctx, append(browserLogin(app, app.users["reviewer"].Email),
		chromedp.Navigate(app.srv.URL+"/compare"),
		chromedp.Click(css(fmt.Sprintf(`[data-testid="compare-pick-%d"]`, demo.ID))),
		chromedp.Click(css(fmt.Sprintf(`[data-testid="compare-pick-%d.c%d"]`, demo.ID, fp8))),
		chromedp.Click(css(`[data-testid="compare-submit"]`)),
		chromedp.WaitVisible(css(`[data-testid="compare-table"]`)),
		browsertest.WaitText(`[data-testid="compare-differences"]`, "model\tmeta-llama/Llama-3.1-8B-Instruct\tmeta-llama/Llama-3.1-8B-Instruct-FP8"),
		browsertest.WaitText(`[data-testid="compare-ceiling"]`, "(+25 %)"),
	)...)
	if err != nil {
		t.Fatal(err)
	}
	loc, err := chromedp.Run(bctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("s=%d&s=%d.c%d", demo.ID, demo.ID, fp8); !strings.Contains(loc, want) {
		t.Errorf("comparison URL %q lacks %q", loc, want)
	}

	// Four subjects fit 1,280 px without scrolling, even their table's box;
	// the reviewer makes the candidate the reference from its column.
	lead, err := app.store.UserByEmail(context.Background(), app.users["lead"].Email)
	if err != nil {
		t.Fatal(err)
	}
	keys := []string{fmt.Sprint(demo.ID), fmt.Sprintf("%d.c%d", demo.ID, fp8)}
	for _, title := range []string{"Support assistant on two H200s with a longer context window", "Batch summarisation overnight on the shared H100 box"} {
		id, err := app.store.CreateReport(context.Background(), lead, title)
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, fmt.Sprint(id))
	}
	four := url.Values{"s": keys}.Encode()
	err = chromedp.Do(bctx,
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(app.srv.URL+"/compare?"+four),
		chromedp.WaitVisible(css(`[data-testid="compare-table"]`)),
		chromedp.Click(css(`[data-testid="compare-make-ref-1"]`)),
		browsertest.WaitText(`[data-testid="compare-reference"]`, "against "+demo.Title+": fp8, the reference"),
		chromedp.WaitVisible(css(`[data-testid="compare-col-1"] [data-testid="compare-is-reference"]`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	browsertest.NoHorizontalScroll(bctx, t, "compare-four", 1280)
	box, err := chromedp.Run(bctx, chromedp.Evaluate[[]int](`(() => {
		const b = document.querySelector('[data-testid="compare-table"]').parentElement;
		return [b.scrollWidth, b.clientWidth];
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if box[0] > box[1] {
		browsertest.Screenshot(bctx, t, "compare-four-box")
		t.Errorf("four subjects at 1280 px: the table is %d px wide in a %d px box, so it scrolls", box[0], box[1])
	}
}
