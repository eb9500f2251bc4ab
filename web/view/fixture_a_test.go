package view

import (
	"testing"

	"github.com/a-h/templ"

	"capplan/planner"
	"capplan/web/store"
)

// blankReport is the view model of a report just created, seen by its
// lead: nothing typed, nothing imported, a draft not frozen (as
// web/reports gives the planner a new report's workflow), the lead may
// edit everything.
func blankReport() Report {
	return withInputs(Report{}, planner.Inputs{Currency: "EUR", AsOf: "2026-12-07", Workflow: &planner.Workflow{State: planner.WorkflowDraft}})
}

// withInputs is v with in as its inputs and their result, given a stored
// header and an owner's rights when v has none.
func withInputs(v Report, in planner.Inputs) Report {
	if v.R.ID == 0 {
		v.R = store.Report{ID: 3, Title: "Blank", Owner: "lead@example.com", Version: 1}
		v.CanEdit, v.CanEditCosts, v.CanSubmit = true, true, true
		v.Imports = Imports{ReportID: v.R.ID, Version: v.R.Version, CanEdit: true}
	}
	v.In = in
	v.Result = planner.Compute(in)
	return v
}

// glossedStepPage is step of v as the app serves it: the page shell
// starts the page's glossary (WithGlossary), so each term is linked at
// its first use only; stepPageOf renders the step alone.
func glossedStepPage(t *testing.T, v Report, step string) string {
	t.Helper()
	var c templ.Component
	switch step {
	case "":
		c = ReportPage(v)
	case PrintStep:
		v.Print = true
		c = PrintPage(v)
	default:
		st, ok := StepByName(step)
		if !ok {
			t.Fatalf("no step %q", step)
		}
		v.Step = step
		c = ReportStepPage(v, st)
	}
	return renderHTML(t, Glossed(c))
}
