package reports

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"
	"unsafe"

	"capplan/planner"
	"capplan/web/store"
)

// Report is one report read whole: the stored records every page, the JSON
// API and the export show, and the planner's inputs and result computed
// from them.
//
// Amendments, Rows, Imports, Candidates, Settings, SnapshotAt, In and
// Result are what a version of the report computes to. They are shared by
// every Load of that version (see Service.Load): callers read them and
// never change them in place (copy a slice before changing it). The other
// fields are read afresh for each Load.
type Report struct {
	store.Report
	Amendments []store.Amendment
	History    []store.Change // newest first: all, or the HistoryShown newest (see Load)
	// HistoryTotal is how many changes the report has in all.
	HistoryTotal int
	Rows         []store.StoredRow
	Imports      []store.Import
	Candidates   []store.Candidate
	Quotes       []store.Quote // attached to the report
	Library      []store.Quote // every quote, to attach from
	Review       store.Review
	Comments     []store.Comment
	Settings     Settings
	// SnapshotAt is when approval kept the inputs an approved report is
	// computed from (zero when there is no snapshot).
	SnapshotAt time.Time

	In     planner.Inputs
	Result planner.Result

	c *computed // the shared computation; nil when not memoised
}

// computed is what one version of a report computes to: the records the
// planner's inputs are made of, the inputs and the result. It is kept in
// the service's memo and shared, read-only.
type computed struct {
	Amendments []store.Amendment
	Rows       []store.StoredRow
	Imports    []store.Import
	Candidates []store.Candidate
	Settings   Settings
	SnapshotAt time.Time
	In         planner.Inputs
	Result     planner.Result

	derivedMu    sync.Mutex
	derived      map[string][]byte // see Report.Derived
	derivedBytes int64
}

// Derived returns the bytes write produces under name, produced once per
// computed version of the report and shared by every load of it: write
// must depend only on what that version computes to (In, Result, Rows, …),
// never on the user or the request. Beyond a bound per version (part of
// the memo's estimate, see size) the bytes are produced afresh each time.
func (rep *Report) Derived(name string, write func(io.Writer) error) ([]byte, error) {
	c := rep.c
	if c != nil {
		c.derivedMu.Lock()
		b, ok := c.derived[name]
		c.derivedMu.Unlock()
		if ok {
			return b, nil
		}
	}
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		return nil, err
	}
	b := buf.Bytes()
	if c != nil {
		c.derivedMu.Lock()
		if prev, ok := c.derived[name]; ok {
			b = prev
		} else if c.derivedBytes+int64(len(b)) <= c.derivedMax() {
			if c.derived == nil {
				c.derived = map[string][]byte{}
			}
			c.derived[name] = b
			c.derivedBytes += int64(len(b))
		}
		c.derivedMu.Unlock()
	}
	return b, nil
}

// derivedMax bounds the derived bytes kept with c: charts and the API's
// encoding grow with the rows (the API's headline by about 3 KB a row).
func (c *computed) derivedMax() int64 { return 256<<10 + int64(len(c.Rows))*(4<<10) }

// memoKey names what a computed report depends on. Every change to a
// report's own data goes through the store's version bump (store.Edit),
// an edit of a library quote bumps the reports that use it, and approval
// is a version too; the as-of day moves the evidence's age and the
// attached quotes' update stamps are there for the quotes shared across
// reports. Comments, history, review links and the library are read for
// each Load and are not part of it.
type memoKey struct {
	id      int64
	version int
	asOf    string
	state   store.State
	quotes  string // attached quotes: id and update stamp each
}

// supersedes: a newer version of the same report pushes older ones out.
func supersedes(newer, older memoKey) bool {
	return newer.id == older.id && older.version <= newer.version
}

// MemoBytes and MemoEntries bound the memo of computed reports (see
// Service.Load): estimated bytes and entries.
const (
	MemoBytes   = 64 << 20
	MemoEntries = 256
)

// MemoStats tells what the memo of computed reports holds and how it
// served (zero for a service without one).
func (s *Service) MemoStats() MemoStats {
	if s.memo == nil {
		return MemoStats{}
	}
	return s.memo.stats()
}

