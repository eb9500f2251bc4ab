package web

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"

	"capplan/web/browsertest"
)

// TestBrowserHeadlineAndPath: a lead opens a new, blank report and reads
// at once what each answer still needs and the next step of the path; the
// demo report opens on its three answers. Both at 1280 and 375 px, with
// the headline and the path inside the screen's width, screenshotted.
func TestBrowserHeadlineAndPath(t *testing.T) {
	app := newTestApp(t)
	demo := demoReport(t, app)
	blank, err := app.store.CreateReport(context.Background(), app.users["lead"], "Support assistant on one H100")
	if err != nil {
		t.Fatal(err)
	}
	ctx := browsertest.New(t)
	if err := chromedp.Do(ctx, browserLogin(app, app.users["lead"].Email)...); err != nil {
		t.Fatal(err)
	}
	// fits tells whether the selected parts stay inside the viewport's width.
	fits := func(t *testing.T, sel string) {
		t.Helper()
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](fmt.Sprintf(`(() => {
			const out = [document.documentElement.clientWidth];
			for (const el of document.querySelectorAll(%q)) out.push(el.getBoundingClientRect().right, el.scrollWidth - el.clientWidth);
			return out;
		})()`, sel)))
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i+1 < len(got); i += 2 {
			if got[i] > got[0]+0.5 || got[i+1] > 0 {
				t.Errorf("%s: right edge %v px, overflow %v px, on a screen %v px wide", sel, got[i], got[i+1], got[0])
			}
		}
	}
	for _, width := range []int64{1280, 375} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			if err := chromedp.Do(ctx,
				chromedp.EmulateViewport(width, 900),
				chromedp.Navigate(fmt.Sprintf("%s/reports/%d", app.srv.URL, blank)),
				chromedp.WaitVisible(css(`[data-testid="headline"]`)),
				browsertest.WaitText(`[data-testid="headline-serve-answer"]`, "Not yet"),
				browsertest.WaitText(`[data-testid="headline-serve-missing"]`, "No load-test results imported"),
				browsertest.WaitText(`[data-testid="headline-own-missing"]`, "No API quote to compare: finance adds quotes"),
				browsertest.WaitText(`[data-testid="headline-decision-missing"]`, "No recommendation"),
				browsertest.WaitText(`#path-title`, "Next step: Write the test contract"),
				browsertest.WaitText(`[data-testid="path-step-freeze"]`, "to do"),
			); err != nil {
				t.Fatal(err)
			}
			fits(t, `[data-testid="headline"], [data-testid="headline"] .answer, [data-testid="path"]`)
			browsertest.ScreenshotView(ctx, t, "blank")

			// The next step's link leads to the contract.
			if err := chromedp.Do(ctx,
				chromedp.Click(css(`[data-testid="path-next-link"]`)),
				chromedp.WaitVisible(css(`#contract`)),
			); err != nil {
				t.Fatal(err)
			}
			hash, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash`))
			if err != nil || hash != "#contract" {
				t.Errorf("the next step's link went to %q (%v)", hash, err)
			}

			if err := chromedp.Do(ctx,
				chromedp.Navigate(fmt.Sprintf("%s/reports/%d", app.srv.URL, demo.ID)),
				chromedp.WaitVisible(css(`[data-testid="headline-serve"][data-answered="true"]`)),
				chromedp.WaitVisible(css(`[data-testid="headline-admit"][data-answered="true"]`)),
				chromedp.WaitVisible(css(`[data-testid="headline-own"][data-answered="true"]`)),
				browsertest.WaitText(`[data-testid="headline-admit-answer"]`, "requests in flight"),
				browsertest.WaitText(`[data-testid="headline-own"]`, "per 1,000"),
			); err != nil {
				t.Fatal(err)
			}
			fits(t, `[data-testid="headline"], [data-testid="headline"] .answer`)
			browsertest.ScreenshotView(ctx, t, "demo")
		})
	}
	if errs := browsertest.ConsoleErrors(ctx); len(errs) > 0 {
		t.Errorf("console errors: %v", errs)
	}
}
