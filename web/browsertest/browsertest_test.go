package browsertest

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

const selfTestPage = `<!doctype html>
<html><head><title>browsertest</title></head>
<body>
<button id="reveal">Reveal</button>
<p id="out" hidden>revealed after a click</p>
<button id="boom">Throw</button>
<script src="/page.js"></script>
</body></html>`

// The reveal is delayed so that WaitText has to wait for it.
const selfTestJS = `
document.getElementById("reveal").addEventListener("click", () => {
  setTimeout(() => { document.getElementById("out").hidden = false; }, 300);
});
document.getElementById("boom").addEventListener("click", () => {
  throw new Error("deliberate test error");
});
`

func selfTestServer(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(selfTestPage))
	})
	mux.HandleFunc("GET /page.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		w.Write([]byte(selfTestJS))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func TestWaitTextAndConsoleErrors(t *testing.T) {
	srv := selfTestServer(t)
	ctx := New(t)

	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/")); err != nil {
		t.Fatal(err)
	}
	if errs := ConsoleErrors(ctx); len(errs) != 0 {
		t.Fatalf("console errors before any click: %q", errs)
	}

	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS("#reveal")),
		WaitText("#out", "revealed after a click"),
	); err != nil {
		t.Fatal(err)
	}

	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#boom"))); err != nil {
		t.Fatal(err)
	}
	errs := ConsoleErrors(ctx)
	if len(errs) != 1 || !strings.Contains(errs[0], "deliberate test error") {
		t.Fatalf("ConsoleErrors = %q, want one entry with the thrown error", errs)
	}
}

func TestWaitTextTimesOutWithLastText(t *testing.T) {
	srv := selfTestServer(t)
	ctx := New(t)

	err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/"),
		waitText("#reveal", "never there", time.Second),
	)
	if err == nil {
		t.Fatal("WaitText succeeded on text that is not there")
	}
	if !strings.Contains(err.Error(), `last text "Reveal"`) {
		t.Errorf("error does not report the last text: %v", err)
	}
}

func TestScreenshot(t *testing.T) {
	t.Setenv("CAPPLAN_SCREENSHOTS", t.TempDir())
	srv := selfTestServer(t)
	ctx := New(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/")); err != nil {
		t.Fatal(err)
	}
	p := Screenshot(ctx, t, "page")
	if p == "" {
		t.Fatal("no screenshot written")
	}
	if !strings.HasSuffix(p, ".png") {
		t.Errorf("screenshot path %q is not a .png", p)
	}
}

// A part the browser skips while off screen (content-visibility: auto)
// clips what sticks out of it: MeasureOverflow must still see it, as the
// reader who scrolls there would, and leave the page as it was.
func TestMeasureOverflowSeesSkippedParts(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!doctype html><html><head><title>skipped</title></head><body style="margin:0">
<div style="height:5000px">first screen</div>
<section style="content-visibility:auto; contain-intrinsic-size:auto 300px"><div style="width:2000px">too wide</div></section>
</body></html>`))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	ctx := New(t, AsShown())
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/")); err != nil {
		t.Fatal(err)
	}
	raw := `Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)`
	before, err := chromedp.Run(ctx, chromedp.Evaluate[int](raw))
	if err != nil {
		t.Fatal(err)
	}
	o, err := MeasureOverflow(ctx, 375)
	if err != nil {
		t.Fatal(err)
	}
	if o.ScrollWidth <= o.Width {
		t.Errorf("MeasureOverflow = %+v: the skipped section's 2,000 px child was not seen (the page as it stands measures %d px)", o, before)
	}
	if len(o.Culprits) == 0 || !strings.Contains(strings.Join(o.Culprits, " "), "too wide") {
		t.Errorf("culprits %q do not name the wide child", o.Culprits)
	}
	// Skipped again from the next frames on.
	left, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() =>
		done(!document.getElementById("browsertest-render-all") && !document.querySelector("section div").checkVisibility({contentVisibilityAuto: true})))))`, chromedp.EvalAwaitPromise))
	if err != nil || !left {
		t.Errorf("the page was left laid out whole (%v)", err)
	}
	// The skipped section's text is still waited for as a reader sees it.
	if err := chromedp.Do(ctx, waitText("section div", "too wide", 3*time.Second)); err != nil {
		t.Error(err)
	}
}

// Without AsShown every part of a page is laid out from its start.
func TestNewLaysOutWholePages(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!doctype html><html><head><title>skipped</title></head><body>
<div style="height:5000px">first screen</div>
<section style="content-visibility:auto"><p>far below</p></section>
</body></html>`))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	for _, asShown := range []bool{false, true} {
		var opts []Option
		if asShown {
			opts = append(opts, AsShown())
		}
		ctx := New(t, opts...)
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/")); err != nil {
			t.Fatal(err)
		}
		laid, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector("section p").checkVisibility({contentVisibilityAuto: true})`))
		if err != nil {
			t.Fatal(err)
		}
		if laid == asShown {
			t.Errorf("AsShown %v: the section far below laid out at load = %v", asShown, laid)
		}
	}
}

// Steady runs an action again while it fails only because its node was
// replaced, and not for any other error.
func TestSteadyRetriesOnlyAGoneNode(t *testing.T) {
	calls := 0
	gone := func(ctx context.Context, _ *chromedp.Target) (chromedp.Void, error) {
		calls++
		if calls < 3 {
			return chromedp.Void{}, errors.New("Could not find node with given id (-32000)")
		}
		return chromedp.Void{}, nil
	}
	if _, err := Steady(gone)[0](t.Context(), nil); err != nil || calls != 3 {
		t.Errorf("a node gone twice: err %v after %d calls, want success on the 3rd", err, calls)
	}
	calls = 0
	other := func(ctx context.Context, _ *chromedp.Target) (chromedp.Void, error) {
		calls++
		return chromedp.Void{}, errors.New("waiting for function failed: timeout")
	}
	if _, err := Steady(other)[0](t.Context(), nil); err == nil || calls != 1 {
		t.Errorf("another error: err %v after %d calls, want it at once", err, calls)
	}
}
