package web

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"

	"capplan/web/browsertest"
)

// TestBrowserFinanceJourney: finance adds a USD quote with a volume band
// to the EUR demo report, sees it left out until a dated rate is entered,
// then converted with its original amounts; edits a demand scenario; and
// reads the provider view at a new expected utilisation.
func TestBrowserFinanceJourney(t *testing.T) {
	app := newTestApp(t)
	r := seedDemoInto(t, app)
	ctx := browsertest.New(t)
	report := fmt.Sprintf("%s/reports/%d", app.srv.URL, r.ID)

	q := workedQuote("Tiered USD API")
	q.Set("currency", "USD")
	q.Set("quote.tiers[0].from_m_tokens", "100")
	q.Set("quote.tiers[0].input_per_m_tokens", "8")
	q.Set("quote.tiers[0].output_per_m_tokens", "30")
	var fill []chromedp.Action[chromedp.Void]
	for name, v := range q {
		fill = append(fill, chromedp.SetValue(css(fmt.Sprintf(`[data-testid="quote-form"] [name=%q]`, name)), v[0]))
	}
	steps := []struct {
		name    string
		actions []chromedp.Action[chromedp.Void]
	}{
		{"finance logs in", browserLogin(app, app.users["finance"].Email)},
		{"finance adds a USD quote with a volume band", append(append([]chromedp.Action[chromedp.Void]{
			chromedp.Navigate(app.srv.URL + "/quotes"),
			chromedp.WaitVisible(css(`[data-testid="quote-form"]`)),
		}, fill...),
			chromedp.Click(css(`[data-testid="save-quote"]`)),
			browsertest.WaitText(`[data-testid="quote-list"]`, "Tiered USD API"),
		)},
		{"attached without a rate, it is left out and says why", []chromedp.Action[chromedp.Void]{
			chromedp.Navigate(report + "/costs"),
			chromedp.WaitVisible(css(`[data-testid="attach-form"]`)),
			chromedp.Click(css(`[data-testid="attach-quote"]`)),
			browsertest.WaitText(`[data-testid="quote-excluded"]`, "USD"),
			chromedp.WaitVisible(css(`[data-testid="currency-mismatch"]`)),
		}},
		{"finance enters the dated rate; the quote is converted, originals beside", []chromedp.Action[chromedp.Void]{
			chromedp.SetValue(css(`[data-testid="settings-form"] [name="exchange_rates[0].currency"]`), "USD"),
			chromedp.SetValue(css(`[data-testid="settings-form"] [name="exchange_rates[0].rate"]`), "0.92"),
			chromedp.SetValue(css(`[data-testid="settings-form"] [name="exchange_rates[0].rate.source"]`), "ECB reference rate"),
			chromedp.SetValue(css(`[data-testid="settings-form"] [name="exchange_rates[0].rate.evidence_date"]`), today),
			chromedp.Click(css(`[data-testid="save-settings"]`)),
			chromedp.WaitVisible(css(`[data-testid="currency-converted"]`)),
			browsertest.WaitText(`[data-testid="costs"] [data-testid="original"]`, "USD at 0.92"),
			browsertest.WaitText(`[data-testid="last-change"]`, "cost settings changed"),
		}},
		{"finance edits a demand scenario, on the decision step", []chromedp.Action[chromedp.Void]{
			chromedp.Navigate(report + "/decision"),
			chromedp.WaitVisible(css(`[data-testid="scenario-form"]`)),
			chromedp.SetValue(css(`[data-testid="scenario-form"] [name="scenarios[1].monthly_requests"]`), "40,000"),
			chromedp.Click(css(`[data-testid="save-scenarios"]`)),
			browsertest.WaitText(`[data-testid="last-change"]`, "scenarios changed"),
		}},
		{"finance reads the provider view at 70 % utilisation, back on the costs step", []chromedp.Action[chromedp.Void]{
			chromedp.Navigate(report + "/costs"),
			chromedp.WaitVisible(css(`[data-testid="provider"] details > summary`)),
			chromedp.Click(css(`[data-testid="provider"] details > summary`)),
			chromedp.WaitVisible(css(`[data-testid="provider-form"]`)),
			chromedp.SetValue(css(`[data-testid="provider-form"] [name="provider.expected_utilisation"]`), "0.7"),
			chromedp.Click(css(`[data-testid="save-provider"]`)),
			browsertest.WaitText(`[data-testid="provider-text"]`, "expected 70 % utilisation"),
			browsertest.WaitText(`[data-testid="break-even"]`, "%"),
			chromedp.WaitVisible(css(`[data-testid="provider-chart"] .chart canvas`)),
		}},
	}
	for _, s := range steps {
		if err := chromedp.Do(ctx, browsertest.Steady(s.actions...)...); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
	}
	if errs := browsertest.ConsoleErrors(ctx); len(errs) != 0 {
		t.Errorf("console errors: %q", errs)
	}
}
