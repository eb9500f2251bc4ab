package web

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"

	"capplan/web/browsertest"
)

// TestBrowserCostJourney: finance adds a quote to the library and attaches
// it to a lead's report; the lead fills in the costs and the expected
// scenario; the report shows the worked example of docs/method.md (EUR 25
// and EUR 30 per 1,000 successful requests) and draws the cost chart.
func TestBrowserCostJourney(t *testing.T) {
	app := newTestApp(t)
	id := moneyReport(t, app)
	ctx := browsertest.New(t)
	report := fmt.Sprintf("%s/reports/%d", app.srv.URL, id)

	login := func(who string) []chromedp.Action[chromedp.Void] {
		return browserLogin(app, app.users[who].Email)
	}
	set := func(form string, vals map[string][]string, skip ...string) []chromedp.Action[chromedp.Void] {
		var as []chromedp.Action[chromedp.Void]
	next:
		for name, v := range vals {
			for _, s := range skip {
				if s == name {
					continue next
				}
			}
			as = append(as, chromedp.SetValue(css(fmt.Sprintf(`%s [name=%q]`, form, name)), v[0]))
		}
		return as
	}

	steps := []struct {
		name    string
		actions []chromedp.Action[chromedp.Void]
	}{
		{"finance logs in", login("finance")},
		{"finance adds a quote", append(append([]chromedp.Action[chromedp.Void]{
			chromedp.Navigate(app.srv.URL + "/quotes"),
			chromedp.WaitVisible(css(`[data-testid="quote-form"]`)),
		}, set(`[data-testid="quote-form"]`, workedQuote("API X"))...),
			chromedp.Click(css(`[data-testid="save-quote"]`)),
			browsertest.WaitText(`[data-testid="quote-list"]`, "API X"),
		)},
		{"finance attaches it to the report", []chromedp.Action[chromedp.Void]{
			chromedp.Navigate(report + "/costs"),
			chromedp.WaitVisible(css(`[data-testid="attach-form"]`)),
			chromedp.Click(css(`[data-testid="attach-quote"]`)),
			browsertest.WaitText(`[data-testid="quote-cost"]`, "API X"),
			browsertest.WaitText(`[data-testid="last-change"]`, "quote attached: API X"),
		}},
		{"finance logs out", []chromedp.Action[chromedp.Void]{
			chromedp.Click(css(`[data-testid="logout"]`)),
			chromedp.WaitVisible(css(`input[name="email"]`)),
		}},
		{"lead logs in", login("lead")},
		{"lead saves the settings", []chromedp.Action[chromedp.Void]{
			chromedp.Navigate(report + "/costs"),
			chromedp.WaitVisible(css(`[data-testid="settings-form"]`)),
			chromedp.SetValue(css(`[data-testid="settings-form"] [name="max_boxes"]`), "1"),
			chromedp.Click(css(`[data-testid="save-settings"]`)),
			browsertest.WaitText(`[data-testid="last-change"]`, "cost settings changed"),
		}},
		{"lead fills the costs", append(set(`[data-testid="self-hosted-form"]`, workedCosts(today)),
			chromedp.Click(css(`[data-testid="save-costs"]`)),
			browsertest.WaitText(`[data-testid="fixed-per-box"]`, "2,000.00"),
		)},
		{"lead fills the expected scenario", append(append([]chromedp.Action[chromedp.Void]{
			chromedp.Navigate(report + "/decision"),
			chromedp.WaitVisible(css(`[data-testid="scenario-form"]`)),
		}, set(`[data-testid="scenario-form"]`, expectedScenario)...),
			chromedp.Click(css(`[data-testid="save-scenarios"]`)),
			browsertest.WaitText(`[data-testid="per1000-expected-self-hosted"]`, "25.00"),
			browsertest.WaitText(`[data-testid="per1000-expected-API X"]`, "30.00"),
			chromedp.WaitVisible(css(`[data-testid="cost-chart"] .chart canvas`)),
			chromedp.WaitVisible(css(`[data-testid="per1000-chart"] .chart canvas`)),
		)},
		{"the whole report shows the same numbers", []chromedp.Action[chromedp.Void]{
			chromedp.Navigate(report + "/print#scenarios"),
			browsertest.WaitText(`[data-testid="per1000-expected-self-hosted"]`, "25.00"),
			browsertest.WaitText(`[data-testid="per1000-expected-API X"]`, "30.00"),
			browsertest.WaitText(`[data-testid="crossover-n"]`, "66,667"),
			chromedp.WaitVisible(css(`[data-testid="cost-chart"] .chart canvas`)),
		}},
	}
	for _, s := range steps {
		if err := chromedp.Do(ctx, browsertest.Steady(s.actions...)...); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
	}
	// Self-hosting is drawn stepped and the quote crosses it.
	series, err := chromedp.Run(ctx, chromedp.Evaluate[int](
		`echarts.getInstanceByDom(document.querySelector('[data-testid="cost-chart"] .chart')).getOption().series.length`))
	if err != nil {
		t.Fatal(err)
	}
	if series != 2 {
		t.Errorf("cost chart has %d series, want 2 (self-hosted and API X)", series)
	}
	if errs := browsertest.ConsoleErrors(ctx); len(errs) != 0 {
		t.Errorf("console errors: %q", errs)
	}
}
