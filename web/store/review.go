package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// State is where a report stands in the review workflow.
type State string

// The review states. A draft is being written; a report in review waits for
// a reviewer; an approved report is read-only for everyone (a change needs
// a new revision).
const (
	StateDraft    State = "draft"
	StateInReview State = "in_review"
	StateApproved State = "approved"
)

// Label is the state as people read it.
func (s State) Label() string {
	switch s {
	case StateInReview:
		return "in review"
	case "":
		return string(StateDraft)
	}
	return string(s)
}

// Review is a report's review state and its place in a chain of revisions.
type Review struct {
	State      State
	ApprovedAt time.Time
	ApprovedBy string
	// PredecessorID is the approved report this one revises (0: none);
	// Successors are the revisions started from this one.
	PredecessorID int64
	Successors    []int64
	// Withdrawn: the report's latest review step was its editors
	// withdrawing it from review (ActionWithdrawn), so it is a draft they
	// took back, not one a reviewer sent back.
	Withdrawn bool
}

// Approved reports whether the report is approved, hence read-only.
func (r Review) Approved() bool { return r.State == StateApproved }

// Snapshot returns the inputs kept when the report was approved and when;
// ok is false when it has none.
func (s *Store) Snapshot(ctx context.Context, reportID int64) (inputs []byte, at time.Time, ok bool, err error) {
	var data, stampAt string
	err = s.r.QueryRowContext(ctx, `SELECT inputs, at FROM snapshots WHERE report_id = ? ORDER BY id DESC LIMIT 1`, reportID).Scan(&data, &stampAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, time.Time{}, false, nil
	}
	if err != nil {
		return nil, time.Time{}, false, fmt.Errorf("store: snapshot: %w", err)
	}
	return []byte(data), parseStamp(stampAt), true, nil
}

// Comment is a remark on one section of a report.
type Comment struct {
	ID      int64
	Section string
	User    string
	At      time.Time
	Body    string
}

// ReadOnlyError refuses a change to an approved report. It unwraps to an
// *InputError, so handlers show its text to the user.
type ReadOnlyError struct {
	ReportID   int64
	ApprovedBy string
	ApprovedAt time.Time
}

func (e *ReadOnlyError) Error() string {
	return fmt.Sprintf("report %d was approved by %s on %s and is read-only: start a new revision to change it",
		e.ReportID, e.ApprovedBy, e.ApprovedAt.UTC().Format("2006-01-02"))
}

// Unwrap makes the refusal a user error.
func (e *ReadOnlyError) Unwrap() error { return &InputError{Field: "report", Msg: e.Error()} }

// InReviewError refuses a change to a report in review: it is read-only
// until a reviewer sends it back or its editors withdraw it. It unwraps to
// an *InputError, so handlers show its text to the user.
type InReviewError struct{ ReportID int64 }

func (e *InReviewError) Error() string {
	return fmt.Sprintf("report %d is in review and read-only until a reviewer sends it back or its editors withdraw it from review", e.ReportID)
}

// Unwrap makes the refusal a user error.
func (e *InReviewError) Unwrap() error { return &InputError{Field: "report", Msg: e.Error()} }

// refuseInReview is the review lock, checked by Update before any change
// other than a review step.
func refuseInReview(ctx context.Context, tx *sql.Tx, reportID int64) error {
	var st State
	if err := tx.QueryRowContext(ctx, `SELECT state FROM reports WHERE id = ?`, reportID).Scan(&st); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		return err
	}
	if st == StateInReview {
		return &InReviewError{ReportID: reportID}
	}
	return nil
}

// Review returns the report's review state and revision links.
func (s *Store) Review(ctx context.Context, reportID int64) (Review, error) {
	return review(ctx, s.r, reportID)
}

type rowQuerier interface {
	querier
	QueryRowContext(context.Context, string, ...any) *sql.Row
}

