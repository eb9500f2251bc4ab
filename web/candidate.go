package web

import (
	"context"
	"fmt"
	"net/http"
	"strconv"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/store"
	"capplan/web/view"
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
		key, action = strconv.FormatInt(cid, 10), "candidate "+next.Name+" edited"
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
		Anchor: "candidates", Key: strconv.FormatInt(cid, 10), Prev: cur.Candidate, Changed: true, HistoryKey: "candidate",
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
func candidatesFor(v view.Report, f view.SectionForm) templ.Component {
	return view.CandidatesSection(v, f, false)
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
	out := &view.CandidateUpload{CandidateID: cid}
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
		return redirectFlash(c, view.SectionURL(r.ID, fmt.Sprintf("candidate-%d", cid)), out.OK)
	}
	v, lerr := s.loadReport(c)
	if lerr != nil {
		return lerr
	}
	if err == nil {
		return s.answerChange(c, status, v, "candidates", view.CandidatesBody(v, view.SectionForm{}, out))
	}
	return s.render(c, status, layout(s.page(c, v.R.Title), view.SectionPage(v, view.CandidatesUploaded(v, out))), view.CandidatesBody(v, view.SectionForm{}, out))
}
