package web

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"capplan/web/browsertest"
	"capplan/web/reports"
	"capplan/web/view"
)

// matrixSizeJS measures the matrix as shown: the table's width and height,
// its box's, and the whole section's height.
const matrixSizeJS = `(() => {
	const t = document.querySelector('[data-testid="matrix-table"]').getBoundingClientRect();
	const w = document.getElementById("matrix-table-wrap").getBoundingClientRect();
	const s = document.getElementById("matrix").getBoundingClientRect();
	return [Math.round(t.width), Math.round(t.height), Math.round(w.width), Math.round(w.height), Math.round(s.height)];
})()`

// firstCountedJS finds the first counted row of the report's matrix.
const firstCountedJS = `document.querySelector('[data-testid="matrix-table"] tbody tr[data-counted="true"]')`

// stuckInViewJS scrolls the matrix's box to its right end and then down,
// and lists what is wrong with the first counted row's load and verdict
// cells and the header row: each must lie inside the box and be what the
// box shows at its centre (opaque, nothing over or through it).
const stuckInViewJS = `new Promise(done => {
	const box = document.querySelector('[data-testid="matrix-box"]');
	const row = ` + firstCountedJS + `;
	const out = [];
	if (box.scrollWidth <= box.clientWidth + 1) out.push("the box does not scroll sideways (" + box.scrollWidth + " in " + box.clientWidth + ")");
	box.scrollLeft = box.scrollWidth;
	const check = (what, el) => {
		const b = box.getBoundingClientRect(), r = el.getBoundingClientRect();
		if (r.left < b.left - 1 || r.right > b.right + 1) out.push(what + " at " + Math.round(r.left) + "-" + Math.round(r.right) + " px, the box " + Math.round(b.left) + "-" + Math.round(b.right));
		const x = Math.min(r.right, b.right) - 4, y = (Math.max(r.top, b.top) + Math.min(r.bottom, b.bottom)) / 2;
		const hit = document.elementFromPoint(x, y);
		if (!hit || !el.contains(hit)) out.push(what + ": the box shows " + (hit ? hit.tagName + " " + (hit.textContent || "").slice(0, 30) : "nothing") + " at its place");
		const bg = getComputedStyle(el).backgroundColor;
		if (bg === "rgba(0, 0, 0, 0)" || bg === "transparent") out.push(what + " has no background");
	};
	requestAnimationFrame(() => requestAnimationFrame(() => {
		if (box.scrollLeft === 0) out.push("the box did not scroll right");
		check("load", row.querySelector("th.col-load"));
		check("verdict", row.querySelector('[data-testid="verdict"]'));
		if (box.scrollHeight > box.clientHeight + 1) {
			box.scrollTop = box.scrollHeight;
			requestAnimationFrame(() => requestAnimationFrame(() => {
				check("header load", box.querySelector("thead th.col-load"));
				check("header verdict", box.querySelector("thead th.col-verdict"));
				const h = box.querySelector("thead th:last-child");
				const b = box.getBoundingClientRect(), r = h.getBoundingClientRect();
				if (Math.abs(r.top - b.top) > 2) out.push("the header row is at " + Math.round(r.top) + " px, the box's top at " + Math.round(b.top));
				done(out);
			}));
		} else {
			out.push("the box does not scroll down: " + box.scrollHeight + " in " + box.clientHeight);
			done(out);
		}
	}));
})`

// shownColumnsJS counts the matrix's header cells that show.
const shownColumnsJS = `[...document.querySelectorAll('[data-testid="matrix-table"] thead th')].filter(th => th.checkVisibility()).length`