func review(ctx context.Context, q rowQuerier, reportID int64) (Review, error) {
	var rv Review
	var at string
	err := q.QueryRowContext(ctx, `SELECT r.state, r.approved_at, COALESCE(NULLIF(u.name, ''), u.email, ''), COALESCE(r.predecessor_id, 0),
			r.state = 'draft' AND COALESCE((`+latestReviewStep+`), '') = ?
		FROM reports r LEFT JOIN users u ON u.id = r.approved_by WHERE r.id = ?`, reviewSection, ActionWithdrawn, reportID).Scan(&rv.State, &at, &rv.ApprovedBy, &rv.PredecessorID, &rv.Withdrawn)
	if errors.Is(err, sql.ErrNoRows) {
		return Review{}, ErrNotFound
	}
	if err != nil {
		return Review{}, fmt.Errorf("store: review: %w", err)
	}
	rv.ApprovedAt = parseStamp(at)
	rows, err := q.QueryContext(ctx, `SELECT id FROM reports WHERE predecessor_id = ? ORDER BY id`, reportID)
	if err != nil {
		return Review{}, fmt.Errorf("store: review: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return Review{}, err
		}
		rv.Successors = append(rv.Successors, id)
	}
	return rv, rows.Err()
}

// refuseApproved is the read-only rule, checked by Update before any change.
func refuseApproved(ctx context.Context, tx *sql.Tx, reportID int64) error {
	rv, err := review(ctx, tx, reportID)
	if err != nil {
		return err
	}
	if rv.Approved() {
		return &ReadOnlyError{ReportID: reportID, ApprovedBy: rv.ApprovedBy, ApprovedAt: rv.ApprovedAt}
	}
	return nil
}

// transitions are the allowed moves of the workflow, by target state.
var transitions = map[State]State{
	StateInReview: StateDraft,    // submit: draft → in review
	StateApproved: StateInReview, // approve: in review → approved
}

// Transition moves the report to state to (submit, approve, or send back
// or withdraw to draft) as one change: version check, history entry e,
// and, when comment is not empty, the comment recorded on the "review"
// section. Approving records who and when.
func (s *Store) Transition(ctx context.Context, e Edit, to State, comment string) error {
	return s.transition(ctx, e, to, comment, nil)
}

// Approve moves a report in review to approved, as Transition does, and
// keeps snapshot (every input the report was computed from, as JSON) with
// it in the same change: an approved report is computed from its snapshot
// ever after, so later library edits never move it.
func (s *Store) Approve(ctx context.Context, e Edit, snapshot []byte) error {
	return s.transition(ctx, e, StateApproved, "", snapshot)
}

func (s *Store) transition(ctx context.Context, e Edit, to State, comment string, snapshot []byte) error {
	e.Review = true
	return s.Update(ctx, e, func(tx *sql.Tx) error {
		var cur State
		if err := tx.QueryRowContext(ctx, `SELECT state FROM reports WHERE id = ?`, e.ReportID).Scan(&cur); err != nil {
			return err
		}
		from, ok := transitions[to]
		if to == StateDraft {
			from, ok = StateInReview, true // send back, withdraw
		}
		if !ok || cur != from {
			return inputErr("state", fmt.Sprintf("the report is %s; only a report %s can become %s", cur.Label(), from.Label(), to.Label()))
		}
		now := stamp(s.now())
		if to == StateApproved {
			_, err := tx.ExecContext(ctx, `UPDATE reports SET state = ?, approved_at = ?, approved_by = ? WHERE id = ?`, to, now, e.UserID, e.ReportID)
			if err != nil {
				return fmt.Errorf("store: approve: %w", err)
			}
			if snapshot != nil {
				if _, err := tx.ExecContext(ctx, `INSERT INTO snapshots (report_id, at, inputs) VALUES (?, ?, ?)`, e.ReportID, now, string(snapshot)); err != nil {
					return fmt.Errorf("store: snapshot: %w", err)
				}
			}
		} else if _, err := tx.ExecContext(ctx, `UPDATE reports SET state = ? WHERE id = ?`, to, e.ReportID); err != nil {
			return fmt.Errorf("store: state: %w", err)
		}
		if strings.TrimSpace(comment) != "" {
			return addComment(ctx, tx, e.ReportID, e.UserID, now, "review", comment)
		}
		return nil
	})
}

