package view

import (
	"html"
	"strings"
	"testing"

	"capplan/planner"
)

// The demo's headline on the page is the planner's (planner.Headline, the
// one the JSON API, the list and the workbook read too): each answer in a
// <strong> with its evidence link to a section the page holds, above
// everything else on the report.
func TestHeadlineShowsThePlannersAnswers(t *testing.T) {
	v := demoReport(t)
	h := v.Result.Headline
	answers := map[string]planner.HeadlineAnswer{"serve": h.Serve, "admit": h.Admit, "own": h.Own, "decision": h.Decision}
	page := stepPageOf(t, v, PrintStep)
	for name, a := range answers {
		if !a.Answered || a.Answer == "" {
			t.Errorf("demo: %s not answered: %+v", name, a)
		}
		if got := html.UnescapeString(testid(page, "headline-"+name+"-answer")); got != "" {
			t.Errorf("headline %s answer is not in a <strong>: %q", name, got)
		}
		if !strings.Contains(html.UnescapeString(page), "<strong>"+a.Answer+"</strong>") {
			t.Errorf("page lacks the %s answer %q", name, a.Answer)
		}
		if !strings.Contains(page, `href="#`+a.Evidence+`" data-testid="headline-`+name+`-evidence"`) {
			t.Errorf("headline %s does not link to #%s", name, a.Evidence)
		}
		if !strings.Contains(page, `id="`+a.Evidence+`"`) {
			t.Errorf("headline %s links to #%s, which the page lacks", name, a.Evidence)
		}
	}
	if i, j := strings.Index(page, `data-testid="headline"`), strings.Index(page, `id="exitcheck"`); i < 0 || i > j {
		t.Errorf("the headline is not above the exit check (%d, %d)", i, j)
	}
}

// A new report's whole page answers nothing yet and says, for each
// answer, what is missing with a link to the section where it is entered.
func TestHeadlineBlankReport(t *testing.T) {
	page := stepPageOf(t, blankReport(), PrintStep)
	text := html.UnescapeString(page)
	for _, name := range []string{"serve", "admit", "own", "decision"} {
		if !strings.Contains(page, `data-testid="headline-`+name+`" data-answered="false"`) {
			t.Errorf("blank report: %s is not marked unanswered", name)
		}
		if !strings.Contains(page, `data-testid="headline-`+name+`-missing"`) {
			t.Errorf("blank report: %s names nothing missing", name)
		}
	}
	for _, want := range []string{
		`The test contract is not frozen: freeze it before importing results. <a href="#contract">Go to Test contract</a>`,
		`No load-test results imported: import the benchmark files. <a href="#imports">Go to Imported results</a>`,
		`No demand scenarios: enter low, expected and peak demand with their busiest hour. <a href="#scenarios">Go to Demand scenarios</a>`,
		`<a href="#costs">Go to Costs</a>`,
		`<a href="#recommendation">Go to Recommendation</a>`,
		"What is missing:",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("blank report lacks %q", want)
		}
	}
	for _, anchor := range []string{"contract", "imports", "scenarios", "costs", "recommendation"} {
		if !strings.Contains(page, `id="`+anchor+`"`) {
			t.Errorf("the headline links to #%s, which the page lacks", anchor)
		}
	}
}
