package planner

import (
	"strings"
	"testing"
)

// The worked example (demoInputs): rows 1-10 where 10 fails, so the
// ceiling is 8 streams (3.2 req/s closed loop) and one box holds the
// objective with random arrivals up to 1.53 req/s; the API at 30.00 per
// 1,000 beats self-hosting's 36.92 in the expected scenario.
func TestHeadlineWorkedExample(t *testing.T) {
	in := demoInputs()
	in.Workflow = &Workflow{Frozen: true, State: WorkflowApproved, By: "R. Viewer", At: "2026-11-30"}
	h := Compute(in).Headline

	for _, a := range []HeadlineAnswer{h.Serve, h.Admit, h.Own, h.Decision} {
		if !a.Answered {
			t.Errorf("%s not answered: %s (missing %v)", a.Question, a.Answer, a.Missing)
		}
		if a.Evidence == "" {
			t.Errorf("%s links to no evidence", a.Question)
		}
	}
	if h.Serve.Answer != "Yes: every scenario fits the plan's 1 box." {
		t.Errorf("serve = %q", h.Serve.Answer)
	}
	wantDetails(t, "serve", h.Serve.Details,
		"Demonstrated ceiling: 8 concurrent streams",
		"One box serves at most 1.53 successful in-objective requests a second (5,508 an hour).",
		"Peak: busiest hour 1.389 req/s, 1 box of the plan's 1.")
	if h.Admit.Answer != "Up to 8 requests in flight, 4 more waiting at most 1.4 s; beyond that HTTP 429 with Retry-After 2 s." {
		t.Errorf("admit = %q", h.Admit.Answer)
	}
	if len(h.Admit.Missing) != 0 {
		t.Errorf("admit missing %v with a passing overload test", h.Admit.Missing)
	}
	if h.Own.Answer != "No: in the expected scenario the cheapest API (api-a) costs 30.00 EUR per 1,000 successful requests, self-hosting 36.92 EUR." {
		t.Errorf("own = %q", h.Own.Answer)
	}
	wantDetails(t, "own", h.Own.Details,
		"Expected (80,000 requests a month): self-hosted 36.92 EUR, cheapest API (api-a) 30.00 EUR per 1,000: the API cheaper.",
		"Peak (100,000 requests a month): self-hosted 29.53 EUR, cheapest API (api-a) 30.00 EUR per 1,000: self-hosting cheaper.",
		"Crossover: self-hosting breaks even with api-a at 98,444 requests a month")
	if h.Decision.Answer != "Keep self-hosting." {
		t.Errorf("decision = %q", h.Decision.Answer)
	}
	wantDetails(t, "decision", h.Decision.Details, "Owner: A. Lead.", "Review date: 2027-02-01.", "Approved by R. Viewer on 2026-11-30.")
	if h.Line != "Serves: yes · admits 8 in flight · owning cheaper: no · keep self-hosting" {
		t.Errorf("line = %q", h.Line)
	}
}

// A scenario beyond the plan answers "No" and names it.
func TestHeadlineBeyondPlan(t *testing.T) {
	in := demoInputs()
	in.Scenarios[2].MonthlyRequests = 2_000_000 // 27.8 req/s in the busy hour: 19 boxes of 1.53
	h := Compute(in).Headline
	if !h.Serve.Answered || h.Serve.Answer != "No: the peak scenario needs 19 boxes; the plan allows 1." {
		t.Errorf("serve = %q", h.Serve.Answer)
	}
	if !strings.HasPrefix(h.Line, "Serves: no ·") {
		t.Errorf("line = %q", h.Line)
	}
}

// A blank report answers nothing and says what is missing, each with the
// section that takes it.
func TestHeadlineBlank(t *testing.T) {
	h := Compute(Inputs{Workflow: &Workflow{State: WorkflowDraft}}).Headline
	for _, a := range []HeadlineAnswer{h.Serve, h.Admit, h.Own, h.Decision} {
		if a.Answered {
			t.Errorf("%s answered on a blank report: %s", a.Question, a.Answer)
		}
		if !strings.HasPrefix(a.Answer, "Not yet: ") {
			t.Errorf("%s = %q", a.Question, a.Answer)
		}
		if len(a.Missing) == 0 {
			t.Errorf("%s names nothing missing", a.Question)
		}
		for _, m := range a.Missing {
			if m.What == "" || m.Section == "" {
				t.Errorf("%s: missing %+v lacks words or a section", a.Question, m)
			}
		}
	}
	wantMissing(t, h.Serve, "contract", "the test contract is not frozen")
	wantMissing(t, h.Serve, "imports", "no load-test results imported")
	wantMissing(t, h.Serve, "scenarios", "no demand scenarios")
	wantMissing(t, h.Own, "costs", "self-hosted costs not typed (an untyped cost counts as zero): equipment")
	wantMissing(t, h.Own, "costs", "no API quote to compare: finance adds quotes")
	wantMissing(t, h.Decision, "recommendation", "no recommendation")
	wantDetails(t, "decision", h.Decision.Details, "Draft: ")
	if h.Line != "Serves: not yet · admits: not yet · owning cheaper: not yet · no recommendation" {
		t.Errorf("line = %q", h.Line)
	}
}

func wantDetails(t *testing.T, what string, got []string, prefixes ...string) {
	t.Helper()
	for _, p := range prefixes {
		found := false
		for _, g := range got {
			found = found || strings.HasPrefix(g, p)
		}
		if !found {
			t.Errorf("%s details lack %q: %q", what, p, got)
		}
	}
}

func wantMissing(t *testing.T, a HeadlineAnswer, section, prefix string) {
	t.Helper()
	for _, m := range a.Missing {
		if m.Section == section && strings.HasPrefix(m.What, prefix) {
			return
		}
	}
	t.Errorf("%s: no missing %q in %s: %+v", a.Question, prefix, section, a.Missing)
}
