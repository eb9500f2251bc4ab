package web

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"

	"capplan/web/browsertest"
)

// TestBrowserLazyFormOpensByKeyboard: the demo's self-hosted cost form is
// not on the page until its details is opened; opened with Enter, it is
// fetched and shown with the focus left on the summary, the next Tab lands
// in its first field, and a save from it goes through (its version is the
// report's). The page is rendered as a reader's browser does
// (browsertest.AsShown): the sections far below the first screen are not
// laid out at load, and the cost section, off screen too, works all the
// same once the keyboard reaches it.
func TestBrowserLazyFormOpensByKeyboard(t *testing.T) {
	app := newTestApp(t)
	demo := demoReport(t, app)
	ctx := browsertest.New(t, browsertest.AsShown())
	summary := `#costs details > summary`
	steps := []chromedp.Action[chromedp.Void]{}
	steps = append(steps, browserLogin(app, app.users["admin"].Email)...)
	steps = append(steps,
		chromedp.Navigate(fmt.Sprintf("%s/reports/%d/print", app.srv.URL, demo.ID)),
		browsertest.WaitText(`#costs`, "Edit the self-hosted cost inputs"),
		waitTrue("the headline laid out at load, the history (far below) not", `document.querySelector('#headline h2').checkVisibility({contentVisibilityAuto: true}) && !document.querySelector('#history h2').checkVisibility({contentVisibilityAuto: true})`),
		waitTrue("no self-hosted form before it is opened", `!document.querySelector('[data-testid="self-hosted-form"]') && !!document.querySelector('#costs .lazy-part')`),
		chromedp.Focus(css(summary)),
		chromedp.KeyEvent("\r"),
		waitTrue("the form fetched and shown", `(() => { const f = document.querySelector('[data-testid="self-hosted-form"]'); return !!f && f.getClientRects().length > 0; })()`),
		waitTrue("the focus still on the summary", `document.activeElement && document.activeElement.matches('#costs details > summary')`),
		chromedp.KeyEvent("\t"),
		waitTrue("the next Tab in the form's first field", `document.activeElement && !!document.activeElement.closest('[data-testid="self-hosted-form"]') && document.activeElement.matches("input, select, textarea")`),
		chromedp.SetValue(css(`[data-testid="self-hosted-form"] input[name="self_hosted.purchase_price"]`), "31234"),
		chromedp.Click(css(`[data-testid="save-costs"]`)),
		waitTrue("the save taken: the report's version moved on", fmt.Sprintf(`document.getElementById("report-version").textContent.trim() !== "%d"`, demo.Version)),
	)
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
	if got, err := app.store.Report(t.Context(), demo.ID); err != nil || got.Version != demo.Version+1 {
		t.Errorf("after the save: version %d (%v), want %d", got.Version, err, demo.Version+1)
	}
	if errs := browsertest.ConsoleErrors(ctx); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}

// TestBrowserScrollBoxMarkedWhenShown: at 375 px a wide table's scroll box
// in a section far below the first screen is not measured while the
// browser has not laid the section out (as shown, browsertest.AsShown),
// and takes tabindex 0 (reachable with the keyboard) once the reader
// scrolls to it.
func TestBrowserScrollBoxMarkedWhenShown(t *testing.T) {
	app := newTestApp(t)
	demo := demoReport(t, app)
	ctx := browsertest.New(t, browsertest.AsShown())
	// The scenarios' first scroll box that holds nothing to focus (one
	// that does is reached through what it holds).
	box := `[...document.querySelectorAll("#scenarios .table-scroll")].find(b => !b.querySelector("a[href], button, input, select, textarea, summary, [tabindex]"))`
	steps := append(browserLogin(app, app.users["admin"].Email),
		chromedp.EmulateViewport(375, 900),
		chromedp.Navigate(fmt.Sprintf("%s/reports/%d/print", app.srv.URL, demo.ID)),
		waitTrue("the page loaded and the scroll boxes on screen marked", `document.readyState === "complete"`),
		waitTrue("the scenarios' box, off screen, not measured yet", `(() => { const b = `+box+`; return !!b && !b.checkVisibility({contentVisibilityAuto: true}) && !b.hasAttribute("tabindex"); })()`),
		chromedp.Evaluate[chromedp.Void](box+`.scrollIntoView()`),
		waitTrue("the scenarios' box, scrolled to, reachable with the keyboard", box+`.getAttribute("tabindex") === "0"`),
	)
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// TestBrowserLazyFormLiveOnArrival: a form fetched into a lazy part is
// live the moment it is in the page. The save is clicked in the very
// microtask the form arrives in (as a quick hand or a loaded machine
// does); htmx takes the submit (the page stays, the save lands), where a
// form not yet processed would have been submitted by the browser and the
// page left.
func TestBrowserLazyFormLiveOnArrival(t *testing.T) {
	app := newTestApp(t)
	demo := demoReport(t, app)
	ctx := browsertest.New(t)
	steps := []chromedp.Action[chromedp.Void]{}
	steps = append(steps, browserLogin(app, app.users["admin"].Email)...)
	steps = append(steps,
		chromedp.Navigate(fmt.Sprintf("%s/reports/%d/costs", app.srv.URL, demo.ID)),
		browsertest.WaitText(`#costs`, "Edit the self-hosted cost inputs"),
		chromedp.Evaluate[chromedp.Void](`(() => {
			window.stayed = true;
			new MutationObserver((_, obs) => {
				const f = document.querySelector('[data-testid="self-hosted-form"]');
				if (!f) return;
				obs.disconnect();
				f.querySelector('input[name="self_hosted.purchase_price"]').value = "31234";
				f.querySelector('[data-testid="save-costs"]').click();
			}).observe(document.body, {childList: true, subtree: true});
		})()`),
		chromedp.Click(css(`#costs details > summary`)),
		waitTrue("the save taken: the report's version moved on", fmt.Sprintf(`document.getElementById("report-version").textContent.trim() !== "%d"`, demo.Version)),
		waitTrue("the page stayed (htmx took the submit)", `window.stayed === true`),
	)
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
	if got, err := app.store.Report(t.Context(), demo.ID); err != nil || got.Version != demo.Version+1 {
		t.Errorf("after the save: version %d (%v), want %d", got.Version, err, demo.Version+1)
	}
}
