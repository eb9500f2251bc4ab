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
	// Anchor is the section, or anchor in one, where what is left is
	// done now (Section when nothing narrower applies); Row is set when
	// it is one row's figures (RowNeed), the row's key.
	Anchor string `json:"anchor"`
	Row    string `json:"row,omitempty"`
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
	// An item failing for want of another step's input is that step's to
	// do, not its own step's (pathOwner).
	owned := map[string][]ExitItem{}
	for _, s := range pathSteps {
		for _, id := range s.items {
			if it, ok := byID[id]; ok && !it.Pass {
				o := pathOwner(id, s.id, in, r)
				owned[o] = append(owned[o], it)
			}
		}
	}
	p := Path{Next: -1}
	for _, s := range pathSteps {
		st := PathStep{ID: s.id, Label: s.label, Section: s.section, Anchor: s.section, Done: true}
		var left []string
		for _, it := range owned[s.id] {
			st.Done = false
			left = append(left, it.Label+": "+it.Detail)
		}
		if s.id == "results" && !st.Done {
			st.Label, st.Anchor, st.Row = resultsNext(in, r, owned[s.id])
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

// pathOwner is the path step that must act for a failing exit item of
// step own: the costs per 1,000 and the crossover wait for an API quote
// to compare (the costs step), and demand scenarios all entered whose
// busy hour is beyond the plan wait for the recommendation to change the
// plan or say why it stands.
func pathOwner(id, own string, in Inputs, r *Result) string {
	switch id {
	case "cost_per_1000", "crossover":
		if !anyCompared(r) {
			return "costs"
		}
	case "test_date":
		// The day the test ran is known once it has run: a frozen
		// contract waits for it with the results, not as unwritten.
		if in.Workflow != nil && in.Workflow.Frozen {
			return "results"
		}
	case "scenarios":
		names := map[string]bool{}
		for _, s := range in.Scenarios {
			names[s.Name] = true
		}
		if names["low"] && names["expected"] && names["peak"] {
			return "recommendation"
		}
	}
	return own
}

// anyCompared is true when a quote can be compared (none left out).
func anyCompared(r *Result) bool {
	for _, q := range r.Quotes {
		if q.Excluded == "" {
			return true
		}
	}
	return false
}

// resultsNext is the results step's next action, from its first failing
// item (fails, in the step's order): import the results while none are,
// else what the imported rows still lack, pointing at the row when it is
// one row's figures.
func resultsNext(in Inputs, r *Result, fails []ExitItem) (label, anchor, row string) {
	if len(r.Matrix) == 0 {
		return "Import the results", "imports", ""
	}
	failing := map[string]bool{}
	for _, it := range fails {
		failing[it.ID] = true
	}
	if failing["rows"] {
		if len(in.Contract.Loads) == 0 {
			return "Plan the load rows in the contract", "contract", ""
		}
		return "Import the planned rows still missing, or amend the plan with a reason", "plan-amend", ""
	}
	if failing["row_figures"] || failing["ceiling_memory"] {
		if n := FindRowNeed(r, in.Contract.DeviceMemoryGiB != nil); n != nil {
			return n.Action, "matrix", n.Row
		}
	}
	switch {
	case failing["row_figures"]:
		return "Import rows with every figure the objective needs", "matrix", ""
	case failing["counted_rows"]:
		return "Import rows that match the contract", "matrix", ""
	case failing["ceiling_memory"] && r.Envelope.CeilingRow == nil, failing["admission"] && r.Envelope.Ceiling == nil:
		return "Find a load that passes: " + r.Envelope.Text, "matrix", ""
	case failing["ceiling_memory"]:
		return "Record memory and OOM at the ceiling row", "matrix", ""
	case failing["admission"]:
		return "Set the admission limit", "admission", ""
	case failing["overload"]:
		return "Record the overload test", "overload", ""
	case failing["regression_gate"]:
		return "Record the regression gate of the model chosen", "candidates", ""
	case failing["test_date"]:
		return "Record the day the test ran in the contract", "contract", ""
	}
	return "Complete the results", "matrix", ""
}
