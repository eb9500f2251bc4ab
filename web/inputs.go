package web

import (
	"context"
	"encoding/json"
	"fmt"

	"capplan/planner"
	"capplan/web/store"
)

// Report sections stored as JSON documents of the planner's input types.
// One name per section; handlers save them with store.SaveSection.
const (
	secAdmission      = "admission"      // planner.AdmissionInput
	secOverload       = "overload"       // planner.OverloadTest
	secRoutes         = "routes"         // []planner.Route
	secSelfHosted     = "self_hosted"    // planner.SelfHostedCosts
	secScenarios      = "scenarios"      // []planner.Scenario
	secRecommendation = "recommendation" // planner.Recommendation
	secSettings       = "settings"       // reportSettings
)

// reportSettings are the report-wide choices for the money side.
type reportSettings struct {
	Currency       string `json:"currency"`
	TokenBasis     string `json:"token_basis"`
	MaxBoxes       int    `json:"max_boxes"`
	StaleAfterDays int    `json:"stale_after_days"`
}

// inputs gathers everything planner.Compute needs for one report. It is the
// one place where stored data becomes planner.Inputs.
func (s *Server) inputs(ctx context.Context, r store.Report) (planner.Inputs, error) {
	in := planner.Inputs{
		Contract: r.Contract,
		AsOf:     s.cfg.Now().UTC().Format("2006-01-02"),
		Currency: "EUR",
	}
	ams, err := s.store.Amendments(ctx, r.ID)
	if err != nil {
		return in, err
	}
	for _, a := range ams {
		in.Amendments = append(in.Amendments, planner.Amendment{
			Field: a.Field, OldValue: a.Old, NewValue: a.New, Reason: a.Reason,
			Who: a.User, When: a.At.UTC().Format("2006-01-02T15:04:05Z"), ResultsExisted: a.ResultsExisted,
		})
	}
	rows, err := s.store.Rows(ctx, r.ID)
	if err != nil {
		return in, err
	}
	for _, sr := range rows {
		if sr.CandidateID == 0 {
			in.Rows = append(in.Rows, sr.Row)
		}
	}
	// Candidates, each with the rows of the imports attached to it.
	cands, err := s.store.Candidates(ctx, r.ID)
	if err != nil {
		return in, err
	}
	for _, cd := range cands {
		pc := cd.Candidate
		for _, sr := range rows {
			if sr.CandidateID == cd.ID {
				pc.Rows = append(pc.Rows, sr.Row)
			}
		}
		in.Candidates = append(in.Candidates, pc)
	}

	var settings reportSettings
	err = s.store.Sections(ctx, r.ID, map[string]any{
		secAdmission:      &in.Admission,
		secOverload:       &in.Overload,
		secRoutes:         &in.Routes,
		secSelfHosted:     &in.SelfHosted,
		secScenarios:      &in.Scenarios,
		secRecommendation: &in.Recommendation,
		secSettings:       &settings,
		secTelemetry:      &in.Telemetry,
		secSoak:           &in.Soak,
		secShowback:       &in.Showback,
		secDemand:         &in.Demand,
		secLoosening:      &in.LooseningAccepted,
	})
	if err != nil {
		return in, fmt.Errorf("report %d: %w", r.ID, err)
	}
	// API quotes attached to the report.
	if in.Quotes, err = s.reportQuotes(ctx, r.ID); err != nil {
		return in, err
	}
	if settings.Currency != "" {
		in.Currency = settings.Currency
	}
	in.TokenBasis, in.MaxBoxes, in.StaleAfterDays = settings.TokenBasis, settings.MaxBoxes, settings.StaleAfterDays
	return in, nil
}

// approvedInputs returns the inputs kept when the report was approved, so
// that an approved report never moves (library quotes edited, evidence
// ageing, exchange rates); ok is false when the report is not approved or
// has no snapshot. The rows' per-request records are not in the snapshot's
// JSON: they are taken from the report's rows, which approval made
// read-only, matched by file and position.
func (s *Server) approvedInputs(ctx context.Context, r store.Report, live func() (planner.Inputs, error)) (planner.Inputs, bool, error) {
	rv, err := s.store.Review(ctx, r.ID)
	if err != nil || !rv.Approved() {
		return planner.Inputs{}, false, err
	}
	data, _, ok, err := s.store.Snapshot(ctx, r.ID)
	if err != nil || !ok {
		return planner.Inputs{}, false, err
	}
	in, err := decodeSnapshot(data)
	if err != nil {
		return in, false, fmt.Errorf("report %d snapshot: %w", r.ID, err)
	}
	cur, err := live()
	if err != nil {
		return in, false, err
	}
	attach := func(dst, src []planner.Row) {
		type key struct {
			sha string
			idx int
		}
		by := map[key][]planner.Sample{}
		for _, row := range src {
			by[key{row.Source.SHA256, row.Index}] = row.Samples
		}
		for i := range dst {
			dst[i].Samples = by[key{dst[i].Source.SHA256, dst[i].Index}]
		}
	}
	attach(in.Rows, cur.Rows)
	for i := range in.Candidates {
		for _, c := range cur.Candidates {
			if c.Name == in.Candidates[i].Name {
				attach(in.Candidates[i].Rows, c.Rows)
			}
		}
	}
	return in, true, nil
}

// snapshot is what approval keeps: every input, and the rows' sources,
// which planner.Row leaves out of its JSON.
type snapshot struct {
	Inputs           planner.Inputs              `json:"inputs"`
	Sources          []planner.Source            `json:"sources"`
	CandidateSources map[string][]planner.Source `json:"candidate_sources"`
}

func encodeSnapshot(in planner.Inputs) ([]byte, error) {
	sn := snapshot{Inputs: in, CandidateSources: map[string][]planner.Source{}}
	for _, r := range in.Rows {
		sn.Sources = append(sn.Sources, r.Source)
	}
	for _, c := range in.Candidates {
		for _, r := range c.Rows {
			sn.CandidateSources[c.Name] = append(sn.CandidateSources[c.Name], r.Source)
		}
	}
	return json.Marshal(sn)
}

func decodeSnapshot(data []byte) (planner.Inputs, error) {
	var sn snapshot
	if err := json.Unmarshal(data, &sn); err != nil {
		return planner.Inputs{}, err
	}
	in := sn.Inputs
	for i := range in.Rows {
		if i < len(sn.Sources) {
			in.Rows[i].Source = sn.Sources[i]
		}
	}
	for ci, c := range in.Candidates {
		for i := range c.Rows {
			if src := sn.CandidateSources[c.Name]; i < len(src) {
				in.Candidates[ci].Rows[i].Source = src[i]
			}
		}
	}
	return in, nil
}

// compute is inputs followed by planner.Compute: the numbers every page,
// the JSON API and the XLSX export show.
func (s *Server) compute(ctx context.Context, r store.Report) (planner.Inputs, planner.Result, error) {
	live := func() (planner.Inputs, error) { return s.inputs(ctx, r) }
	in, ok, err := s.approvedInputs(ctx, r, live)
	if err != nil {
		return in, planner.Result{}, err
	}
	if !ok {
		if in, err = live(); err != nil {
			return in, planner.Result{}, err
		}
	}
	return in, planner.Compute(in), nil
}