// TestBrowserMatrixReadable: the demo's matrix on the results step. At
// 1280 px it shows the objective's columns only and fits its box (no
// sideways scroll) under the objective in words; "Show all N columns"
// shows the rest in place, kept in the address over a reload; scrolled
// right and down in its box (a shorter window), the first counted row's
// load and verdict and the header row stay in view. At 375 px each row is
// a card of labelled figures and the page does not scroll sideways. No
// serious or critical axe violation either way.
func TestBrowserMatrixReadable(t *testing.T) {
	app := newTestApp(t)
	demo := demoReport(t, app)
	ctx, cancel := browsertest.Extend(browsertest.New(t), 4*time.Minute)
	defer cancel()
	if err := chromedp.Do(ctx, browserLogin(app, app.users["admin"].Email)...); err != nil {
		t.Fatal(err)
	}
	results := fmt.Sprintf("%s/reports/%d/results", app.srv.URL, demo.ID)
	v := demoView(t, app, demo.ID)
	all := len(view.MatrixColumns(v))
	few := view.ObjectiveColumnCount(v)
	eval := func(what, js string) []string {
		t.Helper()
		out, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](js, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return out
	}
	count := func(js string) int {
		t.Helper()
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](js))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	size := func(what string) {
		t.Helper()
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](matrixSizeJS))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: table %d x %d px, box %d x %d px, section %d px tall", what, got[0], got[1], got[2], got[3], got[4])
	}

	// 1280 px: the objective's columns fit.
	if err := chromedp.Do(ctx,
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(results),
		chromedp.WaitVisible(css(`[data-testid="matrix-table"]`)),
	); err != nil {
		t.Fatal(err)
	}
	size("1280 px, the objective's columns")
	if n := count(shownColumnsJS); n != few || few >= all {
		t.Errorf("1280 px: %d columns show, want the objective's %d of %d", n, few, all)
	}
	fit := eval("fit", `(() => {
		const box = document.querySelector('[data-testid="matrix-box"]');
		const t = document.querySelector('[data-testid="matrix-table"]').getBoundingClientRect();
		const out = [];
		if (box.scrollWidth > box.clientWidth + 1) out.push("the box scrolls sideways: " + box.scrollWidth + " px in " + box.clientWidth);
		if (t.width > 1280) out.push("the table is " + Math.round(t.width) + " px wide");
		return out;
	})()`)
	for _, f := range fit {
		t.Errorf("1280 px, the objective's columns: %s", f)
	}
	words, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid="matrix-objective-words"]').textContent`))
	if err != nil || !strings.Contains(words, "of requests succeed") || !strings.Contains(words, "of first tokens within") {
		t.Errorf("the matrix's objective is not in words: %q (%v)", words, err)
	}
	browsertest.CheckAxe(ctx, t, "matrix at 1280 px")
	matrixShot(ctx, t, "matrix-1280")

	// Show all columns, in place: the address keeps it.
	showAll := css(`a[data-testid="matrix-show-all-columns"]`)
	if err := chromedp.Do(ctx,
		browsertest.WaitText(`[data-testid="matrix-show-all-columns"]`, fmt.Sprintf("Show all %d columns", all)),
		chromedp.Click(showAll),
		waitTrue("every column shows", fmt.Sprintf(`(%s) === %d`, shownColumnsJS, all)),
	); err != nil {
		t.Fatal(err)
	}
	size("1280 px, all columns")
	if loc, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname + location.search`)); loc != fmt.Sprintf("/reports/%d/results?cols=all", demo.ID) {
		t.Errorf("after show all the address is %s", loc)
	}
	// The load and verdict stick: scrolled right and down in a shorter
	// window (the box is no taller than the window).
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 500)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.ScrollIntoView(css(`[data-testid="matrix-box"]`))); err != nil {
		t.Fatal(err)
	}
	for _, f := range eval("scrolled", stuckInViewJS) {
		t.Errorf("1280 px, all columns, the box scrolled right and down: %s", f)
	}
	browsertest.ScreenshotView(ctx, t, "matrix-1280-all-scrolled")

	// A reload keeps every column; the way back shows the objective's.
	if err := chromedp.Do(ctx,
		chromedp.EmulateViewport(1280, 900),
		chromedp.Reload(),
		chromedp.WaitVisible(css(`[data-testid="matrix-table"]`)),
		waitTrue("all columns after the reload", fmt.Sprintf(`document.querySelector('[data-testid="matrix-wrap"]').classList.contains("all-cols") && (%s) === %d`, shownColumnsJS, all)),
		chromedp.Click(css(`a[data-testid="matrix-objective-columns"]`)),
		waitTrue("the objective's columns again", fmt.Sprintf(`(%s) === %d && !location.search.includes("cols")`, shownColumnsJS, few)),
	); err != nil {
		t.Fatal(err)
	}

	// 375 px: cards.
	if err := chromedp.Do(ctx,
		chromedp.EmulateViewport(375, 900),
		chromedp.Navigate(results),
		chromedp.WaitVisible(css(`[data-testid="matrix-table"]`)),
	); err != nil {
		t.Fatal(err)
	}
	size("375 px, cards")
	browsertest.NoHorizontalScroll(ctx, t, "matrix-375", 375)
	cards := eval("cards", `(() => {
		const row = `+firstCountedJS+`;
		const out = [];
		const box = document.querySelector('[data-testid="matrix-box"]');
		if (box.scrollWidth > box.clientWidth + 1) out.push("the box scrolls sideways: " + box.scrollWidth + " px in " + box.clientWidth);
		if (getComputedStyle(row).display === "table-row") out.push("the row is not a card: display " + getComputedStyle(row).display);
		const r = row.getBoundingClientRect();
		if (r.left < 0 || r.right > document.documentElement.clientWidth) out.push("the card is at " + Math.round(r.left) + "-" + Math.round(r.right) + " px");
		const labels = [];
		for (const c of row.children) {
			if (!c.checkVisibility()) continue;
			const before = getComputedStyle(c, "::before").content;
			if (!before || before === "none" || before === "normal") out.push("a figure has no label: " + c.textContent.trim().slice(0, 30));
			else labels.push(before);
			if (c.getBoundingClientRect().right > r.right + 1) out.push("a figure reaches out of its card: " + c.textContent.trim().slice(0, 30));
		}
		const said = labels.join(" ");
		for (const want of ["Load", "Verdict", "Success rate", "TTFT p95", "E2E p95", "Successful req/s"]) {
			if (!said.includes(want)) out.push("no " + want + " in the card's labels: " + said);
		}
		return out;
	})()`)
	for _, f := range cards {
		t.Errorf("375 px: %s", f)
	}
	browsertest.CheckAxe(ctx, t, "matrix at 375 px")
	matrixShot(ctx, t, "matrix-375")
}

// matrixShot keeps a picture of the matrix section as <name>.png among
// the test's screenshots.
func matrixShot(ctx context.Context, t *testing.T, name string) {
	t.Helper()
	dir, err := browsertest.ArtifactDir(ctx)
	if err == nil {
		var png []byte
		png, err = chromedp.Run(ctx, chromedp.Screenshot(css(`#matrix`)))
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644)
		}
	}
	if err != nil {
		t.Logf("screenshot %s: %v", name, err)
	}
}

// demoView is the view of report id as its page shows it, to count the
// matrix's columns.
func demoView(t testing.TB, app *testApp, id int64) view.Report {
	t.Helper()
	rep, err := reports.New(app.store, "", time.Now).Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	u := app.users["admin"]
	return viewOf(rep, &u)
}
