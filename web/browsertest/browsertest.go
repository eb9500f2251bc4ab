// Package browsertest runs Go tests against a real headless Chromium
// (Debian's chromium package) through chromedp.
//
// A test calls New to get a browser tab bound to the test, drives it with
// chromedp actions, waits with WaitText or chromedp's own waits rather than
// sleeping, and may check ConsoleErrors at the end. When the test fails, New
// leaves a full-page screenshot and the page's HTML behind and logs where.
//
// Without a Chromium binary the tests skip, unless the environment variable
// CI is set: CI must not pass by skipping.
package browsertest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// Timeout bounds everything one test does in its browser.
const Timeout = 90 * time.Second

// WaitTimeout bounds a single WaitText.
const WaitTimeout = 15 * time.Second

// session is what New keeps for one test's browser.
type session struct {
	t       testing.TB
	browser context.Context // no deadline, so artifacts can be saved after a timeout

	mu      sync.Mutex
	errs    []string
	markers map[string]chan struct{}
	serial  int
	dir     string // artifacts folder, made on first use
}

type sessionKey struct{}

func sessionOf(ctx context.Context) *session {
	s, _ := ctx.Value(sessionKey{}).(*session)
	return s
}

// Option changes how New sets up the browser.
type Option func(*options)

type options struct{ asShown bool }

// AsShown keeps the pages' own rendering: parts styled content-visibility:
// auto are laid out only when near the screen, as a reader's browser does.
// Without it every part of every page is laid out from the start, so a
// test that waits for a section's text, or clicks in it, meets it at its
// real place and size rather than a skipped box of a guessed size that
// moves once laid out. Use it for what the skipping itself changes: load
// timing, and a journey that checks the page still works with it.
func AsShown() Option { return func(o *options) { o.asShown = true } }

// renderAllInit lays out every part of every document from its start (see
// AsShown); it needs no element of the document, so it runs before any.
const renderAllInit = `(() => {
	const s = new CSSStyleSheet();
	s.replaceSync("* { content-visibility: visible !important; }");
	document.adoptedStyleSheets = [...document.adoptedStyleSheets, s];
})()`

// New starts a headless Chromium for the test and returns a context for
// chromedp.Run and chromedp.Do. The browser, its fresh profile directory
// and the context end with the test; the context also ends after Timeout.
func New(t testing.TB, opts ...Option) context.Context {
	t.Helper()
	return NewFor(t, Timeout, opts...)
}

// NewFor is New for a test that needs longer than Timeout in its browser
// (a journey of many pages, each looked at twice).
func NewFor(t testing.TB, timeout time.Duration, opts ...Option) context.Context {
	t.Helper()
	var o options
	for _, f := range opts {
		f(&o)
	}
	exe, err := findChromium()
	if err != nil {
		if os.Getenv("CI") == "" {
			t.Skipf("browser test skipped: %v (install Debian's chromium or set CHROMIUM)", err)
		}
		t.Fatalf("browser test cannot run in CI: %v", err)
	}

	// chromedp gives every allocation a fresh temporary --user-data-dir and
	// removes it afterwards, so no profile state leaks between tests.
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("force-color-profile", "srgb"),
		chromedp.WindowSize(1280, 1000),
	)
	t.Cleanup(cancelAlloc)
	browserCtx, cancelBrowser := chromedp.NewContext(allocCtx)
	t.Cleanup(cancelBrowser)

	// Start the browser now, on a context with no deadline: chromedp ties
	// the browser's life to the context of the first call.
	if err := chromedp.Do(browserCtx); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}

	if !o.asShown {
		if _, err := chromedp.Call(browserCtx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: renderAllInit}); err != nil {
			t.Fatalf("setting the browser to lay out whole pages: %v", err)
		}
	}

	s := &session{t: t, browser: browserCtx, markers: make(map[string]chan struct{})}
	messages := chromedp.Console(browserCtx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			s.record(m)
		}
	}()

	ctx, cancel := context.WithTimeout(browserCtx, timeout)
	t.Cleanup(cancel)
	// Registered last, so it runs first: the browser is still alive.
	t.Cleanup(func() {
		if t.Failed() {
			s.saveArtifacts()
		}
	})
	return context.WithValue(ctx, sessionKey{}, s)
}

// findChromium returns $CHROMIUM, Debian's /usr/bin/chromium, or chromium
// from PATH, in that order.
func findChromium() (string, error) {
	if p := os.Getenv("CHROMIUM"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("CHROMIUM=%s: %w", p, err)
		}
		return p, nil
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium", nil
	}
	p, err := exec.LookPath("chromium")
	if err != nil {
		return "", errors.New("no chromium: not at /usr/bin/chromium nor in PATH, and CHROMIUM is unset")
	}
	return p, nil
}

// markerPrefix tags the console.debug calls ConsoleErrors uses to know it
// has seen every message logged before it was called.
const markerPrefix = "browsertest-sync-"

