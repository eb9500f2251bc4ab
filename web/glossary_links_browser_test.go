package web

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"capplan/web/browsertest"
)

// A term is linked to the glossary on its first use on the page
// (view.Term). A fragment htmx swaps in after a save is rendered on its
// own and links its terms again; app.js leaves such a link as its plain
// text when the page already links the term earlier, here the contract's
// objective saved under the step's objective line.
func TestBrowserGlossaryLinkedOnceAfterSave(t *testing.T) {
	app := newTestApp(t)
	ctx := browsertest.New(t)

	fill := contractFill(contractValues(0), nil)
	fill = append(fill,
		chromedp.Click(css(`input[name="objective.no_oom"]`)),
		chromedp.Click(css(`[data-testid="save-contract"]`)),
		browsertest.WaitText(`[data-testid="objective"]`, "whole answers within 15 s"),
	)
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
			chromedp.Click(css(`[data-testid="edit-contract"]`)),
			chromedp.WaitVisible(css(`[data-testid="contract-form"]`)),
		}},
		{"write the contract", fill},
		{"open the page with the objective written", []chromedp.Action[chromedp.Void]{
			chromedp.Reload(),
			browsertest.WaitText(`[data-testid="objective"]`, "whole answers within 15 s"),
		}},
		{"save the contract again (htmx)", []chromedp.Action[chromedp.Void]{
			chromedp.Click(css(`[data-testid="edit-contract"]`)),
			chromedp.WaitVisible(css(`[data-testid="contract-form"]`)),
			setBound("e2e", "20"),
			chromedp.Click(css(`[data-testid="save-contract"]`)),
			browsertest.WaitText(`[data-testid="objective"]`, "whole answers within 20 s"),
		}},
	}
	for _, s := range steps {
		if err := chromedp.Do(ctx, browsertest.Steady(s.actions...)...); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
	}
	// Every term linked at most once, the swapped-in sentence keeping its
	// words; the term of first tokens is linked on the page at all.
	const once = `(() => {
		const seen = {};
		for (const a of document.querySelectorAll('a[data-term]')) {
			if (seen[a.dataset.term]) return false;
			seen[a.dataset.term] = true;
		}
		const words = document.querySelector('[data-testid="objective-words"]');
		return !!seen.ttft && !!words && words.textContent.includes("95 % of first tokens within 2 s");
	})()`
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](once, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		twice, _ := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
			const seen = {}, out = [];
			for (const a of document.querySelectorAll('a[data-term]')) {
				if (seen[a.dataset.term]) out.push(a.dataset.term + ": " + a.closest("[data-testid]")?.dataset.testid);
				seen[a.dataset.term] = true;
			}
			return out;
		})()`))
		t.Fatalf("a term is linked more than once after the save: %v (%v)", twice, err)
	}
	for _, e := range browsertest.ConsoleErrors(ctx) {
		t.Errorf("console error: %s", e)
	}
}
