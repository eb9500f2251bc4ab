package planner

import (
	"fmt"
	"strings"
)

// Path is the way through a new report (docs/method.md, "Path"): the steps
// in the order a lead takes them, each done or not, and the next one.
type Path struct {
	Steps []PathStep `json:"steps"`
	// Next is the index in Steps of the first step not done; -1 when every
	// step is done.
	Next int `json:"next"`
}

// PathStep is one step of the path: done when the exit-check items it
// stands for hold (or the workflow has moved past it), with what is left
// to do in Detail and the section where it is done.
type PathStep struct {
	ID      string `json:"id"`
	Label   string `json:"label"`
	Done    bool   `json:"done"`
	Detail  string `json:"detail"`
	Section string `json:"section"`
}

// pathSteps are the steps and the exit-check items each stands for.
var pathSteps = []struct {
	id, label, section string
	items              []string
}{
	{"contract", "Write the test contract", "contract", []string{"identities", "test_date", "workload", "stop_limits", "objective"}},
	{"freeze", "Freeze the contract", "contract", nil},
	{"results", "Import the results", "imports", []string{"rows", "row_figures", "counted_rows", "ceiling_memory", "admission", "overload", "regression_gate"}},
	{"costs", "Enter costs and attach quotes", "costs", []string{"cost_categories", "evidence_dates", "currency"}},
	{"scenarios", "Enter the demand scenarios", "scenarios", []string{"scenarios", "cost_per_1000", "crossover"}},
	{"recommendation", "Write the recommendation", "recommendation", []string{"recommendation", "gates", "decision_justified"}},
	{"submit", "Submit for review", "review", nil},
}

// BuildPath lays out the path of report r (its exit check computed) with
// the workflow of in.
func BuildPath(in Inputs, r *Result) Path {
	byID := map[string]ExitItem{}
	for _, it := range r.ExitCheck {
		byID[it.ID] = it
	}
	w := in.Workflow
	if w == nil {
		w = &Workflow{}
	}
	submitted := w.State == WorkflowInReview || w.State == WorkflowApproved
	p := Path{Next: -1}
	for _, s := range pathSteps {
		st := PathStep{ID: s.id, Label: s.label, Section: s.section, Done: true}
		var left []string
		for _, id := range s.items {
			if it, ok := byID[id]; ok && !it.Pass {
				st.Done = false
				left = append(left, it.Label+": "+it.Detail)
			}
		}
		switch s.id {
		case "freeze":
			st.Done = w.Frozen
			if !st.Done {
				left = append(left, "freeze the contract before importing results; a change after it is an amendment with a reason")
			}
		case "submit":
			st.Done = submitted
			switch {
			case w.State == WorkflowApproved:
				st.Detail = "approved"
			case submitted:
				st.Detail = "in review"
			case !r.ExitPass:
				left = append(left, fmt.Sprintf("%d of %d exit-check %s", countFails(r.ExitCheck), len(r.ExitCheck), plural(countFails(r.ExitCheck), "item fails", "items fail")))
			default:
				st.Detail = "every exit-check item holds: ready to submit"
			}
		}
		if len(left) > 2 {
			left = append(left[:2], fmt.Sprintf("and %d more (see the exit check)", len(left)-2))
		}
		if len(left) > 0 {
			st.Detail = strings.Join(left, "; ")
		}
		if st.Done && st.Detail == "" {
			st.Detail = "done"
		}
		// A step the workflow has moved past counts as done.
		if submitted {
			st.Done = true
		}
		if !st.Done && p.Next < 0 {
			p.Next = len(p.Steps)
		}
		p.Steps = append(p.Steps, st)
	}
	return p
}

func countFails(items []ExitItem) int {
	n := 0
	for _, it := range items {
		if !it.Pass {
			n++
		}
	}
	return n
}
