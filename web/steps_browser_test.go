package web

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"capplan/web/browsertest"
	"capplan/web/view"
)

// TestBrowserReportSteps: the demo report walked step by step at 1280 and
// 375 px. Every step page carries the step bar with each step's state and
// the objective in words, never scrolls sideways and has no serious or critical axe violation; its
// height is logged (the blank report's journey holds it to 6,000 px); the
// print view carries every section of the registry; a link of the
// one-page report (#matrix, #costs, #candidate-N) lands on its step.
func TestBrowserReportSteps(t *testing.T) {
	app := newTestApp(t)
	demo := demoReport(t, app)
	ctx, cancel := browsertest.Extend(browsertest.New(t), 6*time.Minute)
	defer cancel()
	if err := chromedp.Do(ctx, browserLogin(app, app.users["admin"].Email)...); err != nil {
		t.Fatal(err)
	}
	base := fmt.Sprintf("%s/reports/%d", app.srv.URL, demo.ID)
	height := func() int {
		h, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollHeight`))
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	for _, width := range []int{1280, 375} {
		for _, st := range view.Steps {
			name := fmt.Sprintf("step-%s-%d", view.StepKey(st.Name), width)
			if err := chromedp.Do(ctx,
				chromedp.EmulateViewport(int64(width), 900),
				chromedp.Navigate(base+pathOfStep(st.Name)),
				chromedp.WaitVisible(css(`[data-testid="step-bar"]`)),
			); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			cur, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid="step-bar"] [aria-current="page"]')?.textContent ?? ""`))
			if err != nil || !strings.Contains(cur, st.Title) {
				t.Errorf("%s: the step bar marks %q as the page shown, want %q (%v)", name, cur, st.Title, err)
			}
			obj, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid="objective-line"]').textContent`))
			if !strings.Contains(obj, "of requests succeed") {
				t.Errorf("%s: objective line %q is not in words", name, obj)
			}
			// Each term of the field links to the glossary once, at its
			// first use on the page.
			dup, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const n = {}; for (const a of document.querySelectorAll("a.term[data-term]")) n[a.dataset.term] = (n[a.dataset.term] || 0) + 1; return Object.entries(n).filter(([, c]) => c > 1).map(([k, c]) => k + " x" + c).join(", ") })()`))
			if err != nil || dup != "" {
				t.Errorf("%s: terms linked more than once: %s (%v)", name, dup, err)
			}
			// The bar's tiles do not overlap, and those on one line stand
			// at one height.
			overlap, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
				const r = [...document.querySelectorAll('[data-testid="step-bar"] li.step > a')].map(a => a.getBoundingClientRect());
				const bad = [];
				for (let i = 0; i < r.length; i++) for (let j = i + 1; j < r.length; j++) {
					const a = r[i], b = r[j];
					if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) bad.push((i+1) + " overlaps " + (j+1));
					if (Math.abs(a.top - b.top) < a.height / 2 && (Math.abs(a.top - b.top) > 0.5 || Math.abs(a.height - b.height) > 0.5)) bad.push((i+1) + " and " + (j+1) + " stand unevenly");
				}
				return bad.join(", ");
			})()`))
			if err != nil || overlap != "" {
				t.Errorf("%s: step bar tiles: %s (%v)", name, overlap, err)
			}
			h := height()
			t.Logf("%s: %d px tall", name, h)
			// The demo is a full report: even so every step page stays
			// within 6,000 px at 1280 (its detail folded under lines that
			// carry the figure); only the print view is longer.
			if width == 1280 && h > 6000 {
				t.Errorf("%s: %d px tall, want at most 6,000", name, h)
			}
			browsertest.NoHorizontalScroll(ctx, t, name)
			if width == 1280 {
				browsertest.CheckAxe(ctx, t, name)
			}
			if width == 1280 {
				browsertest.Screenshot(ctx, t, name)
			} else if err := browsertest.KeepView(ctx, t, name); err != nil {
				t.Log(err)
			}
		}
	}

	// The print view carries every section the registry shows.
	if err := chromedp.Do(ctx,
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(base+"/print"),
		chromedp.WaitVisible(css(`#history`)),
	); err != nil {
		t.Fatal(err)
	}
	for _, s := range view.Sections {
		if s.View == nil {
			continue
		}
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](fmt.Sprintf(`document.querySelectorAll('#%s').length`, s.Name)))
		if err != nil || n != 1 {
			t.Errorf("print view: section #%s found %d times, want once (%v)", s.Name, n, err)
		}
	}
	// The print view's folds of reading matter are open (app.js), so the
	// reviewer's page carries what the step pages fold; folds holding a
	// form stay closed.
	const foldsShut = `[...document.querySelectorAll('details:not([open])')].filter(d => !d.querySelector('form, .lazy-part')).length`
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](foldsShut+` === 0`,
		chromedp.WithPollingInterval(50*time.Millisecond),
		chromedp.WithPollingTimeout(browsertest.WaitTimeout))); err != nil {
		n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](foldsShut))
		t.Errorf("print view: %d folds of reading matter left closed (%v)", n, err)
	}
	if ok, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`[...document.querySelectorAll('#envelope details')].some(d => d.open && /Why these figures/.test(d.textContent))`)); !ok {
		t.Errorf("print view: the admission limit's reasons are folded away")
	}
	t.Logf("print view: %d px tall", height())

	// Old one-page links land on their step at the anchor.
	for anchor, step := range map[string]string{"matrix": "results", "costs": "costs", "history": "review", "evidence-soak": "evidence", "exitcheck": ""} {
		if err := chromedp.Do(ctx, chromedp.Navigate(base+"#"+anchor), chromedp.WaitReady(css("#"+anchor))); err != nil {
			t.Fatalf("#%s: %v", anchor, err)
		}
		loc, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname + location.hash`))
		if want := fmt.Sprintf("/reports/%d%s#%s", demo.ID, pathOfStep(step), anchor); loc != want {
			t.Errorf("/reports/%d#%s landed on %s, want %s", demo.ID, anchor, loc, want)
		}
	}
	dir, _ := browsertest.ArtifactDir(ctx)
	t.Logf("screenshots in %s", dir)
}

// pathOfStep is the address of a step under its report's.
func pathOfStep(step string) string {
	if step == "" {
		return ""
	}
	return "/" + step
}
