package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// Section reads a typed-in report section into v; ok is false (and v left
// alone) when it was never saved.
func (s *Store) Section(ctx context.Context, reportID int64, name string, v any) (ok bool, err error) {
	var data string
	err = s.r.QueryRowContext(ctx, `SELECT data FROM report_sections WHERE report_id = ? AND section = ?`, reportID, name).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: section %s: %w", name, err)
	}
	if err := json.Unmarshal([]byte(data), v); err != nil {
		return false, fmt.Errorf("store: section %s: %w", name, err)
	}
	return true, nil
}

// SaveSection replaces a report section with v, as one change to the report
// (version check and history entry included).
func (s *Store) SaveSection(ctx context.Context, e Edit, name string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("store: section %s: %w", name, err)
	}
	return s.Update(ctx, e, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO report_sections (report_id, section, data) VALUES (?, ?, ?)
			ON CONFLICT (report_id, section) DO UPDATE SET data = excluded.data`, e.ReportID, name, string(data))
		return err
	})
}

// Sections reads every saved section of a report in one query and
// decodes each into the value named for it in into; sections not saved
// leave their value alone.
func (s *Store) Sections(ctx context.Context, reportID int64, into map[string]any) error {
	rows, err := s.r.QueryContext(ctx, `SELECT section, data FROM report_sections WHERE report_id = ?`, reportID)
	if err != nil {
		return fmt.Errorf("store: sections: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var name, data string
		if err := rows.Scan(&name, &data); err != nil {
			return err
		}
		v, ok := into[name]
		if !ok {
			continue
		}
		if err := json.Unmarshal([]byte(data), v); err != nil {
			return fmt.Errorf("store: section %s: %w", name, err)
		}
	}
	return rows.Err()
}
