package web

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"capplan/planner"
	"capplan/web/browsertest"
	"capplan/web/reports"
)

// TestBrowserScenarioBurstAndDayProfile: on the demo, a lead types the
// expected scenario's minute-peak burst and day profile in the scenarios
// form. A profile the planner cannot read is refused with the reason at
// its field and nothing is saved (the burst typed with it neither); typed
// right, the busy hour on the boxes (the queue) and the hybrid plan show
// the planner's figures for the new inputs, which differ from before.
func TestBrowserScenarioBurstAndDayProfile(t *testing.T) {
	app := newTestApp(t)
	id := demoReport(t, app).ID
	rep, err := reports.New(app.store, "", time.Now).LoadWhole(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	in := rep.In
	before := planner.Compute(in)
	in.Scenarios = slices.Clone(in.Scenarios)
	for i := range in.Scenarios {
		if in.Scenarios[i].Name == "expected" {
			in.Scenarios[i].Burst = 2
			in.Scenarios[i].DayProfile, _ = planner.ParseDayProfile("9-17 at 4, rest at 1")
		}
	}
	after := planner.Compute(in)
	texts := func(r planner.Result) (queue, hybrid string) {
		for _, s := range r.Scenarios {
			if s.Scenario.Name == "expected" && s.Queue != nil && s.Hybrid != nil {
				return s.Queue.Text, s.Hybrid.Text
			}
		}
		t.Fatal("the demo's expected scenario has no queue or hybrid plan")
		return "", ""
	}
	q0, h0 := texts(before)
	q1, h1 := texts(after)
	if q0 == q1 || h0 == h1 {
		t.Fatalf("the burst and profile move nothing: queue %q, hybrid %q", q1, h1)
	}

	ctx := browsertest.New(t)
	page := app.srv.URL + "/reports/" + strconv.Itoa(int(id)) + "/decision"
	form := `[data-testid="scenario-form"] `
	steps := append(browserLogin(app, app.users["admin"].Email),
		chromedp.Navigate(page),
		chromedp.WaitVisible(css(form+`[name="scenarios[1].day_profile"]`)),
		browsertest.WaitText(`[data-testid="hybrid-text-expected"]`, h0),
		chromedp.SetValue(css(form+`[name="scenarios[1].burst"]`), "2"),
		chromedp.SetValue(css(form+`[name="scenarios[1].day_profile"]`), "9-17 at two, rest at 1"),
		chromedp.Click(css(`[data-testid="save-scenarios"]`)),
		browsertest.WaitText(`[data-testid="err-scenarios[1].day_profile"]`, `the weight "two" is not a number`),
		// Nothing saved: a fresh page shows the figures as before.
		chromedp.Navigate(page),
		waitTrue("the expected scenario's queue sentence", fmt.Sprintf(`((document.querySelector('[data-testid="queue-expected"]') || {}).textContent || "").replace(/\\s+/g, " ").includes(%q)`, q0)),
		browsertest.WaitText(`[data-testid="hybrid-text-expected"]`, h0),
		chromedp.WaitVisible(css(form+`[name="scenarios[1].burst"]`)),
		chromedp.SetValue(css(form+`[name="scenarios[1].burst"]`), "2"),
		chromedp.SetValue(css(form+`[name="scenarios[1].day_profile"]`), "9-17 at 4, rest at 1"),
		chromedp.Click(css(`[data-testid="save-scenarios"]`)),
		// The busy-hour simulations are folded: read the sentence's text.
		waitTrue("the expected scenario's queue sentence", fmt.Sprintf(`((document.querySelector('[data-testid="queue-expected"]') || {}).textContent || "").replace(/\s+/g, " ").includes(%q)`, q1)),
		browsertest.WaitText(`[data-testid="hybrid-text-expected"]`, h1),
		// Saved: the form reads back what was typed.
		chromedp.Navigate(page),
		browsertest.WaitText(`[data-testid="hybrid-text-expected"]`, h1),
	)
	if err := chromedp.Do(ctx, browsertest.Steady(steps...)...); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[document.querySelector('[name="scenarios[1].burst"]').value, document.querySelector('[name="scenarios[1].day_profile"]').value]`))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []string{"2", "9-17 at 4, rest at 1"}) {
		t.Errorf("the form reads back %q", got)
	}
	// The refused save's 422 is logged by the browser as a failed load;
	// nothing else may be.
	for _, e := range browsertest.ConsoleErrors(ctx) {
		if !strings.Contains(e, "status of 422") {
			t.Errorf("console error: %s", e)
		}
	}
}
