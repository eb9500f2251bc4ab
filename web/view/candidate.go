package view

import (
	"capplan/planner"
	"capplan/web/store"
)

// candidateResult is the comparison entry of a stored candidate.
func (v Report) candidateResult(name string) *planner.CandidateResult {
	for i, cr := range v.Result.Candidates.Candidates {
		if cr.Name == name {
			return &v.Result.Candidates.Candidates[i]
		}
	}
	return nil
}

// comparedCandidates are the gate-passing candidates, side by side.
func comparedCandidates(cmp planner.Comparison) []planner.CandidateResult {
	var out []planner.CandidateResult
	for _, cr := range cmp.Candidates {
		if cr.Compared {
			out = append(out, cr)
		}
	}
	return out
}

// gateText is a gate record in words.
func gateText(g *planner.RegressionGate) string {
	if g == nil {
		return "no gate recorded"
	}
	outcome := "failed"
	if g.Pass {
		outcome = "passed"
	}
	return sprintf("%s %s (%d cases, %s)", outcome, g.Gate, g.Cases, g.Date)
}

// gatePassField is the gate's outcome for the form's select.
func gatePassField(g *planner.RegressionGate) string {
	switch {
	case g == nil:
		return ""
	case g.Pass:
		return "pass"
	}
	return "fail"
}

func gateCasesField(g *planner.RegressionGate) string {
	if g == nil || g.Cases == 0 {
		return ""
	}
	return itoa(g.Cases)
}

func gateField(g *planner.RegressionGate, name string) string {
	if g == nil {
		return ""
	}
	if name == "date" {
		return g.Date
	}
	return g.Gate
}

// candidateAction is where a candidate form posts: the list for a new one.
func candidateAction(reportID int64, key string) string {
	if key == "new" {
		return sprintf("/reports/%d/candidates", reportID)
	}
	return sprintf("/reports/%d/candidates/%s", reportID, key)
}

// envelopeClass colours an envelope by its state.
func envelopeClass(e planner.Envelope) string {
	switch e.State {
	case planner.EnvelopeCeiling:
		return "pass"
	case planner.EnvelopeLowerBound:
		return "warn"
	}
	return "fail"
}

// candidateRows are the judged rows imported into the candidate itself
// (a baseline judged on the report's matrix has none).
func (v Report) candidateRows(cd store.Candidate) []idRow {
	cr := v.candidateResult(cd.Name)
	if cr == nil {
		return nil
	}
	var out []idRow
	for _, rr := range cr.Matrix {
		if id := v.rowIDIn(rr, cd.ID); id != 0 {
			out = append(out, idRow{ID: id, RR: rr})
		}
	}
	return out
}

// openAny reports whether the form of one of rows is to be shown open.
func (f SectionForm) openAny(rows []idRow) bool {
	for _, r := range rows {
		if f.open(itoa64(r.ID)) {
			return true
		}
	}
	return false
}

// envelopeWord names an envelope's state for a badge.
func envelopeWord(e planner.Envelope) string {
	switch e.State {
	case planner.EnvelopeCeiling:
		return "ceiling"
	case planner.EnvelopeLowerBound:
		return "lower bound"
	}
	return "no envelope"
}

// CandidateUpload is the outcome of an upload into a candidate, shown in
// its card: what was added, or why nothing was.
type CandidateUpload struct {
	CandidateID int64
	OK, Err     string
	Dup         *store.Import
}

// idRow is a judged row with its stored id.
type idRow struct {
	ID int64
	RR planner.RowResult
}
