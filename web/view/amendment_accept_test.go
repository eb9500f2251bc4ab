package view

import (
	"strings"
	"testing"

	"capplan/planner"
	"capplan/web/store"
)

// inReviewFor is v sent for review, as its reviewer sees it: the contract
// c in force after amendment a, made after the results.
func inReviewFor(v Report, c planner.Contract, a planner.Amendment) Report {
	a.ResultsExisted, a.Who, a.When = true, "A. Lead", "2026-12-07T10:00:00Z"
	v.R.Contract = c
	v.In.Contract = c
	v.In.Amendments = append(v.In.Amendments, a)
	v.In.Workflow = &planner.Workflow{Frozen: true, State: planner.WorkflowInReview}
	v.Review.State = store.StateInReview
	v.CanEdit, v.CanEditCosts, v.CanSubmit, v.CanWithdraw, v.CanRevise = false, false, false, false, false
	v.CanReview = true
	v.Result = planner.Compute(v.In)
	return v
}

// After results the demo's workload is amended (more output tokens): the
// contract and the matrix mark it, the exit check fails its item, and the
// reviewer is offered the acceptance in writing.
func TestAmendedWorkloadAsksTheReviewerToAccept(t *testing.T) {
	v := demoReport(t)
	c := v.In.Contract
	old := c.Workload.String()
	c.Workload.OutputTokens += 10
	v = inReviewFor(v, c, planner.Amendment{Field: "workload", OldValue: old, NewValue: c.Workload.String(), Reason: "production answers run longer"})
	page := stepPageOf(t, v, PrintStep)
	for _, want := range []string{`data-testid="accept-amendment"`, `data-testid="exit-amended_after_results" data-pass="false"`, `data-testid="amended-workload"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
}

// After results the demo's end-to-end bound is raised from 15 s to 20 s
// (so 10 streams passes): the exit check fails its item and the reviewer
// is offered the acceptance of the loosening in writing.
func TestLoosenedObjectiveAsksTheReviewerToAccept(t *testing.T) {
	v := demoReport(t)
	c := v.In.Contract
	old := c.Objective.String()
	c.Objective.E2EMax = planner.F(20)
	v = inReviewFor(v, c, planner.Amendment{Field: "objective", OldValue: old, NewValue: c.Objective.String(), Reason: "10 streams misses by a second", Loosened: true})
	page := stepPageOf(t, v, PrintStep)
	if !strings.Contains(page, `data-testid="accept-loosening"`) || !strings.Contains(page, `data-testid="exit-objective_loosened" data-pass="false"`) {
		t.Error("no acceptance form or the item passes")
	}
}
