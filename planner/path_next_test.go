package planner

import (
	"strings"
	"testing"
)

// noHeadroom is the worked example with no row's memory recorded, so every
// row is "not judged: missing memory headroom".
func noHeadroom() Inputs {
	in := demoInputs()
	in.Workflow = &Workflow{Frozen: true, State: WorkflowDraft}
	in.Rows = append([]Row(nil), in.Rows...)
	for i := range in.Rows {
		in.Rows[i].Observed.Headroom, in.Rows[i].Observed.PeakMemoryGiB = nil, nil
		in.Rows[i].Source.SHA256 = "sweep"
	}
	return in
}

func step(p Path, id string) PathStep {
	for _, s := range p.Steps {
		if s.ID == id {
			return s
		}
	}
	return PathStep{}
}

// Rows lacking the headroom the objective needs: the headline and the path
// name the row and the figure, and point at the row's figures, not at the
// matrix or the imports.
func TestHeadroomBlockedPointsAtTheRow(t *testing.T) {
	in := noHeadroom()
	r := Compute(in)
	if r.Envelope.Ceiling != nil {
		t.Fatalf("envelope = %q", r.Envelope.Text)
	}
	low := RowKey(in.Rows[0]) // load 1, the lowest
	serve := r.Headline.Serve
	if len(serve.Missing) == 0 || serve.Missing[0].Row != low || serve.Missing[0].Section != "matrix" {
		t.Fatalf("serve missing = %+v, want the row %s first", serve.Missing, low)
	}
	for _, want := range []string{"type the memory headroom (or the peak memory) of load 1 concurrent stream", "c.json row 0", "or import the GPU log", "3 more counted rows lack it"} {
		if !strings.Contains(serve.Answer, want) {
			t.Errorf("serve answer %q lacks %q", serve.Answer, want)
		}
	}
	if w := serve.Missing[0].Where; w != "the figures of load 1 concurrent stream" {
		t.Errorf("where = %q", w)
	}
	for name, a := range map[string]HeadlineAnswer{"admit": r.Headline.Admit, "own": r.Headline.Own} {
		if len(a.Missing) == 0 || a.Missing[0].Row != low {
			t.Errorf("%s missing = %+v, want the row first", name, a.Missing)
		}
	}
	res := step(r.Path, "results")
	if r.Path.Steps[r.Path.Next].ID != "results" {
		t.Fatalf("next = %+v", r.Path.Steps[r.Path.Next])
	}
	if res.Label != "Type the memory headroom of load 1 concurrent stream" || res.Row != low || res.Anchor != "matrix" || res.Section != "imports" {
		t.Errorf("results step = %+v", res)
	}

	// Without the device memory a peak would not do: the sentence asks
	// for the headroom alone.
	in.Contract.DeviceMemoryGiB = nil
	if a := Compute(in).Headline.Serve.Answer; strings.Contains(a, "peak memory") || !strings.Contains(a, "type the memory headroom of load 1") {
		t.Errorf("without a device memory: %q", a)
	}

	// Once load 1 has its headroom the next row is named; once all have
	// it the row need is gone and the results step is done.
	in = noHeadroom()
	in.Rows[0].Observed.Headroom = F(0.2)
	if res := step(Compute(in).Path, "results"); res.Row != RowKey(in.Rows[1]) || !strings.Contains(res.Label, "load 2 concurrent streams") {
		t.Errorf("after load 1: %+v", res)
	}
	for i := range in.Rows {
		in.Rows[i].Observed.PeakMemoryGiB = F(64) // derived: 20 %
	}
	r = Compute(in)
	if res := step(r.Path, "results"); !res.Done || res.Row != "" {
		t.Errorf("every row's peak typed: results step %+v", res)
	}
	if FindRowNeed(&r, true) != nil {
		t.Errorf("need left: %+v", FindRowNeed(&r, true))
	}
}

// The ceiling row without a record of OOM or restart: the path points at
// that row to record it.
func TestCeilingOOMRecordPointsAtTheRow(t *testing.T) {
	in := demoInputs()
	in.Workflow = &Workflow{Frozen: true, State: WorkflowDraft}
	in.Rows = append([]Row(nil), in.Rows...)
	in.Rows[3].Observed.OOMChecked = false // load 8, the ceiling
	in.Rows[3].Source.SHA256 = "sweep"
	r := Compute(in)
	res := step(r.Path, "results")
	if res.Done || res.Row != RowKey(in.Rows[3]) || res.Label != "Record whether load 8 concurrent streams saw an OOM or a restart" {
		t.Errorf("results step = %+v", res)
	}
}