// record keeps errors and uncaught exceptions and notes sync markers.
func (s *session) record(m chromedp.ConsoleMessage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case m.Type == chromedp.ConsoleDebug && strings.HasPrefix(m.Text, markerPrefix):
		if ch, ok := s.markers[m.Text]; ok {
			close(ch)
			delete(s.markers, m.Text)
		}
	case m.Source == "network" && strings.HasSuffix(m.URL, "/favicon.ico"):
		// The browser asks for a favicon on its own; the page did not.
	case m.IsException(), m.Type == chromedp.ConsoleError:
		s.errs = append(s.errs, describe(m))
	}
}

func describe(m chromedp.ConsoleMessage) string {
	var b strings.Builder
	if m.Source != "" {
		b.WriteString(m.Source + ": ")
	} else {
		b.WriteString(string(m.Type) + ": ")
	}
	b.WriteString(m.Text)
	if m.URL != "" {
		fmt.Fprintf(&b, " (%s:%d)", m.URL, m.Line+1)
	}
	return b.String()
}

// ConsoleErrors returns, in order, the console.error calls, uncaught
// exceptions and browser log errors (such as a failed resource load, with
// the prefix "network: ") seen so far in the test's page. The browser's own
// request for /favicon.ico is not counted. It first logs a
// marker through the page's console and waits for it, so everything the page
// logged before the call is included. ctx must come from New.
func ConsoleErrors(ctx context.Context) []string {
	s := sessionOf(ctx)
	if s == nil {
		return []string{"browsertest.ConsoleErrors: context does not come from browsertest.New"}
	}
	s.mu.Lock()
	s.serial++
	marker := fmt.Sprintf("%s%d", markerPrefix, s.serial)
	seen := make(chan struct{})
	s.markers[marker] = seen
	s.mu.Unlock()

	js, _ := json.Marshal(marker)
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void]("console.debug("+string(js)+")")); err == nil {
		select {
		case <-seen:
		case <-time.After(5 * time.Second):
		case <-ctx.Done():
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.markers, marker)
	return append([]string(nil), s.errs...)
}

// textOfJS is a function of an element giving its rendered text; within
// a part the browser skips, the outermost such part is laid out for the
// reading and left as it was.
const textOfJS = `(el => {
	let part = null;
	for (let p = el; p; p = p.parentElement) if (getComputedStyle(p).contentVisibility === "auto") part = p;
	if (!part) return el.innerText;
	const was = part.style.contentVisibility;
	part.style.contentVisibility = "visible";
	const text = el.innerText;
	part.style.contentVisibility = was;
	return text;
})`

// WaitText waits until the first element matching the CSS selector exists
// and its rendered text (innerText, so hidden text does not count)
// contains text. It polls in the page and fails after WaitTimeout with
// the text it last saw.
func WaitText(selector, text string) chromedp.Action[chromedp.Void] {
	return waitText(selector, text, WaitTimeout)
}

func waitText(selector, text string, timeout time.Duration) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		sel, _ := json.Marshal(selector)
		want, _ := json.Marshal(text)
		// The document must have finished loading too: an element seen
		// while the page is still parsed or its scripts still run can be
		// gone from chromedp's copy of the document by the next action
		// ("Could not find node with given id").
		// An element in a part the browser skips (content-visibility:
		// auto, off screen; see AsShown) has no rendered text: its part is
		// laid out for the reading, as it is once the reader scrolls there.
		cond := fmt.Sprintf(`(() => { if (document.readyState !== "complete") return false; const el = document.querySelector(%s); return !!el && (%s)(el).includes(%s); })()`, sel, textOfJS, want)
		// A click that navigates (a form post, a redirect) can tear down
		// the page under the poll; the wait then starts again on the new
		// page until the deadline.
		deadline := time.Now().Add(timeout)
		var err error
		for {
			_, err = chromedp.Poll[bool](cond,
				chromedp.WithPollingInterval(50*time.Millisecond),
				chromedp.WithPollingTimeout(time.Until(deadline)),
			)(ctx, t)
			if err == nil {
				return chromedp.Void{}, nil
			}
			if !navigatedAway(err) || time.Now().After(deadline) || ctx.Err() != nil {
				break
			}
		}
		last := fmt.Sprintf(`(() => { const el = document.querySelector(%s); return el ? (%s)(el) : "<no element>"; })()`, sel, textOfJS)
		got, lerr := chromedp.Evaluate[string](last)(ctx, t)
		if lerr != nil {
			got = "<unavailable: " + lerr.Error() + ">"
		}
		return chromedp.Void{}, fmt.Errorf("waiting for %s to contain %q: %w; last text %q", selector, text, err, got)
	}
}

// Screenshot saves a full-page PNG of the test's page as <name>.png in the
// artifacts folder, logs the path and returns it. ctx must come from New.
func Screenshot(ctx context.Context, t testing.TB, name string) string {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	return keepScreenshot(ctx, t, name, png, err)
}

// ScreenshotView is Screenshot of what the viewport shows (the top of the
// page unless it was scrolled), as a first-time reader sees it.
func ScreenshotView(ctx context.Context, t testing.TB, name string) string {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	return keepScreenshot(ctx, t, name, png, err)
}

