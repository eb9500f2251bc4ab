package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"capplan/planner"
)

// Report is a capacity-and-cost report as stored: its header and contract.
type Report struct {
	ID        int64
	Title     string
	OwnerID   int64
	Owner     string // display name of the owner
	Version   int
	Contract  planner.Contract
	FrozenAt  time.Time
	FrozenBy  string
	CreatedAt time.Time
	UpdatedAt time.Time
	Editors   []User // leads other than the owner who may edit
}

// Frozen reports whether the contract has been frozen.
func (r Report) Frozen() bool { return !r.FrozenAt.IsZero() }

// CanEdit reports whether u may change the report: admins, the owner, and
// leads added as editors.
func (r Report) CanEdit(u User) bool {
	if u.Role == RoleAdmin {
		return true
	}
	if u.Role != RoleLead {
		return false
	}
	if r.OwnerID == u.ID {
		return true
	}
	for _, e := range r.Editors {
		if e.ID == u.ID {
			return true
		}
	}
	return false
}

// Change is one entry of a report's history.
type Change struct {
	ID      int64
	Version int
	User    string
	At      time.Time
	Action  string
	Section string
	Before  string
	After   string
}

// Amendment is a change to a frozen contract's objective, workload or rows.
type Amendment struct {
	ID             int64
	Field          string
	Old, New       string
	Reason         string
	Loosened       bool
	ResultsExisted bool
	User           string
	At             time.Time
}

// ConflictError is returned when a save is based on a stale version of
// its section: it carries the changes made to that section since, so the
// user can see what moved.
type ConflictError struct {
	Section       string // the section that changed; "" for the whole report
	Base, Current int
	Since         []Change
}

func (e *ConflictError) Error() string {
	if e.Section == "" || WholeReport(e.Section) {
		return fmt.Sprintf("the report changed since you opened it (your version %d, now %d)", e.Base, e.Current)
	}
	return fmt.Sprintf("this part of the report (%s) changed since you opened it (your version %d, now %d)", e.Section, e.Base, e.Current)
}

// Unwrap makes errors.Is(err, ErrConflict) true.
func (e *ConflictError) Unwrap() error { return ErrConflict }

// WholeReport reports whether a change to section is judged against the
// whole report rather than the section alone: a review step (approving
// means approving everything seen) and changes that name no section.
func WholeReport(section string) bool { return section == "" || section == "review" }

