package reports

import (
	"context"
	"fmt"
	"time"

	"capplan/planner"
	"capplan/web/store"
)

// Report is one report read whole: the stored records every page, the JSON
// API and the export show, and the planner's inputs and result computed
// from them.
type Report struct {
	store.Report
	Amendments []store.Amendment
	History    []store.Change // newest first
	Rows       []store.StoredRow
	Imports    []store.Import
	Candidates []store.Candidate
	Quotes     []store.Quote // attached to the report
	Library    []store.Quote // every quote, to attach from
	Review     store.Review
	Comments   []store.Comment
	Settings   Settings
	// SnapshotAt is when approval kept the inputs an approved report is
	// computed from (zero when there is no snapshot).
	SnapshotAt time.Time

	In     planner.Inputs
	Result planner.Result

	snapshot []byte // approval's inputs while loading
}

// Load reads report id and everything planner.Compute needs in one read
// transaction (one consistent snapshot), then computes the result as of
// the service's clock. It is the one place stored data becomes
// planner.Inputs. A missing report is store.ErrNotFound.
func (s *Service) Load(ctx context.Context, id int64) (*Report, error) {
	rep := &Report{}
	err := s.Store.View(ctx, func(st *store.Store) error {
		var err error
		if rep.Report, err = st.Report(ctx, id); err != nil {
			return err
		}
		if rep.Amendments, err = st.Amendments(ctx, id); err != nil {
			return err
		}
		if rep.History, err = st.History(ctx, id); err != nil {
			return err
		}
		if rep.Rows, err = st.Rows(ctx, id); err != nil {
			return err
		}
		if rep.Imports, err = st.Imports(ctx, id); err != nil {
			return err
		}
		if rep.Candidates, err = st.Candidates(ctx, id); err != nil {
			return err
		}
		if rep.Quotes, err = st.ReportQuotes(ctx, id); err != nil {
			return err
		}
		if rep.Library, err = st.Quotes(ctx); err != nil {
			return err
		}
		if rep.Review, err = st.Review(ctx, id); err != nil {
			return err
		}
		if rep.Comments, err = st.Comments(ctx, id); err != nil {
			return err
		}
		err = st.Sections(ctx, id, map[string]any{
			SecAdmission:      &rep.In.Admission,
			SecOverload:       &rep.In.Overload,
			SecRoutes:         &rep.In.Routes,
			SecSelfHosted:     &rep.In.SelfHosted,
			SecScenarios:      &rep.In.Scenarios,
			SecRecommendation: &rep.In.Recommendation,
			SecSettings:       &rep.Settings,
			SecTelemetry:      &rep.In.Telemetry,
			SecSoak:           &rep.In.Soak,
			SecShowback:       &rep.In.Showback,
			SecDemand:         &rep.In.Demand,
			SecLoosening:      &rep.In.LooseningAccepted,
		})
		if err != nil {
			return fmt.Errorf("report %d: %w", id, err)
		}
		if snap, at, ok, err := st.Snapshot(ctx, id); err != nil {
			return err
		} else if ok {
			rep.SnapshotAt, rep.snapshot = at, snap
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	rep.In = rep.inputs(rep.In, s.now().UTC().Format("2006-01-02"))
	if rep.Review.Approved() && rep.snapshot != nil {
		in, err := approvedInputs(rep.snapshot, rep.In)
		if err != nil {
			return nil, fmt.Errorf("report %d snapshot: %w", id, err)
		}
		rep.In = in
	}
	rep.snapshot = nil
	rep.Result = planner.Compute(rep.In)
	return rep, nil
}

// inputs completes in (whose typed-in sections are already read) with the
// contract, amendments, rows, candidates, quotes and settings.
func (rep *Report) inputs(in planner.Inputs, asOf string) planner.Inputs {
	in.Contract = rep.Contract
	in.AsOf = asOf
	in.Currency = "EUR"
	for _, a := range rep.Amendments {
		in.Amendments = append(in.Amendments, planner.Amendment{
			Field: a.Field, OldValue: a.Old, NewValue: a.New, Reason: a.Reason,
			Who: a.User, When: a.At.UTC().Format("2006-01-02T15:04:05Z"), ResultsExisted: a.ResultsExisted,
		})
	}
	for _, sr := range rep.Rows {
		if sr.CandidateID == 0 {
			in.Rows = append(in.Rows, sr.Row)
		}
	}
	// Candidates, each with the rows of the imports attached to it.
	for _, cd := range rep.Candidates {
		pc := cd.Candidate
		for _, sr := range rep.Rows {
			if sr.CandidateID == cd.ID {
				pc.Rows = append(pc.Rows, sr.Row)
			}
		}
		in.Candidates = append(in.Candidates, pc)
	}
	for _, q := range rep.Quotes {
		pq := q.Q
		if pq.Currency == "" { // the library's currency column: never priced as the report's
			pq.Currency = q.Currency
		}
		in.Quotes = append(in.Quotes, pq)
	}
	if rep.Settings.Currency != "" {
		in.Currency = rep.Settings.Currency
	}
	in.TokenBasis, in.MaxBoxes, in.StaleAfterDays = rep.Settings.TokenBasis, rep.Settings.MaxBoxes, rep.Settings.StaleAfterDays
	return in
}