// KeepView writes a screenshot of what the viewport shows, as
// ScreenshotView does, without logging it: a journey keeps one of every
// step at every width and names their folder once (see ArtifactDir).
func KeepView(ctx context.Context, t testing.TB, name string) error {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err == nil {
		_, err = writeArtifact(sessionOf(ctx), t, name+".png", png)
	}
	return err
}

// ArtifactDir is the folder the test's screenshots and failure pages go
// to: $CAPPLAN_SCREENSHOTS, or a capplan-browser-* folder under the
// system temp dir, left in place for a person to look at.
func ArtifactDir(ctx context.Context) (string, error) {
	return artifactDir(sessionOf(ctx))
}

// keepScreenshot writes a screenshot taken by Screenshot or ScreenshotView
// to the artifacts folder and logs its path; a failure is logged, not fatal.
func keepScreenshot(ctx context.Context, t testing.TB, name string, png []byte, err error) string {
	t.Helper()
	if err != nil {
		t.Logf("screenshot %s: %v", name, err)
		return ""
	}
	p, err := writeArtifact(sessionOf(ctx), t, name+".png", png)
	if err != nil {
		t.Logf("screenshot %s: %v", name, err)
		return ""
	}
	t.Logf("screenshot: %s", p)
	return p
}

// saveArtifacts keeps a failed test's page: a full-page screenshot and the
// HTML as it stands, plus the console errors in the log.
func (s *session) saveArtifacts() {
	ctx, cancel := context.WithTimeout(s.browser, 15*time.Second)
	defer cancel()
	ctx = context.WithValue(ctx, sessionKey{}, s)
	Screenshot(ctx, s.t, "failure")
	html, err := chromedp.Run(ctx, chromedp.Evaluate[string]("document.documentElement.outerHTML"))
	if err != nil {
		s.t.Logf("page HTML: %v", err)
	} else if p, err := writeArtifact(s, s.t, "failure.html", []byte(html)); err != nil {
		s.t.Logf("page HTML: %v", err)
	} else {
		s.t.Logf("page HTML: %s", p)
	}
	s.mu.Lock()
	errs := append([]string(nil), s.errs...)
	s.mu.Unlock()
	for _, e := range errs {
		s.t.Logf("console: %s", e)
	}
}

var unsafeChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// writeArtifact writes data as <test name>-<name> into $CAPPLAN_SCREENSHOTS,
// or into a new capplan-browser-* folder under the system temp dir that is
// left in place for a person to look at.
func writeArtifact(s *session, t testing.TB, name string, data []byte) (string, error) {
	dir, err := artifactDir(s)
	if err != nil {
		return "", err
	}
	p := filepath.Join(dir, unsafeChars.ReplaceAllString(t.Name()+"-"+name, "_"))
	return p, os.WriteFile(p, data, 0o644)
}

func artifactDir(s *session) (string, error) {
	if s != nil {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.dir != "" {
			return s.dir, nil
		}
	}
	var dir string
	if d := os.Getenv("CAPPLAN_SCREENSHOTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return "", err
		}
		dir = d
	} else {
		d, err := os.MkdirTemp("", "capplan-browser-*")
		if err != nil {
			return "", err
		}
		dir = d
	}
	if s != nil {
		s.dir = dir
	}
	return dir, nil
}

// Steady runs each action, running it again when it failed only because
// the element it had found was replaced before it could act on it (htmx
// swapping the part that holds it, so the browser no longer knows the node
// chromedp had found): the action then finds the element anew. Any other
// error, or the same one for WaitTimeout, ends it.
func Steady(actions ...chromedp.Action[chromedp.Void]) []chromedp.Action[chromedp.Void] {
	out := make([]chromedp.Action[chromedp.Void], len(actions))
	for i, a := range actions {
		out[i] = func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
			deadline := time.Now().Add(WaitTimeout)
			for {
				v, err := a(ctx, t)
				if err == nil || !nodeGone(err) || time.Now().After(deadline) || ctx.Err() != nil {
					return v, err
				}
				select {
				case <-ctx.Done():
					return v, err
				case <-time.After(50 * time.Millisecond): // the swap settling
				}
			}
		}
	}
	return out
}

// nodeGone reports whether err says a node found a moment ago is gone.
func nodeGone(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "Could not find node with given id") || strings.Contains(msg, "No node with given id found")
}

// navigatedAway reports whether err says the page went away mid-evaluation.
func navigatedAway(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "navigated or closed") || strings.Contains(msg, "Cannot find context") ||
		strings.Contains(msg, "Execution context was destroyed")
}

// Extend returns ctx with its deadline moved to d from now, for a test
// that does more in its browser than Timeout allows (a benchmark's many
// page loads). ctx must come from New.
func Extend(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	s := sessionOf(ctx)
	if s == nil {
		return ctx, func() {}
	}
	ext, cancel := context.WithTimeout(s.browser, d)
	return context.WithValue(ext, sessionKey{}, s), cancel
}
