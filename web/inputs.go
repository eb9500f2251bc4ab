package web

import (
	"context"
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

// compute is inputs followed by planner.Compute: the numbers every page,
// the JSON API and the XLSX export show.
func (s *Server) compute(ctx context.Context, r store.Report) (planner.Inputs, planner.Result, error) {
	in, err := s.inputs(ctx, r)
	if err != nil {
		return in, planner.Result{}, err
	}
	return in, planner.Compute(in), nil
}
