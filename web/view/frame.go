package view

import (
	"strings"

	"github.com/a-h/templ"
)

// StepDef is one page of the report: its name in the address
// (/reports/:id/<Name>; "" is the overview), its title in the step bar and
// as the page's heading, and one line on what it is for.
type StepDef struct {
	Name  string
	Title string
	Lead  string
}

// Steps are the report's pages in their order. The sections each shows
// are the app's section registry's (web/sections.go).
var Steps = []StepDef{
	{Name: "", Title: "Overview", Lead: "The answers, the way through the report and what the exit check still misses."},
	{Name: "contract", Title: "Contract", Lead: "What is tested, on which box, and what counts as success: written and frozen before any result."},
	{Name: "results", Title: "Results", Lead: "The imported benchmark files, the matrix they make, the envelope and admission limit, and the overload test."},
	{Name: "costs", Title: "Costs and quotes", Lead: "What owning the box costs and what the API would cost, each figure with its date and source."},
	{Name: "decision", Title: "Demand and decision", Lead: "The demand scenarios, where owning and buying cross, the fleet, residency and the recommendation."},
	{Name: "evidence", Title: "Evidence", Lead: "Production telemetry, the soak, showback, the public reference rows and the candidates tried."},
	{Name: "review", Title: "Review and history", Lead: "Submit, approve or send back, the comments and every change."},
}

// PathStep is one check of the report's way through (the planner's path),
// placed on the page that shows its section.
type PathStep struct {
	Step  string // the StepDef.Name of the page showing it
	Label string // what is to do, in words
	Done  bool
	Next  bool // the first check not done: the one to do now
}

// BarOf is the step bar of a report: each of steps with its state from
// the checks of path placed on it (done when all hold, next when it holds
// the check to do now, to do otherwise, optional when none is placed on
// it; the overview is always optional), addressed by url, the page
// current marked unless print (the print view shows every step).
func BarOf(steps []StepDef, path []PathStep, current string, print bool, url func(step string) string) StepBar {
	var b StepBar
	for _, st := range steps {
		s := Step{Name: st.Name, Title: st.Title, URL: url(st.Name), Current: !print && current == st.Name}
		if st.Name == "" {
			s.State, s.Detail = StepOptional, "the answers and what is missing"
			b.Steps = append(b.Steps, s)
			continue
		}
		counted, done, next := 0, true, false
		var left []string
		for _, ps := range path {
			if ps.Step != st.Name {
				continue
			}
			counted++
			if !ps.Done {
				done = false
				left = append(left, ps.Label)
			}
			next = next || ps.Next
		}
		switch {
		case counted == 0:
			s.State, s.Detail = StepOptional, "no check depends on it"
		case done:
			s.State, s.Detail = StepDone, "done"
		case next:
			s.State, s.Detail = StepNext, strings.Join(left, "; ")
		default:
			s.State, s.Detail = StepToDo, strings.Join(left, "; ")
		}
		b.Steps = append(b.Steps, s)
	}
	return b
}

// Head is what heads every page of a report, as plain values.
type Head struct {
	Title   string // the report's
	Owner   string
	Updated string // when it last changed, as shown
	// PrintURL is the address of the whole report on one page; "" on
	// that page itself.
	PrintURL string
	// Objective is the contract's objective in words; "" when not written.
	Objective string
	Bar       StepBar
}

// HeadParts are the parts of a page's head the app draws itself, each
// swapped out of band after a change (nil: left out): the version, the
// newest change and a one-time message.
type HeadParts struct {
	Version    templ.Component
	LastChange templ.Component
	Flash      templ.Component
}

// part is c, or nothing for nil.
func part(c templ.Component) templ.Component {
	if c == nil {
		return templ.NopComponent
	}
	return c
}
