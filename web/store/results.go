package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"capplan/planner"
)

// Import is one result file imported into a report.
type Import struct {
	ID            int64
	ReportID      int64
	CandidateID   int64 // 0: the report's main matrix
	FileName      string
	SHA256        string
	Format        string
	FormatVersion string
	ToolVersion   string
	Model         string
	SizeBytes     int64
	Warnings      []planner.Warning
	User          string
	At            time.Time
	Rows          int
}

// StoredRow is an imported row with its database identity.
type StoredRow struct {
	ID          int64
	ImportID    int64
	CandidateID int64
	Row         planner.Row // Source and Observed filled
}

// DuplicateImportError refuses a file already imported into the report.
type DuplicateImportError struct{ First Import }

func (e *DuplicateImportError) Error() string {
	return fmt.Sprintf("%s (sha256 %s…) is already imported into this report as import #%d by %s on %s",
		e.First.FileName, e.First.SHA256[:12], e.First.ID, e.First.User, e.First.At.UTC().Format("2006-01-02 15:04 UTC"))
}

// AddImport stores one imported file and all its rows in one transaction:
// all of it or nothing. The report must have a frozen contract.
func (s *Store) AddImport(ctx context.Context, e Edit, im Import, rows []planner.Row) (int64, error) {
	ids, err := s.AddImports(ctx, e, []ImportWithRows{{Import: im, Rows: rows}})
	if err != nil {
		return 0, err
	}
	return ids[0], nil
}

// ImportWithRows is one file of a batch given to AddImports.
type ImportWithRows struct {
	Import Import
	Rows   []planner.Row
}

