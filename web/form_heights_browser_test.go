package web

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"capplan/web/browsertest"
)

// formMeasureJS measures a form: its height and the inputs a person sees
// in it (not hidden, not in a closed details).
const formMeasureJS = `((sel) => {
	const f = document.querySelector(sel);
	if (!f) return [0, 0];
	const shown = [...f.querySelectorAll("input:not([type=hidden]), select, textarea")].filter(e => e.checkVisibility());
	return [Math.round(f.getBoundingClientRect().height), shown.length];
})`

// TestBrowserFormsAskWhatMatters measures the blank report's contract and
// costs forms at 375 and 1280 px (heights logged; the notes keep them) and
// holds what they show at first: the contract's essentials, not its
// details for the record; the costs of the chosen equipment mode only.
// Choosing another mode shows its inputs at once, without a save; axe
// finds nothing serious on either form.
func TestBrowserFormsAskWhatMatters(t *testing.T) {
	app := newTestApp(t)
	id, err := app.store.CreateReport(t.Context(), app.users["lead"], "Blank")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := browsertest.Extend(browsertest.New(t), 3*time.Minute)
	defer cancel()
	if err := chromedp.Do(ctx, browserLogin(app, app.users["lead"].Email)...); err != nil {
		t.Fatal(err)
	}
	base := fmt.Sprintf("%s/reports/%d", app.srv.URL, id)
	measure := func(name, sel string) (h, shown int) {
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](formMeasureJS+"("+fmt.Sprintf("%q", sel)+")"))
		if err != nil || len(got) != 2 {
			t.Fatalf("%s: %v", name, err)
		}
		return got[0], got[1]
	}
	for _, width := range []int{1280, 375} {
		if err := chromedp.Do(ctx,
			chromedp.EmulateViewport(int64(width), 900),
			chromedp.Navigate(base+"/contract/edit"),
			chromedp.WaitVisible(css(`[data-testid="contract-form"]`)),
		); err != nil {
			t.Fatal(err)
		}
		h, shown := measure("contract", `[data-testid="contract-form"]`)
		t.Logf("contract form at %d px: %d px tall, %d inputs shown", width, h, shown)
		if shown > 30 {
			t.Errorf("the contract form shows %d inputs at first, want the essentials only (at most 30)", shown)
		}
		if width == 1280 {
			browsertest.CheckAxe(ctx, t, "contract-form")
		}

		if err := chromedp.Do(ctx,
			chromedp.Navigate(base+"/costs"),
			chromedp.WaitVisible(css(`[data-testid="self-hosted-form"]`)),
		); err != nil {
			t.Fatal(err)
		}
		h, shown = measure("self-hosted", `[data-testid="self-hosted-form"]`)
		sh, _ := measure("costs", `#costs`)
		t.Logf("self-hosted cost form at %d px: %d px tall, %d inputs shown; the costs section %d px", width, h, shown, sh)
		if shown > 30 {
			t.Errorf("the self-hosted form shows %d inputs for a purchase, want its own only (at most 30)", shown)
		}
		if width == 1280 {
			browsertest.CheckAxe(ctx, t, "costs-form")
		}
	}

	// Another mode's inputs show as soon as it is chosen.
	visible := func(name string) string {
		return `(() => { const e = document.querySelector('[data-testid="self-hosted-form"] [name="` + name + `"]'); return !!e && e.checkVisibility(); })()`
	}
	choose := func(name, value string) chromedp.Action[chromedp.Void] {
		return chromedp.Evaluate[chromedp.Void](`(() => { const e = document.querySelector('[data-testid="self-hosted-form"] [name="` + name + `"]'); e.value = "` + value + `"; e.dispatchEvent(new Event("change", {bubbles: true})); })()`)
	}
	if err := chromedp.Do(ctx,
		waitTrue("the purchase price shown for a purchase", visible("self_hosted.purchase_price")),
		choose("self_hosted.equipment_mode", "rent"),
		waitTrue("the rent shown once rent is chosen", visible("self_hosted.rent_per_hour")),
		waitTrue("the purchase hidden once rent is chosen", "!"+visible("self_hosted.purchase_price")),
		waitTrue("the power price asked while the rent does not include it", visible("self_hosted.power_price_per_kwh")),
		choose("self_hosted.rent_includes_power", "yes"),
		waitTrue("no power price asked once the rent includes power", "!"+visible("self_hosted.power_price_per_kwh")),
		chromedp.WaitVisible(css(`[data-testid="power-in-rent"]`)),
	); err != nil {
		t.Fatal(err)
	}
}
