package web

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/store"
)

// candidateForm reads a candidate and its regression gate record. The gate
// is recorded when any of its fields is filled in.
func candidateForm(r *formReader) planner.Candidate {
	c := planner.Candidate{
		Name:            r.str("name"),
		Baseline:        r.check("baseline"),
		Model:           r.str("model"),
		Artifact:        r.str("artifact"),
		ArtifactHash:    r.str("artifact_hash"),
		Quantization:    r.str("quantization"),
		ArtifactSizeGiB: r.float("artifact_size_gib"),
		LoadedMemoryGiB: r.float("loaded_memory_gib"),
		ColdStartS:      r.float("cold_start_s"),
		Notes:           r.str("notes"),
	}
	gate, cases, outcome, date := r.str("gate.gate"), r.integer("gate.cases"), r.str("gate.pass"), r.str("gate.date")
	if gate != "" || cases != nil || outcome != "" || date != "" {
		g := &planner.RegressionGate{Gate: gate, Date: date, Pass: outcome == "pass"}
		if cases != nil {
			g.Cases = *cases
		}
		if outcome != "pass" && outcome != "fail" {
			r.errs["gate.pass"] = "say whether the candidate passed or failed the gate"
		}
		c.Gate = g
	}
	r.domain(c.Validate(), nil)
	return c
}

// candidateAdd adds a candidate to the report.
func (s *Server) candidateAdd(c echo.Context) error { return s.candidateSave(c, 0) }

// candidateEdit replaces one candidate.
func (s *Server) candidateEdit(c echo.Context) error {
	cid, err := idParam(c, "cid")
	if err != nil {
		return err
	}
	return s.candidateSave(c, cid)
}

func (s *Server) candidateSave(c echo.Context, cid int64) error {
	r, err := s.editableReport(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	var prev planner.Candidate
	if cid != 0 {
		cur, err := s.candidate(c, r.ID, cid)
		if err != nil {
			return err
		}
		prev = cur.Candidate
	}
	form, err := c.FormParams()
	if err != nil {
		return err
	}
	fr := newFormReader(form)
	next := candidateForm(fr)
	key := "new"
	if cid != 0 {
		key = itoa64(cid)
	}
	f := sectionForm{Key: key, Form: form, Errs: fr.errs}
	if len(fr.errs) > 0 {
		return s.sectionAnswer(c, http.StatusUnprocessableEntity, "candidates", candidatesFor, f)
	}
	action := "candidate " + next.Name + " added"
	if cid != 0 {
		action = "candidate " + next.Name + " edited"
	}
	e := s.historyEdit(c, r, action, "candidates", prev, next)
	_, err = s.store.SaveCandidate(ctx, e, cid, next)
	var ie *store.InputError
	if errors.As(err, &ie) {
		f.Errs[ie.Field] = ie.Msg
		return s.sectionAnswer(c, http.StatusUnprocessableEntity, "candidates", candidatesFor, f)
	}
	return s.saveAnswer(c, r, err, "candidates", candidatesFor, f, candidatesSwap)
}

// candidateRemove removes a candidate without imports.
func (s *Server) candidateRemove(c echo.Context) error {
	r, err := s.editableReport(c)
	if err != nil {
		return err
	}
	cid, err := idParam(c, "cid")
	if err != nil {
		return err
	}
	cur, err := s.candidate(c, r.ID, cid)
	if err != nil {
		return err
	}
	e := s.historyEdit(c, r, "candidate "+cur.Name+" removed", "candidates", cur.Candidate, nil)
	err = s.store.RemoveCandidate(c.Request().Context(), e, cid)
	f := sectionForm{Key: itoa64(cid)}
	var ie *store.InputError
	if errors.As(err, &ie) {
		f.Form, f.Errs = url.Values{}, formErrors{ie.Field: ie.Msg}
		return s.sectionAnswer(c, http.StatusUnprocessableEntity, "candidates", candidatesFor, f)
	}
	return s.saveAnswer(c, r, err, "candidates", candidatesFor, f, candidatesSwap)
}

// candidate finds one of the report's candidates.
func (s *Server) candidate(c echo.Context, reportID, cid int64) (store.Candidate, error) {
	cs, err := s.store.Candidates(c.Request().Context(), reportID)
	if err != nil {
		return store.Candidate{}, err
	}
	for _, cd := range cs {
		if cd.ID == cid {
			return cd, nil
		}
	}
	return store.Candidate{}, echo.NewHTTPError(http.StatusNotFound, "No such candidate in this report.")
}

// candidatesFor is the candidates section with a form state.
func candidatesFor(v reportView, f sectionForm) templ.Component {
	return candidatesSection(v, f, false)
}

// candidateResult is the comparison entry of a stored candidate.
func (v reportView) candidateResult(name string) *planner.CandidateResult {
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

// loadCandidates puts the report's stored candidates (with their ids) in
// the view; their figures are in v.Result.Candidates.
func (s *Server) loadCandidates(c echo.Context, v *reportView) error {
	var err error
	v.Candidates, err = s.store.Candidates(c.Request().Context(), v.R.ID)
	return err
}
