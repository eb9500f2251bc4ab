package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"capplan/planner"
)

// Candidate is one model variant of a report as stored: its identity and
// the planner.Candidate without rows (its rows are the imports attached to
// it, Import.CandidateID).
type Candidate struct {
	ID       int64
	ReportID int64
	planner.Candidate
}

// Candidates lists the report's candidates in the order they were added.
func (s *Store) Candidates(ctx context.Context, reportID int64) ([]Candidate, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, report_id, name, data FROM candidates WHERE report_id = ? ORDER BY id`, reportID)
	if err != nil {
		return nil, fmt.Errorf("store: candidates: %w", err)
	}
	defer rows.Close()
	var out []Candidate
	for rows.Next() {
		var c Candidate
		var name, data string
		if err := rows.Scan(&c.ID, &c.ReportID, &name, &data); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(data), &c.Candidate); err != nil {
			return nil, fmt.Errorf("store: candidate %d: %w", c.ID, err)
		}
		c.Name = name
		out = append(out, c)
	}
	return out, rows.Err()
}

// SaveCandidate adds a candidate (id 0) or replaces one, as one change to
// the report; it returns the candidate's id. Names are unique per report.
func (s *Store) SaveCandidate(ctx context.Context, e Edit, id int64, c planner.Candidate) (int64, error) {
	c.Rows = nil
	c.Name = strings.TrimSpace(c.Name)
	if c.Name == "" {
		return 0, inputErr("name", "required")
	}
	data, err := json.Marshal(c)
	if err != nil {
		return 0, err
	}
	err = s.Update(ctx, e, func(tx *sql.Tx) error {
		var other int64
		err := tx.QueryRowContext(ctx, `SELECT id FROM candidates WHERE report_id = ? AND name = ? AND id <> ?`, e.ReportID, c.Name, id).Scan(&other)
		if err == nil {
			return inputErr("name", fmt.Sprintf("the report already has a candidate named %q", c.Name))
		} else if err != sql.ErrNoRows {
			return err
		}
		if id == 0 {
			res, err := tx.ExecContext(ctx, `INSERT INTO candidates (report_id, name, data) VALUES (?, ?, ?)`, e.ReportID, c.Name, string(data))
			if err != nil {
				return fmt.Errorf("store: add candidate: %w", err)
			}
			id, _ = res.LastInsertId()
			return nil
		}
		res, err := tx.ExecContext(ctx, `UPDATE candidates SET name = ?, data = ? WHERE id = ? AND report_id = ?`, c.Name, string(data), id, e.ReportID)
		if err != nil {
			return fmt.Errorf("store: save candidate: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return nil
	})
	return id, err
}

// RemoveCandidate deletes a candidate that has no live imports; a
// candidate with imported rows keeps them until its imports are removed.
func (s *Store) RemoveCandidate(ctx context.Context, e Edit, id int64) error {
	return s.Update(ctx, e, func(tx *sql.Tx) error {
		var live int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM imports WHERE candidate_id = ? AND report_id = ? AND removed_at = ''`, id, e.ReportID).Scan(&live); err != nil {
			return err
		}
		if live > 0 {
			return inputErr("candidate", fmt.Sprintf("remove its %d import(s) first: a candidate's imported rows are not deleted with it", live))
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM candidates WHERE id = ? AND report_id = ?`, id, e.ReportID)
		if err != nil {
			return fmt.Errorf("store: remove candidate: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return nil
	})
}
