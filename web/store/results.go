package store

import "context"

// HasResults reports whether any result rows are imported into the report
// (imports that were removed do not count).
func (s *Store) HasResults(ctx context.Context, reportID int64) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM result_rows r JOIN imports i ON i.id = r.import_id
		WHERE r.report_id = ? AND i.removed_at = ''`, reportID).Scan(&n)
	return n > 0, err
}
