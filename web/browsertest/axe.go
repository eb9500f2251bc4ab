package browsertest

import (
	"context"
	_ "embed"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// axeSource is axe-core (npm axe-core 4.14.1, MPL-2.0: testdata/axe/LICENSE),
// kept with the test harness only: the app never serves it.
//
//go:embed testdata/axe/axe.min.js
var axeSource string

// AxeViolation is one axe-core rule the page breaks, with the elements
// that break it.
type AxeViolation struct {
	ID      string   `json:"id"`
	Impact  string   `json:"impact"`
	Help    string   `json:"help"`
	Targets []string `json:"targets"`
}

func (v AxeViolation) String() string {
	return fmt.Sprintf("%s (%s): %s at %s", v.ID, v.Impact, v.Help, strings.Join(v.Targets, ", "))
}

// axeRun runs axe-core over the whole document against WCAG 2.x A and AA
// and best practice, and keeps the serious and critical violations.
const axeRun = `(async () => {
  const r = await axe.run(document, {
    runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] },
    resultTypes: ["violations"],
  });
  return r.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) }));
})()`

// Axe runs axe-core in the test's page as it stands, every part of it laid
// out (see RenderAll), and returns its serious and critical violations. It
// loads axe-core into the page first (through the DevTools protocol, so the
// page's script policy does not apply).
func Axe(ctx context.Context) ([]AxeViolation, error) {
	undo, err := RenderAll(ctx)
	defer undo()
	if err != nil {
		return nil, err
	}
	loaded, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`typeof axe !== "undefined"`))
	if err != nil {
		return nil, err
	}
	if !loaded {
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](axeSource+";void 0")); err != nil {
			return nil, fmt.Errorf("loading axe-core: %w", err)
		}
	}
	return chromedp.Run(ctx, chromedp.Evaluate[[]AxeViolation](axeRun, chromedp.EvalAwaitPromise))
}

// CheckAxe fails the test for every serious or critical axe-core violation
// on the page, naming the page (what the step was) and where.
func CheckAxe(ctx context.Context, t testing.TB, page string) {
	t.Helper()
	vs, err := Axe(ctx)
	if err != nil {
		t.Errorf("axe on %s: %v", page, err)
		return
	}
	for _, v := range vs {
		t.Errorf("axe on %s: %s", page, v)
	}
}
