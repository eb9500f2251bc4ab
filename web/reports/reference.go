package reports

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"capplan/importers"
	"capplan/planner"
	"capplan/web/store"
)

// Reference rows (docs/method.md, "Reference rows"): the public frontier
// read from InferenceX's agg_bmk.json array or its CSV export, kept in the
// section SecReference and never among the rows the matrix judges. The
// browser's form, the token API and the command line all read a file
// through AddReferenceFile; the API and the command line import through
// ImportReference, which adds the editor and review checks the browser's
// handler makes itself.

// ReferenceOptions are what the user says of the files: where they were
// published (InferenceX when empty) and the day their figures were
// published or retrieved (the date of every row that has none).
type ReferenceOptions struct {
	Source, Date string
	MaxBytes     int64
}

// ReferenceFileAdded is one file an import brought: its name and rows.
type ReferenceFileAdded struct {
	File string `json:"file"`
	Rows int    `json:"rows"`
}

// AddReferenceFile reads one InferenceX file as reference rows and
// returns prev with them added: they replace the rows of a file of the
// same name and join the others. A file that cannot be read, a benchmark
// result (importers.ResultNotReferenceError), or rows past
// planner.MaxReferenceRows are refused, naming the file; prev is never
// changed.
func AddReferenceFile(prev *planner.ReferenceInput, name string, r io.Reader, opt ReferenceOptions) (*planner.ReferenceInput, ReferenceFileAdded, error) {
	f, err := readReferenceFile(name, r, opt)
	if err != nil {
		return nil, ReferenceFileAdded{}, err
	}
	next, err := withReferenceFiles(prev, []referenceFile{f})
	if err != nil {
		return nil, ReferenceFileAdded{}, err
	}
	return next, ReferenceFileAdded{File: name, Rows: len(f.rows)}, nil
}

// referenceFile is one file's reference rows, read.
type referenceFile struct {
	name string
	rows []planner.ReferenceRow
}

func readReferenceFile(name string, r io.Reader, opt ReferenceOptions) (referenceFile, error) {
	rows, _, err := importers.ParseInferenceX(name, r, importers.ReferenceOptions{EvidenceOptions: importers.EvidenceOptions{MaxBytes: opt.MaxBytes},
		Source: opt.Source, Date: opt.Date})
	if err != nil {
		return referenceFile{}, err
	}
	return referenceFile{name: name, rows: rows}, nil
}

// withReferenceFiles is prev with the files' rows added in order, refused
// past planner.MaxReferenceRows naming the file that went over.
func withReferenceFiles(prev *planner.ReferenceInput, files []referenceFile) (*planner.ReferenceInput, error) {
	next := prev
	for _, f := range files {
		next = WithReferenceRows(next, f.name, f.rows)
		if len(next.Rows) > planner.MaxReferenceRows {
			return nil, &store.InputError{Field: "file", Msg: fmt.Sprintf("%s: the report would hold %d reference rows, more than the %d it keeps: remove a file first", f.name, len(next.Rows), planner.MaxReferenceRows)}
		}
	}
	return next, nil
}

// WithReferenceRows is prev with rows added; rows of a file replace the
// rows of the file of the same name (file "" replaces nothing: a typed
// row).
func WithReferenceRows(prev *planner.ReferenceInput, file string, rows []planner.ReferenceRow) *planner.ReferenceInput {
	next := &planner.ReferenceInput{Rows: []planner.ReferenceRow{}}
	if prev != nil {
		for _, rr := range prev.Rows {
			if file == "" || rr.File != file {
				next.Rows = append(next.Rows, rr)
			}
		}
	}
	next.Rows = append(next.Rows, rows...)
	return next
}

// ReferenceImported is what ImportReference added and where the report
// stands after it.
type ReferenceImported struct {
	ReportID int64                `json:"report_id"`
	Version  int                  `json:"version"`
	Files    []ReferenceFileAdded `json:"files"`
	// Rows is how many reference rows the report holds now, Matched how
	// many of them match its contract.
	Rows    int `json:"rows"`
	Matched int `json:"matched"`
	// Ratio is the headline's standing against the frontier when the
	// report has a ceiling row (nil otherwise); Text says it, or why
	// there is none.
	Ratio *planner.FrontierRatio `json:"ratio"`
	Text  string                 `json:"text"`
	Plan  bool                   `json:"plan"`
}

// ErrNoReferenceFile refuses an import of reference rows without a file.
var ErrNoReferenceFile = &store.InputError{Field: "file", Msg: "no file received: choose InferenceX's agg_bmk.json or its CSV export"}

