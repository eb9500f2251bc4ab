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
	"capplan/web/store"
)

// waitTrue waits until the JavaScript condition cond holds on the page,
// starting again on the new page when a navigation (Back reloading the
// address) tears the old one down.
func waitTrue(what, cond string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		deadline := time.Now().Add(browsertest.WaitTimeout)
		for {
			_, err := chromedp.Poll[bool](cond, chromedp.WithPollingInterval(50*time.Millisecond),
				chromedp.WithPollingTimeout(time.Until(deadline)))(ctx, t)
			if err == nil {
				return chromedp.Void{}, nil
			}
			if time.Now().After(deadline) || ctx.Err() != nil {
				return chromedp.Void{}, fmt.Errorf("waiting for %s: %w", what, err)
			}
			time.Sleep(50 * time.Millisecond) // the next page is loading
		}
	}
}

// TestBrowserTrustJourney: the demo's owner imports a file off the
// contract (another model, 4 requests): its row is shown "not counted"
// with the reason and the ceiling stays at 8; a slow run at 6 streams
// counts and drops the ceiling to 4, and removing it brings 8 back, with
// no reload. An amendment without a reason is refused and the focus goes
// to the error summary; with one, the loosened objective is judged on the
// page at once, and Back does not come back to the form. Submitted, the
// reviewer cannot approve until they accept the loosening in writing;
// approved, a later edit of the library quote leaves the report's figures
// and version as they were, while a draft using the quote records the edit
// in its history.
func TestBrowserTrustJourney(t *testing.T) {
	app := newTestApp(t)
	r := seedDemoInto(t, app)
	qs, err := app.store.ReportQuotes(context.Background(), r.ID)
	if err != nil || len(qs) == 0 {
		t.Fatalf("demo quotes %v %v", qs, err)
	}
	quote := qs[0]
	// The whole report on one page: the exit check, the matrix, the
	// imports and the history read together.
	report := fmt.Sprintf("%s/reports/%d/print", app.srv.URL, r.ID)
	// A draft priced with the same library quote.
	lead := app.users["lead"]
	draft, err := app.store.CreateReport(context.Background(), lead, "Draft using the quote")
	if err != nil {
		t.Fatal(err)
	}
	if err := app.store.AttachQuote(context.Background(), store.Edit{ReportID: draft, BaseVersion: 1, UserID: lead.ID, Action: "quote attached", Section: "costs"}, quote.ID); err != nil {
		t.Fatal(err)
	}

	qwen, err := filepath.Abs(benchQwenSanity)
	if err != nil {
		t.Fatal(err)
	}
	// One row at 6 streams on a box that saturates at 2: it fails the
	// objective, so the demo's ceiling falls from 8 to 4.
	slow := filepath.Join(t.TempDir(), "slow-6-streams.json")
	f, err := os.Create(slow)
	if err != nil {
		t.Fatal(err)
	}
	if err := guidellmgen.Write(f, guidellmgen.Config{Loads: []float64{6}, Saturation: 2, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	f.Close()

	ctx := browsertest.NewFor(t, 4*time.Minute) // a long journey on a shared machine
	login := func(email string) []chromedp.Action[chromedp.Void] {
		return append(browserLogin(app, email), chromedp.Navigate(report), chromedp.WaitVisible(css(`[data-testid="exitcheck"]`)))
	}
	logout := browserLogout(app)
	// The page marks itself; the mark survives anything but a reload.
	mark := chromedp.Action[chromedp.Void](chromedp.Evaluate[chromedp.Void](`window.notReloaded = true`))
	notReloaded := waitTrue("the page not reloaded", `window.notReloaded === true`)
	// removeImport removes the import of the file named name, as its
	// "Remove this import…" form does.
	removeImport := func(name string) []chromedp.Action[chromedp.Void] {
		return []chromedp.Action[chromedp.Void]{
			chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
				const art = [...document.querySelectorAll('article[data-testid="import"]')]
					.find(a => a.querySelector('[data-testid="import-file"]').innerText.trim() === %q);
				art.querySelector('details.remove').open = true;
				art.querySelector('[data-testid="remove-import"]').click();
			})()`, name)),
			waitTrue(name+" gone from the imports", fmt.Sprintf(`![...document.querySelectorAll('[data-testid="import-file"]')].some(e => e.innerText.trim() === %q)`, name)),
		}
	}
	per1000 := fmt.Sprintf(`[data-testid="per1000-expected-%s"]`, quote.Q.Name)

	steps := []struct {
		name    string
		actions []chromedp.Action[chromedp.Void]
	}{
		{"the owner opens the demo", append(login("admin"),
			browsertest.WaitText(`[data-testid="ceiling"]`, "Demonstrated ceiling: 8"),
			mark,
		)},
		{"a file off the contract is shown not counted, the ceiling stays", []chromedp.Action[chromedp.Void]{
			chromedp.SetUploadFiles(css(`[data-testid="upload-input"]`), []string{qwen}),
			browsertest.WaitText(`[data-testid="import-result"]`, "Added 1 row"),
			// Folded under the counted rows: one line, the reasons on demand.
			browsertest.WaitText(`[data-testid="matrix-not-counted"] > summary`, "1 row not counted: 1 of another model"),
			// The print view opens every fold of reading matter, the ones
			// swapped in by the upload too: nothing to click.
			chromedp.WaitVisible(css(`details[data-testid="matrix-not-counted"][open] details.not-counted-all[open]`)),
			browsertest.WaitText(`#matrix tr[data-counted="false"] [data-testid="not-counted"]`, "not counted"),
			browsertest.WaitText(`#matrix tr[data-counted="false"] [data-testid="not-counted-reason"]`, "not the contract's meta-llama/Llama-3.1-8B-Instruct"),
			browsertest.WaitText(`#matrix tr[data-counted="false"] [data-testid="not-counted-reasons"]`, "no 95 % upper bound from 4 requests"),
			browsertest.WaitText(`[data-testid="ceiling"]`, "Demonstrated ceiling: 8"),
			notReloaded,
		}},
		{"a slow run on the contract drops the ceiling without a reload", []chromedp.Action[chromedp.Void]{
			chromedp.SetUploadFiles(css(`[data-testid="upload-input"]`), []string{slow}),
			browsertest.WaitText(`[data-testid="import-result"]`, "Added 1 row"),
			browsertest.WaitText(`[data-testid="ceiling"]`, "Demonstrated ceiling: 4"),
			browsertest.WaitText(`[data-testid="capacity"]`, "Capacity per box"),
			notReloaded,
		}},
		{"removing it brings the ceiling back without a reload", append(removeImport("slow-6-streams.json"),
			browsertest.WaitText(`[data-testid="ceiling"]`, "Demonstrated ceiling: 8"),
			browsertest.WaitText(`#history`, "import removed"),
			notReloaded,
		)},
		{"the file off the contract removed too", append(removeImport(filepath.Base(qwen)),
			waitTrue("no row left not counted", `document.querySelector('#matrix tr[data-counted="false"]') === null`),
			notReloaded,
		)},
		{"an amendment without a reason is refused, the focus on the reason", []chromedp.Action[chromedp.Void]{
			chromedp.Click(css(`[data-testid="edit-contract"]`)),
			chromedp.WaitVisible(css(`[data-testid="objective-builder"]`)),
			setBound("e2e", "20"),
			chromedp.Click(css(`[data-testid="save-contract"]`)),
			browsertest.WaitText(`[data-testid="form-errors"]`, "Please fix"),
			waitTrue("the focus on the reason, the field to fix", `document.activeElement && document.activeElement.name === "reason"`),
			notReloaded,
		}},
		{"with a reason, the loosened objective is judged at once", []chromedp.Action[chromedp.Void]{
			chromedp.SetValue(css(`[data-testid="contract-form"] textarea[name="reason"]`), "10 streams misses by a second"),
			chromedp.Click(css(`[data-testid="save-contract"]`)),
			browsertest.WaitText(`[data-testid="objective"]`, "e2e_p95<=20s"),
			waitTrue("the contract step's address", fmt.Sprintf(`location.pathname === "/reports/%d/contract"`, r.ID)),
			notReloaded,
		}},
		{"Back does not come back to the form", []chromedp.Action[chromedp.Void]{
			chromedp.Evaluate[chromedp.Void](`history.back()`),
			waitTrue("an address that is not the form's", `!location.pathname.endsWith("/contract/edit")`),
			browsertest.WaitText(`[data-testid="objective"]`, "e2e_p95<=20s"),
			waitTrue("no contract form", `document.querySelector('[data-testid="contract-form"]') === null`),
			// Back on the whole report: the matrix and the exit check judge
			// by the loosened objective.
			browsertest.WaitText(`[data-testid="matrix-objective"]`, "e2e_p95<=20s"),
			chromedp.WaitVisible(css(`[data-testid="matrix-objective"] [data-testid="loosened"]`)),
			chromedp.WaitVisible(css(`[data-testid="exit-objective_loosened"][data-pass="false"]`)),
		}},
		{"the owner submits, asked first since the loosening is not accepted", []chromedp.Action[chromedp.Void]{
			chromedp.Navigate(report),
			chromedp.Click(css(`[data-testid="submit-review-open"]`)),
			browsertest.WaitText(`[data-testid="submit-failing"]`, "oosened"),
			chromedp.Click(css(`[data-testid="submit-confirm"]`)),
			chromedp.Click(css(`[data-testid="submit-anyway"]`)),
			browsertest.WaitText(`[data-testid="review-state"]`, "in review"),
		}},
		{"the reviewer cannot approve until the loosening is accepted in writing", append(append(logout, login(app.users["reviewer"].Email)...),
			chromedp.WaitVisible(css(`button[data-testid="approve"][disabled]`)),
			chromedp.WaitVisible(css(`[data-testid="exit-objective_loosened"][data-pass="false"]`)),
			chromedp.Click(css(`[data-testid="accept-loosening-open"]`)),
			chromedp.SendKeys(css(`[data-testid="accept-loosening-text"]`), "16 s at 10 streams is fine for the support desk"),
			chromedp.Click(css(`[data-testid="accept-loosening-submit"]`)),
			chromedp.WaitVisible(css(`[data-testid="exit-objective_loosened"][data-pass="true"]`)),
			browsertest.WaitText(`#history`, "loosened objective accepted"),
			chromedp.WaitVisible(css(`button[data-testid="approve"]:not([disabled])`)),
			chromedp.Click(css(`[data-testid="approve-confirm"]`)),
			chromedp.Click(css(`button[data-testid="approve"]`)),
			browsertest.WaitText(`[data-testid="review-state"]`, "approved"),
		)},
	}
	for _, s := range steps {
		if err := chromedp.Do(ctx, browsertest.Steady(s.actions...)...); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
	}
	approvedPer1000, err := chromedp.Run(ctx, chromedp.Text(css(per1000)))
	if err != nil {
		t.Fatal(err)
	}
	approvedVersion, err := chromedp.Run(ctx, chromedp.Text(css(`[data-testid="report-version"]`)))
	if err != nil {
		t.Fatal(err)
	}
	if approvedPer1000 == "" || approvedVersion == "" {
		t.Fatalf("approved figures not read: %q, version %q", approvedPer1000, approvedVersion)
	}

	// An admin raises the quote's output price in the library; the approved
	// report keeps its cost per 1,000 and its version, and the quote page
	// says it is approved.
	if err := chromedp.Do(ctx, append(append(logout, login("admin")...),
		chromedp.Navigate(fmt.Sprintf("%s/quotes/%d", app.srv.URL, quote.ID)),
		chromedp.WaitVisible(css(`[data-testid="quote-form"] input[name="quote.output_per_m_tokens"]`)),
		chromedp.SetValue(css(`[data-testid="quote-form"] input[name="quote.output_per_m_tokens"]`), "9.99"),
		chromedp.Click(css(`[data-testid="save-quote"]`)),
		browsertest.WaitText(`[data-testid="quote-list"]`, "9.99"),
		chromedp.Navigate(fmt.Sprintf("%s/quotes/%d", app.srv.URL, quote.ID)),
		browsertest.WaitText(fmt.Sprintf(`[data-testid="quote-use-%d"]`, r.ID), "approved"),
		chromedp.Navigate(report),
		browsertest.WaitText(`[data-testid="review-state"]`, "approved"),
		browsertest.WaitText(per1000, approvedPer1000),
		browsertest.WaitText(`[data-testid="report-version"]`, approvedVersion),
		// The draft is repriced, and its history says why.
		chromedp.Navigate(fmt.Sprintf("%s/reports/%d/review", app.srv.URL, draft)),
		browsertest.WaitText(`#history`, "library quote "+quote.Q.Name+" edited"),
		chromedp.Navigate(report),
		chromedp.WaitVisible(css(per1000)),
	)...); err != nil {
		t.Fatalf("the quote edited after approval: %v", err)
	}
	per1000Now, err := chromedp.Run(ctx, chromedp.Text(css(per1000)))
	if err != nil {
		t.Fatal(err)
	}
	versionNow, err := chromedp.Run(ctx, chromedp.Text(css(`[data-testid="report-version"]`)))
	if err != nil {
		t.Fatal(err)
	}
	if per1000Now != approvedPer1000 || versionNow != approvedVersion {
		t.Errorf("approved report moved: cost per 1,000 %s → %s, version %s → %s", approvedPer1000, per1000Now, approvedVersion, versionNow)
	}
	for _, e := range browsertest.ConsoleErrors(ctx) {
		if !strings.Contains(e, "422") { // the refused amendment
			t.Errorf("console: %s", e)
		}
	}
}