// The path's states are true: costs and scenarios entered show done while
// the results still wait for a figure; scenarios entered show done while
// no API quote is attached (that is the costs step's to do); rows all
// imported never read "Import the results".
func TestPathStatesTrue(t *testing.T) {
	in := noHeadroom()
	p := Compute(in).Path
	for _, id := range []string{"contract", "freeze", "costs", "scenarios", "recommendation"} {
		if s := step(p, id); !s.Done {
			t.Errorf("%s not done: %s", id, s.Detail)
		}
	}
	if s := step(p, "results"); s.Done || s.Label == "Import the results" {
		t.Errorf("results step = %+v", s)
	}

	// No quote attached: the costs step is to do, the scenarios (entered)
	// done.
	in = demoInputs()
	in.Workflow = &Workflow{Frozen: true, State: WorkflowDraft}
	in.Quotes = nil
	p = Compute(in).Path
	if s := step(p, "scenarios"); !s.Done {
		t.Errorf("scenarios entered, no quote: scenarios step %+v", s)
	}
	if s := step(p, "costs"); s.Done || !strings.Contains(s.Detail, "no API quote") {
		t.Errorf("no quote: costs step %+v", s)
	}
	if p.Steps[p.Next].ID != "costs" {
		t.Errorf("next = %s", p.Steps[p.Next].ID)
	}

	// A scenario missing: the scenarios step is to do.
	in = demoInputs()
	in.Workflow = &Workflow{Frozen: true, State: WorkflowDraft}
	in.Scenarios = in.Scenarios[:2]
	if s := step(Compute(in).Path, "scenarios"); s.Done || !strings.Contains(s.Detail, "peak scenario missing") {
		t.Errorf("peak missing: scenarios step %+v", s)
	}

	// Every row imported and judged, no candidate's regression gate: the
	// results step names the gate, not the import.
	in = demoInputs()
	in.Workflow = &Workflow{Frozen: true, State: WorkflowDraft}
	in.Candidates = nil
	if s := step(Compute(in).Path, "results"); s.Done || s.Label != "Record the regression gate of the model chosen" || s.Anchor != "candidates" {
		t.Errorf("no gate: results step %+v", s)
	}

	// A planned row missing: import it or amend the plan.
	in = demoInputs()
	in.Workflow = &Workflow{Frozen: true, State: WorkflowDraft}
	in.Contract.Loads = append(append([]float64(nil), in.Contract.Loads...), 16)
	if s := step(Compute(in).Path, "results"); s.Done || !strings.Contains(s.Label, "amend the plan") {
		t.Errorf("planned row missing: results step %+v", s)
	}

	// Frozen without the day the test ran: the contract is written (the
	// freeze needs no test date); the date waits with the results, after
	// the import.
	in = demoInputs()
	in.Workflow = &Workflow{Frozen: true, State: WorkflowDraft}
	in.Contract.TestDate = ""
	p = Compute(in).Path
	if s := step(p, "contract"); !s.Done {
		t.Errorf("frozen, no test date: contract step %+v", s)
	}
	if s := step(p, "results"); s.Done || s.Label != "Record the day the test ran in the contract" || s.Anchor != "contract" {
		t.Errorf("frozen, no test date: results step %+v", s)
	}
	in.Rows = nil
	if s := step(Compute(in).Path, "results"); s.Label != "Import the results" {
		t.Errorf("frozen, no test date, nothing imported: results step %+v", s)
	}
	// Not frozen: the date is part of writing the contract.
	in = demoInputs()
	in.Workflow = &Workflow{State: WorkflowDraft}
	in.Contract.TestDate = ""
	if s := step(Compute(in).Path, "contract"); s.Done {
		t.Errorf("not frozen, no test date: contract step %+v", s)
	}

	// Nothing imported: import the results.
	in = demoInputs()
	in.Workflow = &Workflow{Frozen: true, State: WorkflowDraft}
	in.Rows = nil
	if s := step(Compute(in).Path, "results"); s.Label != "Import the results" || s.Anchor != "imports" {
		t.Errorf("no rows: results step %+v", s)
	}
}
