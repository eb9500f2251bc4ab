package view

import (
	"strings"
	"testing"

	"capplan/planner"
)

// The overload test's section says when none is recorded, and judges a
// recorded one: refused with 429 and Retry-After, the worker healthy and
// recovered, it passes and says so with what was sent; without
// Retry-After and with a sick worker it fails, with the reasons.
func TestOverloadTestJudged(t *testing.T) {
	v := sweepReport(t)
	if got := testid(sectionIn(printOf(t, v), "overload"), "overload-verdict"); got != "not recorded" {
		t.Errorf("an unrecorded test's verdict is %q, want not recorded", got)
	}
	for _, c := range []struct {
		test planner.OverloadTest
		want []string
	}{
		{planner.OverloadTest{Sent: "20 streams for 60 s", Outcome: planner.OverloadRejected429, RetryAfter: true, WorkerHealthy: true, Recovered: true, Date: "2026-11-20"},
			[]string{`<span class="badge pass" data-testid="overload-verdict">pass</span>`, "excess requests were refused with 429 and Retry-After", "20 streams for 60 s"}},
		{planner.OverloadTest{Sent: "20 streams", Outcome: planner.OverloadRejected429, Recovered: true},
			[]string{`data-testid="overload-verdict">fail`, "429 without Retry-After", "did not stay healthy"}},
	} {
		in := v.In
		ot := c.test
		in.Overload = &ot
		ov := sectionIn(printOf(t, withInputs(v, in)), "overload")
		for _, want := range c.want {
			if !strings.Contains(ov, want) {
				t.Errorf("overload %+v: the section lacks %q", c.test, want)
			}
		}
	}
}