// CreateReport creates an empty report owned by owner.
func (s *Store) CreateReport(ctx context.Context, owner User, title string) (int64, error) {
	title = strings.TrimSpace(title)
	if title == "" {
		return 0, inputErr("title", "required")
	}
	var id int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		now := stamp(s.now())
		c, _ := json.Marshal(planner.Contract{})
		res, err := tx.ExecContext(ctx, `INSERT INTO reports (title, owner_id, contract, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
			title, owner.ID, string(c), now, now)
		if err != nil {
			return fmt.Errorf("store: create report: %w", err)
		}
		id, _ = res.LastInsertId()
		return addHistory(ctx, tx, id, 1, owner.ID, now, "created", "report", "", title)
	})
	return id, err
}

// Reports lists every report, newest first.
func (s *Store) Reports(ctx context.Context) ([]Report, error) {
	rows, err := s.r.QueryContext(ctx, reportSelect+` ORDER BY r.updated_at DESC, r.id DESC`)
	if err != nil {
		return nil, fmt.Errorf("store: reports: %w", err)
	}
	defer rows.Close()
	var out []Report
	for rows.Next() {
		r, err := scanReport(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Report returns one report with its editors.
func (s *Store) Report(ctx context.Context, id int64) (Report, error) {
	r, err := scanReport(s.r.QueryRowContext(ctx, reportSelect+` WHERE r.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Report{}, ErrNotFound
	}
	if err != nil {
		return Report{}, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT u.id, u.email, u.name, u.role, u.created_at FROM report_editors e JOIN users u ON u.id = e.user_id WHERE e.report_id = ? ORDER BY u.email`, id)
	if err != nil {
		return Report{}, err
	}
	defer rows.Close()
	for rows.Next() {
		u, err := scanUser(rows)
		if err != nil {
			return Report{}, err
		}
		r.Editors = append(r.Editors, u)
	}
	return r, rows.Err()
}

const reportSelect = `SELECT r.id, r.title, r.owner_id, COALESCE(NULLIF(o.name, ''), o.email), r.version, r.contract,
	r.frozen_at, COALESCE(NULLIF(f.name, ''), f.email, ''), r.created_at, r.updated_at
	FROM reports r JOIN users o ON o.id = r.owner_id LEFT JOIN users f ON f.id = r.frozen_by`

func scanReport(row scanner) (Report, error) {
	var r Report
	var contract, frozen, created, updated string
	if err := row.Scan(&r.ID, &r.Title, &r.OwnerID, &r.Owner, &r.Version, &contract, &frozen, &r.FrozenBy, &created, &updated); err != nil {
		return Report{}, err
	}
	if err := json.Unmarshal([]byte(contract), &r.Contract); err != nil {
		return Report{}, fmt.Errorf("store: report %d contract: %w", r.ID, err)
	}
	r.FrozenAt, r.CreatedAt, r.UpdatedAt = parseStamp(frozen), parseStamp(created), parseStamp(updated)
	return r, nil
}

// Edit is one change to a report made by one user from a known version.
type Edit struct {
	ReportID    int64
	BaseVersion int
	UserID      int64
	Action      string // e.g. "contract edited"
	Section     string // the report section it touched, e.g. "contract"
	Before      string // shown in the history
	After       string
	// Review is true for the review workflow's own steps (approve, send
	// back, a reviewer's acceptance), the only changes a report in review
	// takes.
	Review bool
}

// bump checks the base version, increases the report's version and
// records the history entry, all inside tx. It returns the new version.
//
// Concurrency is per section: a save based on version b is refused only
// when its own section changed after b (or, for a whole-report change such
// as a review step, when anything did). Saves of other sections merge.
func (s *Store) bump(ctx context.Context, tx *sql.Tx, e Edit) (int, error) {
	var cur int
	if err := tx.QueryRowContext(ctx, `SELECT version FROM reports WHERE id = ?`, e.ReportID).Scan(&cur); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return 0, ErrNotFound
		}
		return 0, err
	}
	if e.BaseVersion != cur {
		stale := e.BaseVersion > cur || WholeReport(e.Section)
		if !stale {
			var changed int
			err := tx.QueryRowContext(ctx, `SELECT version FROM section_versions WHERE report_id = ? AND section = ?`, e.ReportID, e.Section).Scan(&changed)
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return 0, err
			}
			stale = changed > e.BaseVersion
		}
		if stale {
			since, err := changesSince(ctx, tx, e.ReportID, e.BaseVersion, e.Section)
			if err != nil {
				return 0, err
			}
			return 0, &ConflictError{Section: e.Section, Base: e.BaseVersion, Current: cur, Since: since}
		}
	}
	now := stamp(s.now())
	if _, err := tx.ExecContext(ctx, `UPDATE reports SET version = version + 1, updated_at = ? WHERE id = ?`, now, e.ReportID); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO section_versions (report_id, section, version) VALUES (?, ?, ?)
		ON CONFLICT (report_id, section) DO UPDATE SET version = excluded.version`, e.ReportID, e.Section, cur+1); err != nil {
		return 0, fmt.Errorf("store: section version: %w", err)
	}
	return cur + 1, addHistory(ctx, tx, e.ReportID, cur+1, e.UserID, now, e.Action, e.Section, e.Before, e.After)
}

// Update applies fn inside a write transaction after the version check, and
// records e in the history. It is the one path for changing a report. An
// approved report is read-only: Update refuses it with a *ReadOnlyError. A
// report in review is read-only too, until it is sent back, except for the
// review steps themselves (e.Review).
func (s *Store) Update(ctx context.Context, e Edit, fn func(tx *sql.Tx) error) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		if err := refuseApproved(ctx, tx, e.ReportID); err != nil {
			return err
		}
		if !e.Review {
			if err := refuseInReview(ctx, tx, e.ReportID); err != nil {
				return err
			}
		}
		if _, err := s.bump(ctx, tx, e); err != nil {
			return err
		}
		if fn == nil {
			return nil
		}
		return fn(tx)
	})
}

// SaveContract replaces the contract, with its amendments when frozen
// (planner.Amend decides what they are and refuses them without a reason).
func (s *Store) SaveContract(ctx context.Context, e Edit, c planner.Contract, amend []planner.Amendment) error {
	body, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return s.Update(ctx, e, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE reports SET contract = ? WHERE id = ?`, string(body), e.ReportID); err != nil {
			return fmt.Errorf("store: save contract: %w", err)
		}
		for _, a := range amend {
			if _, err := tx.ExecContext(ctx, `INSERT INTO amendments (report_id, field, old_value, new_value, reason, loosened, results_existed, user_id, at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, e.ReportID, a.Field, a.OldValue, a.NewValue, a.Reason, a.Loosened, a.ResultsExisted, e.UserID, stamp(s.now())); err != nil {
				return fmt.Errorf("store: amendment: %w", err)
			}
		}
		return nil
	})
}

// RenameReport changes the title.
func (s *Store) RenameReport(ctx context.Context, e Edit, title string) error {
	title = strings.TrimSpace(title)
	if title == "" {
		return inputErr("title", "required")
	}
	return s.Update(ctx, e, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE reports SET title = ? WHERE id = ?`, title, e.ReportID)
		return err
	})
}

// Freeze freezes the contract, recording who and when.
func (s *Store) Freeze(ctx context.Context, e Edit) error {
	return s.Update(ctx, e, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE reports SET frozen_at = ?, frozen_by = ? WHERE id = ? AND frozen_at = ''`, stamp(s.now()), e.UserID, e.ReportID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return inputErr("contract", "already frozen")
		}
		return nil
	})
}

