package web

import (
	"net/url"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"capplan/planner"
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
	fill := contractFill(contractValues(0), nil)
	fill = append(fill,
		chromedp.Click(css(`input[name="objective.no_oom"]`)),
		chromedp.Click(css(`[data-testid="save-contract"]`)),
		chromedp.WaitVisible(css(`[data-testid="freeze"]`)),
		browsertest.WaitText(`[data-testid="objective"]`, "95 % of whole answers within 15 s"),
		browsertest.WaitText(`[data-testid="objective"]`, "as written: success>="),
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
			setBound("e2e", "20"),
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

// contractFill fills the contract form with a contract's values as
// contractValues names them: the objective's bounds go into the
// builder's rows (first tokens and whole answers, chosen on a blank
// form), the rest into their fields, the folded details opened first.
// seen, when not nil, collects the names of the fields typed into.
func contractFill(vals url.Values, seen map[string]bool) []chromedp.Action[chromedp.Void] {
	out := []chromedp.Action[chromedp.Void]{
		chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid="contract-details"]').open = true`),
	}
	set := func(sel, name, v string) {
		out = append(out, chromedp.SetValue(css(sel+`[name="`+name+`"]`), v))
		if seen != nil {
			seen[name] = true
		}
	}
	names := make([]string, 0, len(vals))
	for name := range vals {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		v := vals.Get(name)
		switch name {
		case "version", "objective.no_oom", "objective.percentile":
			// the checkbox is clicked by the caller; the percentile is
			// the builder's 95 already
		case "objective.ttft_max_s":
			set("input", planner.ObjectiveBoundKey(0, "bound"), v)
		case "objective.e2e_max_s":
			set("input", planner.ObjectiveBoundKey(1, "bound"), v)
		case "workload.data", "workload.prompts", "load_kind":
			set("select", name, v)
		default:
			set("input", name, v)
		}
	}
	return out
}

// setBound types the limit of the objective builder's row that bounds
// figure ("e2e", "ttft", ...).
func setBound(figure, value string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](`(() => {
		const f = document.querySelector('[data-testid="contract-form"]');
		const sel = [...f.querySelectorAll('select[name$=".figure"]')].find(s => s.value === "` + figure + `");
		f.querySelector('[name="' + sel.name.replace(/figure$/, "bound") + '"]').value = "` + value + `";
	})()`)
}