// ImportReference imports reference rows into a report as user u, whole
// or not at all: each calls add once per file, in order, and the rows of
// every file are stored as one change only when all were read. u must be
// an editor of the report (ErrForbidden); an approved report is refused,
// and the store refuses one in review, as for the browser's form. Each
// file is read with the source and date its add states, and at most
// maxBytes of it.
func (s *Service) ImportReference(ctx context.Context, u store.User, reportID int64, maxBytes int64,
	each func(add func(name string, r io.Reader, source, date string) error) error) (ReferenceImported, error) {
	r, err := s.Store.Report(ctx, reportID)
	if err != nil {
		return ReferenceImported{}, err
	}
	if !r.CanEdit(u) {
		return ReferenceImported{}, fmt.Errorf("%w: only the report's owner, its editors and admins import reference rows", ErrForbidden)
	}
	if err := s.ReadOnly(ctx, reportID); err != nil {
		return ReferenceImported{}, err
	}
	var files []referenceFile
	err = each(func(name string, body io.Reader, source, date string) error {
		f, err := readReferenceFile(name, body, ReferenceOptions{Source: source, Date: date, MaxBytes: maxBytes})
		if err != nil {
			return err
		}
		files = append(files, f)
		return nil
	})
	if err != nil {
		return ReferenceImported{}, err
	}
	if len(files) == 0 {
		return ReferenceImported{}, ErrNoReferenceFile
	}
	next, err := s.commitReference(ctx, u, reportID, files)
	if err != nil {
		return ReferenceImported{}, err
	}
	after, err := s.Load(ctx, reportID)
	if err != nil {
		return ReferenceImported{}, err
	}
	out := ReferenceImported{ReportID: reportID, Version: after.Version, Files: []ReferenceFileAdded{}, Rows: len(next.Rows)}
	for _, f := range files {
		out.Files = append(out.Files, ReferenceFileAdded{File: f.name, Rows: len(f.rows)})
	}
	if rf := after.Result.Reference; rf != nil {
		out.Matched, out.Ratio, out.Text, out.Plan = rf.Matched, rf.Ratio, rf.Text, rf.Plan
	}
	return out, nil
}

// commitReference adds the files' rows to the report's reference rows as
// they are when it commits: the commits of one process into one report
// take turns with those of result files (CommitLatest), and a change by
// someone else in between is retried, so an upload never fails for having
// come at the same time as another.
func (s *Service) commitReference(ctx context.Context, u store.User, reportID int64, files []referenceFile) (*planner.ReferenceInput, error) {
	lock := commitLock(reportID)
	for attempt := 0; ; attempt++ {
		lock.Lock()
		next, err := s.saveReferenceFiles(ctx, u, reportID, files)
		lock.Unlock()
		var ce *store.ConflictError
		if !errors.As(err, &ce) || attempt >= maxCommitAttempts || ctx.Err() != nil {
			return next, err
		}
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(time.Duration(min(attempt+1, 20)) * 5 * time.Millisecond):
		}
	}
}

// saveReferenceFiles stores the files' rows added to the report's, as one
// change based on the version it read.
func (s *Service) saveReferenceFiles(ctx context.Context, u store.User, reportID int64, files []referenceFile) (*planner.ReferenceInput, error) {
	in, version, err := s.referenceInput(ctx, reportID)
	if err != nil {
		return nil, err
	}
	next, err := withReferenceFiles(in, files)
	if err != nil {
		return nil, err
	}
	e := store.Edit{ReportID: reportID, BaseVersion: version, UserID: u.ID, Action: "reference rows imported", Section: SecReference}
	e.Before, e.After = ReferenceHistory(in, next)
	if err := s.Store.SaveSection(ctx, e, SecReference, next); err != nil {
		return nil, err
	}
	return next, nil
}

// ReferenceCounts is the rows per file or source, as the history and the
// section list them (a file holds thousands of rows).
func ReferenceCounts(ri *planner.ReferenceInput) map[string]string {
	out := map[string]string{}
	if ri == nil {
		return out
	}
	n := map[string]int{}
	for _, rr := range ri.Rows {
		n[planner.ReferenceGroup(rr)]++
	}
	for g, k := range n {
		out[g] = planner.Plural(k, "row", "rows")
	}
	return out
}

// ReferenceHistory is the history's two sides of a change of reference
// rows: "reference rows, FILE: N rows" for each file or source whose
// count changed, "(none)" on the side without it.
func ReferenceHistory(prev, next *planner.ReferenceInput) (before, after string) {
	a, b := ReferenceCounts(prev), ReferenceCounts(next)
	var groups []string
	for g := range a {
		if a[g] != b[g] {
			groups = append(groups, g)
		}
	}
	for g := range b {
		if _, ok := a[g]; !ok {
			groups = append(groups, g)
		}
	}
	sort.Strings(groups)
	var bl, al []string
	side := func(m map[string]string, g string) string {
		if v, ok := m[g]; ok {
			return v
		}
		return "(none)"
	}
	for _, g := range groups {
		bl = append(bl, "reference rows, "+g+": "+side(a, g))
		al = append(al, "reference rows, "+g+": "+side(b, g))
	}
	return strings.Join(bl, "\n"), strings.Join(al, "\n")
}

// referenceInput is the report's reference rows as stored now, and the
// version read before them (a save based on it is refused as stale when
// the section changed since).
func (s *Service) referenceInput(ctx context.Context, reportID int64) (*planner.ReferenceInput, int, error) {
	r, err := s.Store.Report(ctx, reportID)
	if err != nil {
		return nil, 0, err
	}
	var in *planner.ReferenceInput
	if _, err := s.Store.Section(ctx, reportID, SecReference, &in); err != nil {
		return nil, 0, err
	}
	return in, r.Version, nil
}