// SetEditors replaces the report's extra editors.
func (s *Store) SetEditors(ctx context.Context, e Edit, userIDs []int64) error {
	return s.Update(ctx, e, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM report_editors WHERE report_id = ?`, e.ReportID); err != nil {
			return err
		}
		for _, id := range userIDs {
			if _, err := tx.ExecContext(ctx, `INSERT INTO report_editors (report_id, user_id) VALUES (?, ?)`, e.ReportID, id); err != nil {
				return err
			}
		}
		return nil
	})
}

// Amendments lists a report's amendments, oldest first.
func (s *Store) Amendments(ctx context.Context, reportID int64) ([]Amendment, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT a.id, a.field, a.old_value, a.new_value, a.reason, a.loosened, a.results_existed,
		COALESCE(NULLIF(u.name, ''), u.email), a.at FROM amendments a JOIN users u ON u.id = a.user_id WHERE a.report_id = ? ORDER BY a.id`, reportID)
	if err != nil {
		return nil, fmt.Errorf("store: amendments: %w", err)
	}
	defer rows.Close()
	var out []Amendment
	for rows.Next() {
		var a Amendment
		var at string
		if err := rows.Scan(&a.ID, &a.Field, &a.Old, &a.New, &a.Reason, &a.Loosened, &a.ResultsExisted, &a.User, &at); err != nil {
			return nil, err
		}
		a.At = parseStamp(at)
		out = append(out, a)
	}
	return out, rows.Err()
}

// History lists every change to a report, newest first.
func (s *Store) History(ctx context.Context, reportID int64) ([]Change, error) {
	return queryChanges(ctx, s.r, `WHERE h.report_id = ? ORDER BY h.id DESC`, reportID)
}

// LatestHistory lists a report's n newest changes, newest first, and how
// many it has in all.
func (s *Store) LatestHistory(ctx context.Context, reportID int64, n int) ([]Change, int, error) {
	hs, err := queryChanges(ctx, s.r, `WHERE h.report_id = ? ORDER BY h.id DESC LIMIT ?`, reportID, n)
	if err != nil {
		return nil, 0, err
	}
	total := len(hs)
	if total == n {
		if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM history WHERE report_id = ?`, reportID).Scan(&total); err != nil {
			return nil, 0, fmt.Errorf("store: history: %w", err)
		}
	}
	return hs, total, nil
}

// changesSince lists the changes after version: to section only, unless
// section is judged against the whole report.
func changesSince(ctx context.Context, tx *sql.Tx, reportID int64, version int, section string) ([]Change, error) {
	if WholeReport(section) {
		return queryChanges(ctx, tx, `WHERE h.report_id = ? AND h.version > ? ORDER BY h.id`, reportID, version)
	}
	return queryChanges(ctx, tx, `WHERE h.report_id = ? AND h.version > ? AND h.section = ? ORDER BY h.id`, reportID, version, section)
}

type querier interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}

func queryChanges(ctx context.Context, q querier, where string, args ...any) ([]Change, error) {
	rows, err := q.QueryContext(ctx, `SELECT h.id, h.version, COALESCE(NULLIF(u.name, ''), u.email), h.at, h.action, h.section, h.before, h.after
		FROM history h JOIN users u ON u.id = h.user_id `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("store: history: %w", err)
	}
	defer rows.Close()
	var out []Change
	for rows.Next() {
		var c Change
		var at string
		if err := rows.Scan(&c.ID, &c.Version, &c.User, &at, &c.Action, &c.Section, &c.Before, &c.After); err != nil {
			return nil, err
		}
		c.At = parseStamp(at)
		out = append(out, c)
	}
	return out, rows.Err()
}

// MaxHistoryText bounds each side (before, after) of a history entry, and
// its action: the callers summarise what changed (web's diffJSON), and
// what is longer still is cut here with its size and hash, so no entry,
// and no page that lists entries, grows with an imported file.
const MaxHistoryText = 16 << 10

// boundHistory is s, or its start with how much was cut and the sha256 of
// the whole when s is longer than MaxHistoryText.
func boundHistory(s string) string {
	if len(s) <= MaxHistoryText {
		return s
	}
	cut := MaxHistoryText - 128
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	sum := sha256.Sum256([]byte(s))
	return fmt.Sprintf("%s\n… (%d bytes more; sha256 of the whole %s…)", s[:cut], len(s)-cut, hex.EncodeToString(sum[:6]))
}

func addHistory(ctx context.Context, tx *sql.Tx, reportID int64, version int, userID int64, at, action, section, before, after string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO history (report_id, version, user_id, at, action, section, before, after) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		reportID, version, userID, at, boundHistory(action), section, boundHistory(before), boundHistory(after))
	if err != nil {
		return fmt.Errorf("store: history: %w", err)
	}
	return nil
}
