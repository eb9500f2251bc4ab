package web

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"capplan/planner"
	"capplan/web/browsertest"
)

// TestBrowserFleetJourney: finance opens the demo's fleet form with the
// keyboard, is refused a reserve of -1 in the form's words (nothing
// saved), then sets several boxes with a typed 1.8× factor for 2 replicas
// and N+1: the section shows the reserve and the boxes each scenario buys,
// the admission limit per replica, and the page still fits 375 and 1280
// px with no serious axe finding.
func TestBrowserFleetJourney(t *testing.T) {
	app := newTestApp(t)
	demo := demoReport(t, app)
	ctx := browsertest.New(t)
	set := func(name, value string) chromedp.Action[chromedp.Void] {
		return chromedp.SetValue(css(`[data-testid="fleet-form"] [name="`+name+`"]`), value)
	}
	steps := append(browserLogin(app, app.users["finance"].Email),
		chromedp.Navigate(fmt.Sprintf("%s/reports/%d#fleet", app.srv.URL, demo.ID)),
		browsertest.WaitText(`[data-testid="fleet-none"]`, "No fleet"),
		chromedp.Focus(css(`#fleet details > summary`)),
		chromedp.KeyEvent("\r"),
		chromedp.WaitVisible(css(`[data-testid="fleet-form"]`)),
		set("fleet.topology", planner.TopologyBoxes),
		set("fleet.scaling", "1.8"),
		set("fleet.scaling_replicas", "2"),
		set("fleet.scaling_source", "vendor sizing note"),
		set("fleet.scaling_date", today),
		set("fleet.reserve", "-1"),
		chromedp.Click(css(`[data-testid="save-fleet"]`)),
		browsertest.WaitText(`#fleet [data-testid="form-errors"]`, "Reserve"),
		browsertest.WaitText(`[data-testid="err-fleet.reserve"]`, "the reserve must be 0 or more boxes"),
		waitTrue("the focus on the refused reserve", `document.activeElement && document.activeElement.name === "fleet.reserve"`),
		set("fleet.reserve", "1"),
		chromedp.Click(css(`[data-testid="save-fleet"]`)),
		browsertest.WaitText(`[data-testid="fleet-reserve"]`, "1"),
		browsertest.WaitText(`[data-testid="fleet-scaling-from"]`, "typed"),
		browsertest.WaitText(`[data-testid="fleet-admission"]`, "per replica"),
		chromedp.WaitVisible(css(`[data-testid="fleet-boxes"]`)),
	)
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
	lookAt(ctx, t, "fleet-saved")
	got := apiResult(t, app, demo.ID).Fleet
	if got == nil || got.Reserve == nil || *got.Reserve != 1 || got.Scaling == nil || *got.Scaling != 1.8 {
		t.Errorf("the saved fleet: %+v", got)
	}
	for _, e := range browsertest.ConsoleErrors(ctx) {
		if !strings.Contains(e, "status of 422") {
			t.Errorf("console error: %s", e)
		}
	}
}