// AddImports stores several imported files and all their rows in one
// transaction with one history entry: every file or none. The report must
// have a frozen contract; a file already imported is refused with
// *DuplicateImportError.
func (s *Store) AddImports(ctx context.Context, e Edit, ims []ImportWithRows) ([]int64, error) {
	ids := make([]int64, 0, len(ims))
	err := s.Update(ctx, e, func(tx *sql.Tx) error {
		var frozen string
		if err := tx.QueryRowContext(ctx, `SELECT frozen_at FROM reports WHERE id = ?`, e.ReportID).Scan(&frozen); err != nil {
			return err
		}
		if frozen == "" {
			return inputErr("contract", "freeze the test contract before importing results")
		}
		ids = ids[:0]
		for _, f := range ims {
			id, err := s.addImport(ctx, tx, e, f.Import, f.Rows)
			if err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// addImport inserts one import and its rows inside tx.
func (s *Store) addImport(ctx context.Context, tx *sql.Tx, e Edit, im Import, rows []planner.Row) (int64, error) {
	if first, err := importBySHA(ctx, tx, e.ReportID, im.SHA256); err == nil {
		return 0, &DuplicateImportError{First: first}
	} else if !errors.Is(err, ErrNotFound) {
		return 0, err
	}
	warn, _ := json.Marshal(im.Warnings)
	var cand any
	if im.CandidateID != 0 {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM candidates WHERE id = ? AND report_id = ?`, im.CandidateID, e.ReportID).Scan(&n); err != nil {
			return 0, err
		}
		if n == 0 {
			return 0, inputErr("candidate", fmt.Sprintf("no candidate %d in this report", im.CandidateID))
		}
		cand = im.CandidateID
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO imports (report_id, candidate_id, file_name, sha256, format, format_version, tool_version, model, size_bytes, warnings, user_id, at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, e.ReportID, cand, im.FileName, im.SHA256, im.Format, im.FormatVersion, im.ToolVersion, im.Model, im.SizeBytes, string(warn), e.UserID, stamp(s.now()))
	if err != nil {
		return 0, fmt.Errorf("store: import: %w", err)
	}
	id, _ := res.LastInsertId()
	for _, r := range rows {
		data, err := json.Marshal(storedRowJSON{Row: r, Source: r.Source})
		if err != nil {
			return 0, err
		}
		obs, _ := json.Marshal(r.Observed)
		if _, err := tx.ExecContext(ctx, `INSERT INTO result_rows (import_id, report_id, idx, data, observed, samples) VALUES (?, ?, ?, ?, ?, ?)`,
			id, e.ReportID, r.Index, string(data), string(obs), encodeSamples(r.Samples)); err != nil {
			return 0, fmt.Errorf("store: import row %d: %w", r.Index, err)
		}
	}
	return id, nil
}

// storedRowJSON keeps the row's Source, which planner.Row leaves out of its
// JSON form.
type storedRowJSON struct {
	planner.Row
	Source planner.Source `json:"source"`
}

func importBySHA(ctx context.Context, tx *sql.Tx, reportID int64, sha string) (Import, error) {
	ims, err := queryImports(ctx, tx, `WHERE i.report_id = ? AND i.sha256 = ? AND i.removed_at = ''`, reportID, sha)
	if err != nil {
		return Import{}, err
	}
	if len(ims) == 0 {
		return Import{}, ErrNotFound
	}
	return ims[0], nil
}

// Imports lists the report's live imports, oldest first.
func (s *Store) Imports(ctx context.Context, reportID int64) ([]Import, error) {
	return queryImports(ctx, s.r, `WHERE i.report_id = ? AND i.removed_at = '' ORDER BY i.id`, reportID)
}

// ImportByID returns one import of a report, removed or not.
func (s *Store) ImportByID(ctx context.Context, reportID, id int64) (Import, error) {
	ims, err := queryImports(ctx, s.r, `WHERE i.report_id = ? AND i.id = ?`, reportID, id)
	if err != nil {
		return Import{}, err
	}
	if len(ims) == 0 {
		return Import{}, ErrNotFound
	}
	return ims[0], nil
}

func queryImports(ctx context.Context, q querier, where string, args ...any) ([]Import, error) {
	rows, err := q.QueryContext(ctx, `SELECT i.id, i.report_id, COALESCE(i.candidate_id, 0), i.file_name, i.sha256, i.format, i.format_version, i.tool_version,
		i.model, i.size_bytes, i.warnings, COALESCE(NULLIF(u.name, ''), u.email), i.at,
		(SELECT COUNT(*) FROM result_rows r WHERE r.import_id = i.id)
		FROM imports i JOIN users u ON u.id = i.user_id `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("store: imports: %w", err)
	}
	defer rows.Close()
	var out []Import
	for rows.Next() {
		var im Import
		var warn, at string
		if err := rows.Scan(&im.ID, &im.ReportID, &im.CandidateID, &im.FileName, &im.SHA256, &im.Format, &im.FormatVersion, &im.ToolVersion,
			&im.Model, &im.SizeBytes, &warn, &im.User, &at, &im.Rows); err != nil {
			return nil, err
		}
		json.Unmarshal([]byte(warn), &im.Warnings)
		im.At = parseStamp(at)
		out = append(out, im)
	}
	return out, rows.Err()
}

// RemoveImport takes an import's rows out of the report (the record stays,
// marked removed, and the history says so).
func (s *Store) RemoveImport(ctx context.Context, e Edit, importID int64) error {
	return s.Update(ctx, e, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE imports SET removed_at = ?, removed_by = ? WHERE id = ? AND report_id = ? AND removed_at = ''`,
			stamp(s.now()), e.UserID, importID, e.ReportID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return nil
	})
}

// Rows returns the rows of the report's live imports, with what the lead
// typed in about each, in import then file order.
func (s *Store) Rows(ctx context.Context, reportID int64) ([]StoredRow, error) {
	return s.RowsReusing(ctx, reportID, nil)
}

// RowsReusing is Rows taking the figures and per-request records of rows
// it is given (by row id) instead of decoding them again: a stored row's
// figures never change, only what the lead typed in about it (Observed),
// which is read afresh. The rows returned share the given rows' pointers
// and per-request records, so neither may be changed in place.
func (s *Store) RowsReusing(ctx context.Context, reportID int64, known map[int64]*StoredRow) ([]StoredRow, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT r.id, r.import_id, COALESCE(i.candidate_id, 0), r.data, r.observed, r.samples
		FROM result_rows r JOIN imports i ON i.id = r.import_id
		WHERE r.report_id = ? AND i.removed_at = '' ORDER BY i.id, r.idx`, reportID)
	if err != nil {
		return nil, fmt.Errorf("store: rows: %w", err)
	}
	defer rows.Close()
	var out []StoredRow
	for rows.Next() {
		var sr StoredRow
		var data, samples sql.RawBytes
		var obs string
		if err := rows.Scan(&sr.ID, &sr.ImportID, &sr.CandidateID, &data, &obs, &samples); err != nil {
			return nil, err
		}
		if k, ok := known[sr.ID]; ok && k.ImportID == sr.ImportID {
			sr.Row = k.Row
			sr.Row.Observed = planner.Observed{} // decoded afresh below, never into the shared one
		} else {
			var j storedRowJSON
			if err := json.Unmarshal(data, &j); err != nil {
				return nil, fmt.Errorf("store: row %d: %w", sr.ID, err)
			}
			sr.Row = j.Row
			sr.Row.Source = j.Source
			if sr.Row.Samples, err = decodeSamples(samples); err != nil {
				return nil, fmt.Errorf("store: row %d: %w", sr.ID, err)
			}
		}
		if err := json.Unmarshal([]byte(obs), &sr.Row.Observed); err != nil {
			return nil, fmt.Errorf("store: row %d observed: %w", sr.ID, err)
		}
		out = append(out, sr)
	}
	return out, rows.Err()
}

// SetObserved saves what the lead typed in about one row.
func (s *Store) SetObserved(ctx context.Context, e Edit, rowID int64, o planner.Observed) error {
	data, _ := json.Marshal(o)
	return s.Update(ctx, e, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE result_rows SET observed = ? WHERE id = ? AND report_id = ?`, string(data), rowID, e.ReportID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return nil
	})
}

// HasResults reports whether any result rows are imported into the report
// (imports that were removed do not count).
func (s *Store) HasResults(ctx context.Context, reportID int64) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM result_rows r JOIN imports i ON i.id = r.import_id
		WHERE r.report_id = ? AND i.removed_at = ''`, reportID).Scan(&n)
	return n > 0, err
}

// ImportsOfContent counts the imports, removed or not, whose raw file has
// this sha256: the raw file is kept while one does.
func (s *Store) ImportsOfContent(ctx context.Context, sha string) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM imports WHERE sha256 = ?`, sha).Scan(&n)
	return n, err
}
