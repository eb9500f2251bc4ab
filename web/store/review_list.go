package store

import (
	"context"
	"database/sql"
	"fmt"
)

// ReviewStatus is where a report stands in the review workflow as people
// read it: its state and, for a draft a reviewer sent back that has not
// been submitted again (or withdrawn from review) since, the reviewer's
// comment (who, when, why).
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

// The history actions of the two review steps that return a report in
// review to draft: a reviewer sending it back (with a comment on the
// "review" section) and its editors withdrawing it (without one).
const (
	ActionSentBack  = "sent back"
	ActionWithdrawn = "withdrawn from review"
)

// SentBack returns the comment that sent draft rv back, or nil. Only
// sending back writes a comment on the "review" section, a new report or a
// revision starts without one, and submitting moves the report out of
// draft; so a draft with such a comment was sent back, by its latest one,
// and is no longer "sent back" once submitted again. A draft its editors
// withdrew from review after submitting it again (rv.Withdrawn) is their
// draft, not the reviewer's send-back.
func SentBack(rv Review, comments []Comment) *Comment {
	if (rv.State != StateDraft && rv.State != "") || rv.Withdrawn {
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

// reviewSection is the section of the comment recorded with a send-back,
// and of every review step's history entry.
const reviewSection = "review"

// latestReviewStep is a subquery: the history action of report r's latest
// review step (NULL for none), given the review section.
const latestReviewStep = `SELECT action FROM history WHERE report_id = r.id AND section = ? ORDER BY id DESC LIMIT 1`

// ReviewStatuses returns every report's review status by report id, in one
// query, by the rule of SentBack.
func (s *Store) ReviewStatuses(ctx context.Context) (map[int64]ReviewStatus, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT r.id, r.state, c.id, COALESCE(NULLIF(u.name, ''), u.email, ''), c.at, c.body
		FROM reports r
		LEFT JOIN comments c ON r.state = 'draft' AND COALESCE((`+latestReviewStep+`), '') != ?
			AND c.id = (SELECT MAX(id) FROM comments WHERE report_id = r.id AND section = ?)
		LEFT JOIN users u ON u.id = c.user_id`, reviewSection, ActionWithdrawn, reviewSection)
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
