package browsertest

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// Widths are the viewport widths pages are checked at: a phone (375 px)
// and a laptop (1280 px).
var Widths = []int{375, 1280}

// Overflow is what NoHorizontalScroll measured at one width.
type Overflow struct {
	Width       int      // the viewport's width, CSS px
	ScrollWidth int      // the document's
	Culprits    []string // the outermost elements reaching past the viewport and not inside a scroll box
}

// overflowJS measures the document's scroll width against the viewport and
// names the elements that stick out: those whose right edge passes the
// viewport, that are not inside a box that scrolls (or clips) on its own,
// outermost first, at most eight.
const overflowJS = `(() => {
	const vw = document.documentElement.clientWidth;
	const sw = Math.max(document.documentElement.scrollWidth, document.body ? document.body.scrollWidth : 0);
	const out = [];
	if (sw > vw) {
		const clipped = el => {
			for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
				const o = getComputedStyle(p).overflowX;
				if (o === "auto" || o === "scroll" || o === "hidden" || o === "clip") return true;
			}
			return false;
		};
		const seen = new Set();
		for (const el of document.body.querySelectorAll("*")) {
			if (out.length >= 8) break;
			const r = el.getBoundingClientRect();
			if (r.width === 0 || r.right <= vw + 1 || clipped(el)) continue;
			let inner = false;
			for (let p = el.parentElement; p; p = p.parentElement) if (seen.has(p)) { inner = true; break; }
			seen.add(el);
			if (inner) continue;
			const id = el.id ? "#" + el.id : "";
			const tid = el.dataset && el.dataset.testid ? "[data-testid=" + el.dataset.testid + "]" : "";
			const cls = typeof el.className === "string" && el.className ? "." + el.className.trim().split(/\s+/).join(".") : "";
			out.push(el.tagName.toLowerCase() + id + tid + cls + " right=" + Math.round(r.right) + " text=" + JSON.stringify((el.innerText || "").slice(0, 60)));
		}
	}
	return {width: vw, scrollWidth: sw, culprits: out};
})()`

// renderAllJS lays out every part of the page, content-visibility: auto
// or not, until unrenderJS. A part the browser skips while off screen is
// laid out as a box of a guessed size whose content is clipped, so
// measuring it as it stands would miss what sticks out of it once the
// reader scrolls there; checks measure the page as it is once all read.
const (
	renderAllJS = `(() => { if (document.getElementById("browsertest-render-all")) return;
	const s = document.createElement("style"); s.id = "browsertest-render-all";
	s.textContent = "* { content-visibility: visible !important; }";
	document.head.append(s); })()`
	unrenderJS = `(() => { const s = document.getElementById("browsertest-render-all"); if (s) s.remove(); })()`
)

// RenderAll lays out the whole page until the returned undo is called, as
// Axe and MeasureOverflow do for what they check. ctx must come from New.
func RenderAll(ctx context.Context) (undo func(), err error) {
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](renderAllJS)); err != nil {
		return func() {}, fmt.Errorf("laying out the whole page: %w", err)
	}
	return func() { chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](unrenderJS)) }, nil
}

// settleJS waits until the window is the width asked for and two frames
// have passed: the browser fires "resize" on a frame after the viewport
// changed, and what resizes on it (the charts, which draw at a width in
// pixels) must have done so before the page is measured.
const settleJS = `new Promise(done => {
	const start = performance.now();
	const frame = () => new Promise(r => requestAnimationFrame(() => r()));
	const wait = async () => {
		while (window.innerWidth !== %d && performance.now() - start < 5000) await frame();
		await frame(); await frame();
		done(window.innerWidth);
	};
	wait();
})`

// settleWidth waits for the viewport change to width to have reached the
// page (see settleJS).
func settleWidth(ctx context.Context, width int) error {
	got, err := chromedp.Run(ctx, chromedp.Evaluate[int](fmt.Sprintf(settleJS, width), chromedp.EvalAwaitPromise))
	if err != nil {
		return fmt.Errorf("waiting for the page to take %d px: %w", width, err)
	}
	if got != width {
		return fmt.Errorf("the page is %d px wide after asking for %d", got, width)
	}
	return nil
}

// MeasureOverflow sets the viewport to width (height 900) and measures
// the page as it then lays out, every part of it (see RenderAll). ctx
// must come from New.
func MeasureOverflow(ctx context.Context, width int) (Overflow, error) {
	var got struct {
		Width       int      `json:"width"`
		ScrollWidth int      `json:"scrollWidth"`
		Culprits    []string `json:"culprits"`
	}
	err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(width), 900))
	if err == nil {
		err = settleWidth(ctx, width)
	}
	if err == nil {
		var undo func()
		undo, err = RenderAll(ctx)
		defer undo()
	}
	if err == nil {
		got, err = chromedp.Run(ctx, chromedp.Evaluate[struct {
			Width       int      `json:"width"`
			ScrollWidth int      `json:"scrollWidth"`
			Culprits    []string `json:"culprits"`
		}](overflowJS))
	}
	if err != nil {
		return Overflow{}, fmt.Errorf("measuring the page at %d px: %w", width, err)
	}
	return Overflow{Width: got.Width, ScrollWidth: got.ScrollWidth, Culprits: got.Culprits}, nil
}

// NoHorizontalScroll checks the page now loaded at each width (Widths when
// none are given): the document must be no wider than the viewport, so the
// page never scrolls sideways (a wide table scrolls inside its own box). It
// keeps a full-page screenshot <name>-<width>.png of each width that
// scrolls, and of every width when $CAPPLAN_SCREENSHOTS names a folder for
// them (see writeArtifact), and reports each
// width that scrolls with the elements that stick out, as a test error. The
// viewport is left at the last width. ctx must come from New.
func NoHorizontalScroll(ctx context.Context, t testing.TB, name string, widths ...int) {
	t.Helper()
	if len(widths) == 0 {
		widths = Widths
	}
	for _, w := range widths {
		o, err := MeasureOverflow(ctx, w)
		if err != nil {
			t.Error(err)
			continue
		}
		scrolls := o.ScrollWidth > o.Width
		if scrolls || os.Getenv("CAPPLAN_SCREENSHOTS") != "" {
			Screenshot(ctx, t, fmt.Sprintf("%s-%d", name, w))
		}
		if scrolls {
			t.Errorf("%s at %d px: the page is %d px wide, so it scrolls sideways; sticking out: %s",
				name, w, o.ScrollWidth, strings.Join(o.Culprits, "; "))
		}
	}
}