// AddComment records a comment on a section and its history entry. A
// comment does not change the report, so its version stays (open forms stay
// valid); an approved report takes no more comments.
func (s *Store) AddComment(ctx context.Context, reportID, userID int64, section, body string) error {
	section, body = strings.TrimSpace(section), strings.TrimSpace(body)
	if section == "" {
		return inputErr("section", "required: say which section the comment is about")
	}
	if body == "" {
		return inputErr("comment", "required: write the comment")
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		if err := refuseApproved(ctx, tx, reportID); err != nil {
			return err
		}
		var version int
		if err := tx.QueryRowContext(ctx, `SELECT version FROM reports WHERE id = ?`, reportID).Scan(&version); err != nil {
			return err
		}
		now := stamp(s.now())
		if err := addComment(ctx, tx, reportID, userID, now, section, body); err != nil {
			return err
		}
		return addHistory(ctx, tx, reportID, version, userID, now, "commented", section, "", body)
	})
}

func addComment(ctx context.Context, tx *sql.Tx, reportID, userID int64, at, section, body string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO comments (report_id, section, user_id, at, body) VALUES (?, ?, ?, ?, ?)`,
		reportID, section, userID, at, strings.TrimSpace(body))
	if err != nil {
		return fmt.Errorf("store: comment: %w", err)
	}
	return nil
}

// Comments lists a report's comments, oldest first.
func (s *Store) Comments(ctx context.Context, reportID int64) ([]Comment, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT c.id, c.section, COALESCE(NULLIF(u.name, ''), u.email), c.at, c.body
		FROM comments c JOIN users u ON u.id = c.user_id WHERE c.report_id = ? ORDER BY c.id`, reportID)
	if err != nil {
		return nil, fmt.Errorf("store: comments: %w", err)
	}
	defer rows.Close()
	var out []Comment
	for rows.Next() {
		var c Comment
		var at string
		if err := rows.Scan(&c.ID, &c.Section, &c.User, &at, &c.Body); err != nil {
			return nil, err
		}
		c.At = parseStamp(at)
		out = append(out, c)
	}
	return out, rows.Err()
}

// QuoteRequest is a comment on a report's API quotes: someone asking
// finance for a quote to be added to the library.
type QuoteRequest struct {
	Comment
	ReportID    int64
	ReportTitle string
}

