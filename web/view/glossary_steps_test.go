package view

import (
	"regexp"
	"strings"
	"testing"
)

// On every step page of the demo each term is linked once at most (its
// first use), every link names an entry of the glossary, each step links
// the glossary, and the step pages together link the field's words a
// newcomer meets there.
func TestStepPagesLinkTermsOnFirstUse(t *testing.T) {
	v := demoReport(t)
	link := regexp.MustCompile(`<a href="/glossary#([a-z0-9-]+)" class="term" data-term="([a-z0-9-]+)"`)
	linked := map[string]bool{}
	for _, st := range append(Steps, StepDef{Name: PrintStep}) {
		step := StepKey(st.Name)
		body := glossedStepPage(t, v, st.Name)
		if !strings.Contains(body, `data-testid="glossary-link"`) {
			t.Errorf("%s: the step does not link the glossary", step)
		}
		count := map[string]int{}
		for _, m := range link.FindAllStringSubmatch(body, -1) {
			if m[1] != m[2] {
				t.Errorf("%s: a link to %q marked as %q", step, m[1], m[2])
			}
			if _, ok := GlossaryTerm(m[1]); !ok {
				t.Errorf("%s: links the term %q, which the glossary lacks", step, m[1])
			}
			count[m[1]]++
			linked[m[1]] = true
		}
		for k, n := range count {
			if n > 1 {
				t.Errorf("%s: the term %q linked %d times, want once (its first use)", step, k, n)
			}
		}
	}
	for _, want := range []string{"ttft", "e2e", "envelope", "ceiling", "admission", "retry-after", "crossover",
		"f-local", "v-api", "fleet", "residency", "provider-view", "reference-rows", "soak", "showback",
		"regression-gate", "recommendation-gates"} {
		if !linked[want] {
			t.Errorf("no step page of the demo links %q", want)
		}
	}
}
