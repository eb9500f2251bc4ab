package web

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"capplan/web/browsertest"
)

// TestBrowserContractJourney walks the lead's first hour: log in, create a
// report, fill in and freeze the test contract, amend the objective with a
// reason, and see the amendment and its history entry.
func TestBrowserContractJourney(t *testing.T) {
	app := newTestApp(t)
	ctx := browsertest.New(t)

	steps := []struct {
		name    string
		actions []chromedp.Action[chromedp.Void]
	}{
		{"log in", browserLogin(app, app.users["lead"].Email)},
		{"create a report", []chromedp.Action[chromedp.Void]{
			chromedp.Click(css(`[data-testid="new-report"]`)),
			chromedp.SendKeys(css(`input[name="title"]`), "Chat on one H100"),
			chromedp.Click(css(`[data-testid="create-report"]`)),
			browsertest.WaitText(`[data-testid="report-title"]`, "Chat on one H100"),
		}},
		{"open the contract form (htmx)", []chromedp.Action[chromedp.Void]{
			chromedp.Click(css(`[data-testid="edit-contract"]`)),
			chromedp.WaitVisible(css(`[data-testid="contract-form"]`)),
		}},
	}
	fill := []chromedp.Action[chromedp.Void]{}
	for name, vals := range contractValues(0) {
		switch name {
		case "version":
			continue
		case "objective.no_oom":
			continue // checkbox, clicked below
		case "workload.data", "workload.prompts", "load_kind":
			fill = append(fill, chromedp.SetValue(css(`select[name="`+name+`"]`), vals[0]))
		default:
			fill = append(fill, chromedp.SetValue(css(`input[name="`+name+`"]`), vals[0]))
		}
	}
	fill = append(fill,
		chromedp.Click(css(`input[name="objective.no_oom"]`)),
		chromedp.Click(css(`[data-testid="save-contract"]`)),
		chromedp.WaitVisible(css(`[data-testid="freeze"]`)),
		browsertest.WaitText(`[data-testid="objective"]`, "e2e_p95<=15s"),
	)
	steps = append(steps, struct {
		name    string
		actions []chromedp.Action[chromedp.Void]
	}{"fill in the contract", fill})
	steps = append(steps, []struct {
		name    string
		actions []chromedp.Action[chromedp.Void]
	}{
		{"freeze", []chromedp.Action[chromedp.Void]{
			chromedp.Click(css(`[data-testid="freeze-confirm"]`)),
			chromedp.Click(css(`[data-testid="freeze"]`)),
			browsertest.WaitText(`[data-testid="frozen"]`, "Frozen"),
		}},
		{"amend without a reason is refused", []chromedp.Action[chromedp.Void]{
			chromedp.Click(css(`[data-testid="edit-contract"]`)),
			chromedp.WaitVisible(css(`textarea[name="reason"]`)),
			chromedp.SetValue(css(`input[name="objective.e2e_max_s"]`), "20"),
			chromedp.Click(css(`[data-testid="save-contract"]`)),
			browsertest.WaitText(`[data-testid="err-reason"]`, "required"),
		}},
		{"amend with a reason", []chromedp.Action[chromedp.Void]{
			chromedp.SendKeys(css(`textarea[name="reason"]`), "long answers need 20 s"),
			chromedp.Click(css(`[data-testid="save-contract"]`)),
			browsertest.WaitText(`[data-testid="amendments"]`, "long answers need 20 s"),
			browsertest.WaitText(`[data-testid="amendments"]`, "e2e_p95<=20s"),
			browsertest.WaitText(`[data-testid="objective"]`, "e2e_p95<=20s"),
			browsertest.WaitText(`[data-testid="last-change"]`, "contract amended: long answers need 20 s"),
			browsertest.WaitText(`[data-testid="step-contract"]`, "done"),
		}},
	}...)
	for _, s := range steps {
		if err := chromedp.Do(ctx, browsertest.Steady(s.actions...)...); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
	}
	// The refused amendment's 422 is logged by the browser as a failed
	// load; it is the expected answer, anything else is not.
	for _, e := range browsertest.ConsoleErrors(ctx) {
		if !strings.Contains(e, "status of 422") {
			t.Errorf("console error: %s", e)
		}
	}
}

// browserLogout logs the browser's user out and waits for the login form.
func browserLogout(app *testApp) []chromedp.Action[chromedp.Void] {
	return []chromedp.Action[chromedp.Void]{
		chromedp.Navigate(app.srv.URL + "/reports"),
		chromedp.Click(css(`[data-testid="logout"]`)),
		browsertest.WaitText(`h1`, "Log in"),
	}
}

// css is a CSS selector for chromedp actions.
func css(s string) chromedp.CSS { return chromedp.CSS(s) }