// QuoteRequests are the comments on the API quotes of reports not yet
// approved, newest first, at most limit: the requests finance sees in the
// quote library.
func (s *Store) QuoteRequests(ctx context.Context, limit int) ([]QuoteRequest, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT c.id, c.section, COALESCE(NULLIF(u.name, ''), u.email), c.at, c.body, r.id, r.title
		FROM comments c JOIN users u ON u.id = c.user_id JOIN reports r ON r.id = c.report_id
		WHERE c.section = 'quotes' AND r.state != ? ORDER BY c.id DESC LIMIT ?`, StateApproved, limit)
	if err != nil {
		return nil, fmt.Errorf("store: quote requests: %w", err)
	}
	defer rows.Close()
	var out []QuoteRequest
	for rows.Next() {
		var q QuoteRequest
		var at string
		if err := rows.Scan(&q.ID, &q.Section, &q.User, &at, &q.Body, &q.ReportID, &q.ReportTitle); err != nil {
			return nil, err
		}
		q.At = parseStamp(at)
		out = append(out, q)
	}
	return out, rows.Err()
}

// Revise starts a new revision of an approved report: a draft copy of
// everything the report holds (contract and its freeze, amendments,
// editors, sections, candidates, imports with their rows, attached quotes)
// linked to its predecessor. Both keep their history; each records the
// link. Only one revision may be started from a report.
func (s *Store) Revise(ctx context.Context, by User, reportID int64) (int64, error) {
	var id int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		rv, err := review(ctx, tx, reportID)
		if err != nil {
			return err
		}
		if !rv.Approved() {
			return inputErr("state", fmt.Sprintf("the report is %s; only an approved report can be revised (edit this one instead)", rv.State.Label()))
		}
		if len(rv.Successors) > 0 {
			return inputErr("state", fmt.Sprintf("a revision of this report already exists: report %d", rv.Successors[0]))
		}
		now := stamp(s.now())
		res, err := tx.ExecContext(ctx, `INSERT INTO reports (title, owner_id, version, contract, frozen_at, frozen_by, created_at, updated_at, state, predecessor_id)
			SELECT title, owner_id, 1, contract, frozen_at, frozen_by, ?, ?, 'draft', id FROM reports WHERE id = ?`, now, now, reportID)
		if err != nil {
			return fmt.Errorf("store: revise: %w", err)
		}
		id, _ = res.LastInsertId()
		if err := copyReport(ctx, tx, reportID, id); err != nil {
			return fmt.Errorf("store: revise: %w", err)
		}
		var version int
		if err := tx.QueryRowContext(ctx, `SELECT version FROM reports WHERE id = ?`, reportID).Scan(&version); err != nil {
			return err
		}
		if err := addHistory(ctx, tx, reportID, version, by.ID, now, "revision started", "report", "", fmt.Sprintf("report %d", id)); err != nil {
			return err
		}
		return addHistory(ctx, tx, id, 1, by.ID, now, "created as a revision", "report", fmt.Sprintf("report %d (approved)", reportID), "draft")
	})
	return id, err
}

// copyReport copies a report's dependent records from one report to another.
func copyReport(ctx context.Context, tx *sql.Tx, from, to int64) error {
	for _, q := range []string{
		`INSERT INTO report_editors (report_id, user_id) SELECT ?, user_id FROM report_editors WHERE report_id = ?`,
		`INSERT INTO amendments (report_id, field, old_value, new_value, reason, loosened, results_existed, user_id, at)
			SELECT ?, field, old_value, new_value, reason, loosened, results_existed, user_id, at FROM amendments WHERE report_id = ? ORDER BY id`,
		`INSERT INTO report_sections (report_id, section, data) SELECT ?, section, data FROM report_sections WHERE report_id = ?`,
		`INSERT INTO candidates (report_id, name, data) SELECT ?, name, data FROM candidates WHERE report_id = ? ORDER BY id`,
	} {
		if _, err := tx.ExecContext(ctx, q, to, from); err != nil {
			return err
		}
	}
	// Imports keep their candidate, found again by name in the copy.
	if _, err := tx.ExecContext(ctx, `INSERT INTO imports (report_id, candidate_id, file_name, sha256, format, format_version, tool_version, model, size_bytes, warnings, user_id, at)
		SELECT ?, (SELECT nc.id FROM candidates oc JOIN candidates nc ON nc.name = oc.name AND nc.report_id = ? WHERE oc.id = i.candidate_id),
			file_name, sha256, format, format_version, tool_version, model, size_bytes, warnings, user_id, at
		FROM imports i WHERE report_id = ? AND removed_at = '' ORDER BY id`, to, to, from); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO result_rows (import_id, report_id, idx, data, observed, samples)
		SELECT ni.id, ?, r.idx, r.data, r.observed, r.samples FROM result_rows r
		JOIN imports oi ON oi.id = r.import_id AND oi.removed_at = ''
		JOIN imports ni ON ni.report_id = ? AND ni.sha256 = oi.sha256
		WHERE r.report_id = ? ORDER BY r.id`, to, to, from); err != nil {
		return err
	}
	if ok, err := tableExists(ctx, tx, "report_quotes"); err != nil {
		return err
	} else if ok {
		if _, err := tx.ExecContext(ctx, `INSERT INTO report_quotes (report_id, quote_id, attached_by, attached_at)
			SELECT ?, quote_id, attached_by, attached_at FROM report_quotes WHERE report_id = ?`, to, from); err != nil {
			return err
		}
	}
	return nil
}

func tableExists(ctx context.Context, tx *sql.Tx, name string) (bool, error) {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?`, name).Scan(&n)
	return n > 0, err
}
