package store

import (
	"context"
	"database/sql"
	"fmt"
)

// ReviewStatus is where a report stands in the review workflow as people
// read it: its state and, for a draft a reviewer sent back that has not
// been submitted again since, the reviewer's comment (who, when, why).
type ReviewStatus struct {
	State    State
	SentBack *Comment
}

// Label is "draft", "in review", "approved" or "sent back".
func (st ReviewStatus) Label() string {
	if st.SentBack != nil {
		return "sent back"
	}
	return st.State.Label()
}

// SentBack returns the comment that sent a draft back, or nil. Only
// sending back writes a comment on the "review" section, a new report or a
// revision starts without one, and submitting moves the report out of
// draft; so a draft with such a comment was sent back, by its latest one,
// and is no longer "sent back" once submitted again.
func SentBack(state State, comments []Comment) *Comment {
	if state != StateDraft && state != "" {
		return nil
	}
	for i := len(comments) - 1; i >= 0; i-- {
		if comments[i].Section == reviewSection {
			c := comments[i]
			return &c
		}
	}
	return nil
}

// reviewSection is the section of the comment recorded with a send-back.
const reviewSection = "review"

// ReviewStatuses returns every report's review status by report id, in one
// query, by the rule of SentBack.
func (s *Store) ReviewStatuses(ctx context.Context) (map[int64]ReviewStatus, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT r.id, r.state, c.id, COALESCE(NULLIF(u.name, ''), u.email, ''), c.at, c.body
		FROM reports r
		LEFT JOIN comments c ON r.state = 'draft' AND c.id = (SELECT MAX(id) FROM comments WHERE report_id = r.id AND section = ?)
		LEFT JOIN users u ON u.id = c.user_id`, reviewSection)
	if err != nil {
		return nil, fmt.Errorf("store: review statuses: %w", err)
	}
	defer rows.Close()
	out := map[int64]ReviewStatus{}
	for rows.Next() {
		var id int64
		var st ReviewStatus
		var cid sql.NullInt64
		var user, at, body sql.NullString
		if err := rows.Scan(&id, &st.State, &cid, &user, &at, &body); err != nil {
			return nil, fmt.Errorf("store: review statuses: %w", err)
		}
		if cid.Valid {
			st.SentBack = &Comment{ID: cid.Int64, Section: reviewSection, User: user.String, At: parseStamp(at.String), Body: body.String}
		}
		out[id] = st
	}
	return out, rows.Err()
}