// Load reads report id and everything planner.Compute needs in one read
// transaction (one consistent snapshot), and the result as of the
// service's clock. It is the one place stored data becomes planner.Inputs.
// A missing report is store.ErrNotFound.
//
// The computation is memoised per report version (see memoKey): a Load
// of a version already computed reads only the report's header, review,
// comments, history and quotes, and shares the rest with the other Loads
// of that version; concurrent Loads of a version not yet computed compute
// it once.
//
// History holds the HistoryShown newest changes; LoadWhole reads them all.
func (s *Service) Load(ctx context.Context, id int64) (*Report, error) {
	return s.load(ctx, id, HistoryShown)
}

// HistoryShown is how many of its newest changes a report is loaded with
// for a page: a report changed every day for a year would otherwise read
// and show hundreds on every view. The history page and the workbook have
// them all.
const HistoryShown = 25

// LoadWhole is Load with every change of the report's history.
func (s *Service) LoadWhole(ctx context.Context, id int64) (*Report, error) {
	return s.load(ctx, id, 0)
}

func (s *Service) load(ctx context.Context, id int64, history int) (*Report, error) {
	rep := &Report{}
	asOf := s.AsOf()
	var c *computed
	err := s.Store.View(ctx, func(st *store.Store) error {
		var err error
		if rep.Report, err = st.Report(ctx, id); err != nil {
			return err
		}
		if history > 0 {
			rep.History, rep.HistoryTotal, err = st.LatestHistory(ctx, id, history)
		} else {
			rep.History, err = st.History(ctx, id)
			rep.HistoryTotal = len(rep.History)
		}
		if err != nil {
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
		compute := func() (*computed, int64, error) {
			var known map[int64]*store.StoredRow
			if s.memo != nil { // an earlier version's rows: their figures are decoded already
				if prev, ok := s.memo.find(func(k memoKey) bool { return k.id == id }); ok {
					known = make(map[int64]*store.StoredRow, len(prev.Rows))
					for i := range prev.Rows {
						known[prev.Rows[i].ID] = &prev.Rows[i]
					}
				}
			}
			c, err := rep.compute(ctx, st, asOf, known)
			if err != nil {
				return nil, 0, err
			}
			return c, c.size(), nil
		}
		if s.memo == nil {
			c, _, err = compute()
			return err
		}
		c, err = s.memo.get(ctx, rep.memoKey(asOf), compute)
		return err
	})
	if err != nil {
		return nil, err
	}
	rep.Amendments, rep.Rows, rep.Imports, rep.Candidates = c.Amendments, c.Rows, c.Imports, c.Candidates
	rep.Settings, rep.SnapshotAt, rep.In, rep.Result = c.Settings, c.SnapshotAt, c.In, c.Result
	if s.memo != nil {
		rep.c = c
	}
	return rep, nil
}

func (rep *Report) memoKey(asOf string) memoKey {
	k := memoKey{id: rep.ID, version: rep.Version, asOf: asOf, state: rep.Review.State}
	var b []byte
	for _, q := range rep.Quotes {
		b = strconv.AppendInt(b, q.ID, 10)
		b = append(b, '@')
		b = strconv.AppendInt(b, q.UpdatedAt.UnixNano(), 10)
		b = append(b, ';')
	}
	k.quotes = string(b)
	return k
}

// compute reads, inside the read transaction st, the rest of what the
// planner needs for rep (whose header, review and quotes are read), and
// computes the result as of asOf. Rows in known (by id, from an earlier
// version) are not decoded again (see store.RowsReusing).
func (rep *Report) compute(ctx context.Context, st *store.Store, asOf string, known map[int64]*store.StoredRow) (*computed, error) {
	id := rep.ID
	c := &computed{}
	var err error
	if c.Amendments, err = st.Amendments(ctx, id); err != nil {
		return nil, err
	}
	if c.Rows, err = st.RowsReusing(ctx, id, known); err != nil {
		return nil, err
	}
	if c.Imports, err = st.Imports(ctx, id); err != nil {
		return nil, err
	}
	if c.Candidates, err = st.Candidates(ctx, id); err != nil {
		return nil, err
	}
	var in planner.Inputs
	err = st.Sections(ctx, id, map[string]any{
		SecAdmission:      &in.Admission,
		SecOverload:       &in.Overload,
		SecRoutes:         &in.Routes,
		SecSelfHosted:     &in.SelfHosted,
		SecScenarios:      &in.Scenarios,
		SecRecommendation: &in.Recommendation,
		SecSettings:       &c.Settings,
		SecTelemetry:      &in.Telemetry,
		SecSoak:           &in.Soak,
		SecShowback:       &in.Showback,
		SecDemand:         &in.Demand,
		SecLoosening:      &in.LooseningAccepted,
		SecAmendment:      &in.AmendmentAccepted,
		SecProvider:       &in.Provider,
		SecFleet:          &in.Fleet,
		SecReference:      &in.Reference,
	})
	if err != nil {
		return nil, fmt.Errorf("report %d: %w", id, err)
	}
	var snap []byte
	if s, at, ok, err := st.Snapshot(ctx, id); err != nil {
		return nil, err
	} else if ok {
		c.SnapshotAt, snap = at, s
	}
	c.In = c.inputs(in, rep.Contract, rep.Quotes, asOf)
	if rep.Review.Approved() && snap != nil {
		if c.In, err = approvedInputs(snap, c.In); err != nil {
			return nil, fmt.Errorf("report %d snapshot: %w", id, err)
		}
	}
	c.In.Workflow = rep.workflow()
	c.Result = planner.Compute(c.In)
	return c, nil
}

// workflow is where rep stands, for the headline: frozen or not, and its
// review state as people read it (a draft sent back is "sent back").
func (rep *Report) workflow() *planner.Workflow {
	w := &planner.Workflow{Frozen: rep.Frozen(), State: planner.WorkflowDraft}
	switch {
	case rep.Review.Approved():
		w.State, w.By = planner.WorkflowApproved, rep.Review.ApprovedBy
		if !rep.Review.ApprovedAt.IsZero() {
			w.At = rep.Review.ApprovedAt.UTC().Format(planner.DateLayout)
		}
	case rep.Review.State == store.StateInReview:
		w.State = planner.WorkflowInReview
	default:
		if sent := store.SentBack(rep.Review, rep.Comments); sent != nil {
			w.State, w.By, w.At = planner.WorkflowSentBack, sent.User, sent.At.UTC().Format(planner.DateLayout)
		}
	}
	return w
}

// inputs completes in (whose typed-in sections are already read) with the
// contract, amendments, rows, candidates, quotes and settings.
func (rep *computed) inputs(in planner.Inputs, contract planner.Contract, quotes []store.Quote, asOf string) planner.Inputs {
	in.Contract = contract
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
	for _, q := range quotes {
		pq := q.Q
		if pq.Currency == "" { // the library's currency column: never priced as the report's
			pq.Currency = q.Currency
		}
		if pq.Catalogue == "" { // a catalogue's prices go stale sooner
			pq.Catalogue = q.Catalogue
		}
		in.Quotes = append(in.Quotes, pq)
	}
	if rep.Settings.Currency != "" {
		in.Currency = rep.Settings.Currency
	}
	in.TokenBasis, in.MaxBoxes, in.StaleAfterDays = rep.Settings.TokenBasis, rep.Settings.MaxBoxes, rep.Settings.StaleAfterDays
	in.ExchangeRates, in.TaxBasis = rep.Settings.ExchangeRates, rep.Settings.TaxBasis
	return in
}

// size estimates the bytes c holds: the rows (each held as stored, as an
// input and as a matrix row) with their per-request records, the derived
// bytes it may keep, and a share for everything else. It is an estimate for bounding the memo, calibrated
// against the live heap in a test.
func (c *computed) size() int64 {
	const base, perRow = 64 << 10, 9 << 10
	n := int64(base) + c.derivedMax()
	for _, r := range c.Rows {
		n += perRow + int64(len(r.Row.Samples))*int64(unsafe.Sizeof(planner.Sample{}))
	}
	return n
}
