package web

import (
	"context"
	"fmt"
	"net/http"

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
	key, action := "new", "candidate "+next.Name+" added"
	if cid != 0 {
		key, action = itoa64(cid), "candidate "+next.Name+" edited"
	}
	return s.saveSection(c, r, sectionSave{
		Anchor: "candidates", Key: key, Form: form, Errs: fr.errs, Prev: prev, Next: next, Changed: cid == 0, HistoryKey: "candidate",
		Edit: s.edit(c, r, action, "candidates"),
		Save: func(ctx context.Context, e store.Edit) error {
			_, err := s.store.SaveCandidate(ctx, e, cid, next)
			return err
		},
	})
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
	return s.saveSection(c, r, sectionSave{
		Anchor: "candidates", Key: itoa64(cid), Prev: cur.Candidate, Changed: true, HistoryKey: "candidate",
		Edit: s.edit(c, r, "candidate "+cur.Name+" removed", "candidates"),
		Save: func(ctx context.Context, e store.Edit) error {
			return s.store.RemoveCandidate(ctx, e, cid)
		},
	})
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

// idRow is a judged row with its stored id.
type idRow struct {
	ID int64
	RR planner.RowResult
}

// candidateRows are the judged rows imported into the candidate itself
// (a baseline judged on the report's matrix has none).
func (v reportView) candidateRows(cd store.Candidate) []idRow {
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
func (f sectionForm) openAny(rows []idRow) bool {
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

// candidateUpload is the outcome of an upload into a candidate, shown in
// its card: what was added, or why nothing was.
type candidateUpload struct {
	CandidateID int64
	OK, Err     string
	Dup         *store.Import
}

// candidateImport takes result files for one candidate's own matrix, all
// of them or none, through the same import batch as the report's. The
// upload script gets the candidates section's inside back (the card with
// its fresh matrix and the outcome); a plain post is redirected to the
// card.
func (s *Server) candidateImport(c echo.Context) error {
	r, err := s.editableReport(c)
	if err != nil {
		return err
	}
	cid, err := idParam(c, "cid")
	if err != nil {
		return err
	}
	if _, err := s.candidate(c, r.ID, cid); err != nil {
		drainUpload(c.Request())
		return err
	}
	batch := s.newBatch()
	defer batch.Close()
	batch.Candidate = cid
	version, err := receiveMultipart(c, batch)
	batch.Candidate = cid // the card's candidate, whatever the form said
	var ims []store.Import
	if err == nil {
		if version == 0 {
			version = r.Version
		}
		ims, err = batch.Commit(c.Request().Context(), s.store, store.Edit{ReportID: r.ID, BaseVersion: version, UserID: currentUser(c).ID})
	}
	out := &candidateUpload{CandidateID: cid}
	status := http.StatusCreated
	if err != nil {
		drainUpload(c.Request())
		var msg string
		var dup *store.Import
		status, msg, dup = importFailure(err)
		if status >= 500 {
			return err
		}
		out.Err, out.Dup = msg, dup
	} else {
		out.OK = importedSummary(ims)
	}
	if !isPartial(c.Request()) && err == nil {
		return redirectFlash(c, sectionURL(r.ID, fmt.Sprintf("candidate-%d", cid)), out.OK)
	}
	v, lerr := s.loadReport(c)
	if lerr != nil {
		return lerr
	}
	if err == nil {
		return s.answerChange(c, status, v, "candidates", candidatesBody(v, sectionForm{}, out))
	}
	return s.render(c, status, layout(s.page(c, v.R.Title), sectionPage(v, candidatesUploaded(v, out))), candidatesBody(v, sectionForm{}, out))
}
