package view

import (
	"strings"
	"testing"
)

// The envelope proposes the next test where the ceiling (8) and the first
// failure (10) are not adjacent: 9 streams, with the requests it needs and
// the GuideLLM command of the contract's tool version (docs/method.md,
// "The next test", "Confidence").
func TestEnvelopeProposesTheNextTest(t *testing.T) {
	env := sectionIn(printOf(t, sweepReport(t)), "envelope")
	if got := testid(env, "next-test-text"); !strings.Contains(got, "next test: 1 run at 9 concurrent streams") {
		t.Errorf("next test text %q", got)
	}
	if got := testid(env, "next-test-guidellm"); !strings.Contains(got, "guidellm benchmark --target http://localhost:8000") ||
		!strings.Contains(got, "--profile concurrent --rate 9 --max-seconds ") {
		t.Errorf("GuideLLM command %q", got)
	}
	// The rows hold summaries only: the request count rule, 100 for a p95.
	if !strings.Contains(env, `title="the request count rule (five beyond the percentile)`) {
		t.Error("the requests' basis is not shown on demand")
	}
}
