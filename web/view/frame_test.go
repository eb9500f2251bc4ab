package view

import (
	"fmt"
	"strings"
	"testing"

	"github.com/a-h/templ"
)

func urlOf7(step string) string {
	if step == "" {
		return "/reports/7"
	}
	return "/reports/7/" + step
}

// A path as a draft has it: the contract written, the results to import
// (the check to do now), the costs and the decision open.
var draftPath = []PathStep{
	{Step: "contract", Label: "Write the contract", Done: true},
	{Step: "contract", Label: "Freeze the contract", Done: true},
	{Step: "results", Label: "Import the results", Next: true},
	{Step: "results", Label: "Judge every row"},
	{Step: "costs", Label: "Type the costs"},
	{Step: "decision", Label: "State the demand"},
}

// The step bar's states come from the checks placed on each step: all
// done is done, the one holding the check to do now is next, the others
// with open checks to do, and a step no check is placed on optional.
func TestBarOfStatesFromThePath(t *testing.T) {
	b := BarOf(Steps, draftPath, "costs", false, urlOf7)
	if len(b.Steps) != len(Steps) {
		t.Fatalf("%d steps in the bar, want %d", len(b.Steps), len(Steps))
	}
	want := map[string]StepState{"": StepOptional, "contract": StepDone, "results": StepNext, "costs": StepToDo,
		"decision": StepToDo, "evidence": StepOptional, "review": StepOptional}
	for _, s := range b.Steps {
		if s.State != want[s.Name] {
			t.Errorf("step %q is %s, want %s", s.Name, s.State, want[s.Name])
		}
		if s.Current != (s.Name == "costs") {
			t.Errorf("step %q current = %v on the costs page", s.Name, s.Current)
		}
		if s.URL != urlOf7(s.Name) {
			t.Errorf("step %q at %s", s.Name, s.URL)
		}
	}
	if n, ok := b.Next(); !ok || n.Name != "results" || n.Detail != "Import the results; Judge every row" {
		t.Errorf("next = %+v, %v", n, ok)
	}
	for _, s := range BarOf(Steps, draftPath, "costs", true, urlOf7).Steps {
		if s.Current {
			t.Errorf("the print view marks step %q as the page shown", s.Name)
		}
	}
	for _, s := range BarOf(Steps, nil, "", false, urlOf7).Steps {
		if s.State != StepOptional {
			t.Errorf("with no path, step %q is %s", s.Name, s.State)
		}
	}
}

// Every step page's frame renders from plain values, without a server or
// a database: the report's head (title, owner, version and the app's
// parts, the link to the print view, the objective in words, the step bar
// with this page marked), the step's heading and lead, its sections in
// order and the way on to the next step, unless this is it. (The overview
// is the head and its sections: TestOverviewHead.)
func TestEveryStepFrameRendersFromPlainValues(t *testing.T) {
	for _, st := range Steps[1:] {
		t.Run(stepKeyOf(st.Name), func(t *testing.T) {
			h := Head{Title: "Support assistant on one H100", Owner: "lead@example.com", Updated: "2026-11-28 14:00",
				PrintURL: "/reports/7/print", Objective: "99 % of requests succeed; 95 % of first tokens within 2 s",
				Bar: BarOf(Steps, draftPath, st.Name, false, urlOf7)}
			parts := HeadParts{Version: templ.Raw(`<span id="head-version">12</span>`),
				LastChange: templ.Raw(`<p id="last-change">Last change: costs saved</p>`)}
			sections := []templ.Component{
				templ.Raw(fmt.Sprintf(`<section id="%s-a">first</section>`, stepKeyOf(st.Name))),
				templ.Raw(fmt.Sprintf(`<section id="%s-b">second</section>`, stepKeyOf(st.Name))),
			}
			html := renderHTML(t, StepPage(h, parts, st, sections))
			for _, want := range []string{
				`<h1 data-testid="report-title">Support assistant on one H100</h1>`,
				`Owner lead@example.com · version <span id="head-version">12</span> · updated 2026-11-28 14:00`,
				`<a href="/reports/7/print" data-testid="print-link">`,
				`data-testid="glossary-link">The words, explained</a>`,
				`<p id="last-change">Last change: costs saved</p>`,
				`data-testid="step-heading">` + st.Title + `</h2>`,
				`<a href="` + urlOf7(st.Name) + `" aria-current="page"`,
			} {
				if !strings.Contains(html, want) {
					t.Errorf("lacks %s", want)
				}
			}
			// Words may link to the glossary: read them as text.
			for _, want := range []string{"99 % of requests succeed; 95 % of first tokens within 2 s.", st.Lead} {
				if !strings.Contains(textOf(html), want) {
					t.Errorf("lacks the words %q", want)
				}
			}
			if strings.Count(html, `aria-current="page"`) != 1 {
				t.Error("not exactly one step marked as the page shown")
			}
			a, b := strings.Index(html, stepKeyOf(st.Name)+"-a"), strings.Index(html, stepKeyOf(st.Name)+"-b")
			if a < 0 || b < a || a < strings.Index(html, "step-heading") {
				t.Error("sections missing, out of order or above the step's heading")
			}
			foot := strings.Contains(html, `data-testid="step-foot">Next step: <a href="/reports/7/results">Results</a>`)
			if foot != (st.Name != "results") {
				t.Errorf("way on to the next step shown = %v on %q", foot, st.Name)
			}
			if foot && strings.Index(html, "step-foot") < b {
				t.Error("the way on is above the sections")
			}
		})
	}
}

// The overview's head marks the overview in the step bar and points at
// the next step.
func TestOverviewHead(t *testing.T) {
	h := Head{Title: "Draft", Owner: "lead@example.com", Updated: "today", PrintURL: "/reports/7/print",
		Bar: BarOf(Steps, draftPath, "", false, urlOf7)}
	html := renderHTML(t, ReportHead(h, HeadParts{}))
	for _, want := range []string{`<a href="/reports/7" aria-current="page"`, `data-testid="step-overview" data-state="optional"`,
		`data-testid="step-next-link">Results</a>`, `print-link`} {
		if !strings.Contains(html, want) {
			t.Errorf("overview head lacks %s", want)
		}
	}
}

// The head of the print view has no link to itself, and a report with no
// objective yet says so; parts the app leaves out are left out.
func TestReportHeadOnThePrintView(t *testing.T) {
	h := Head{Title: "Blank", Owner: "lead@example.com", Updated: "today", Bar: BarOf(Steps, nil, "", true, urlOf7)}
	html := renderHTML(t, ReportHead(h, HeadParts{}))
	if strings.Contains(html, "print-link") {
		t.Error("the print view links to itself")
	}
	if !strings.Contains(html, "not written yet") {
		t.Error("no objective, and the head does not say so")
	}
	if strings.Contains(html, `aria-current`) {
		t.Error("the print view marks a step as the page shown")
	}
}

// textOf is html without its tags (not replaced by spaces, so inline
// markup reads as one phrase: "the <a>soak</a>," is "the soak,"), spaces
// collapsed; readText is the page as blocks of text.
func textOf(html string) string {
	var b strings.Builder
	in := false
	for _, r := range html {
		switch {
		case r == '<':
			in = true
		case r == '>':
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

func stepKeyOf(name string) string {
	if name == "" {
		return "overview"
	}
	return name
}
