package planner

import (
	"strings"
	"testing"
)

func pathIDs(p Path) (done, open []string) {
	for _, s := range p.Steps {
		if s.Done {
			done = append(done, s.ID)
		} else {
			open = append(open, s.ID)
		}
	}
	return done, open
}

// A blank report: nothing done, the contract next.
func TestPathBlank(t *testing.T) {
	p := Compute(Inputs{Workflow: &Workflow{State: WorkflowDraft}}).Path
	if len(p.Steps) != 7 || p.Next != 0 || p.Steps[0].ID != "contract" {
		t.Fatalf("path = %+v", p)
	}
	if done, _ := pathIDs(p); len(done) != 0 {
		t.Errorf("blank report has steps done: %v", done)
	}
	if d := p.Steps[0].Detail; !strings.Contains(d, "Identities and versions: environment missing") || !strings.Contains(d, "more (see the exit check)") {
		t.Errorf("contract step detail = %q", d)
	}
}

// The worked example, frozen and complete: only the submission is left;
// once submitted every step is done.
func TestPathWorkedExample(t *testing.T) {
	in := demoInputs()
	in.Workflow = &Workflow{Frozen: true, State: WorkflowDraft}
	p := Compute(in).Path
	if _, open := pathIDs(p); len(open) != 1 || open[0] != "submit" || p.Steps[p.Next].ID != "submit" {
		t.Fatalf("open steps %v, next %d", open, p.Next)
	}
	if d := p.Steps[p.Next].Detail; d != "every exit-check item holds: ready to submit" {
		t.Errorf("submit detail = %q", d)
	}

	in.Workflow.Frozen = false
	in.Recommendation = nil
	p = Compute(in).Path
	if _, open := pathIDs(p); strings.Join(open, " ") != "freeze recommendation submit" || p.Steps[p.Next].ID != "freeze" {
		t.Errorf("unfrozen, no recommendation: open %v next %d", open, p.Next)
	}

	in.Workflow = &Workflow{Frozen: true, State: WorkflowInReview}
	if p := Compute(in).Path; p.Next != -1 {
		t.Errorf("in review: next = %d (%+v)", p.Next, p.Steps)
	}
}
