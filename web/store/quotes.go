package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"capplan/planner"
)

// Quote is one API price quote of the shared library: the prices as the
// planner reads them, and what finance records about the offer.
type Quote struct {
	ID int64
	// Q holds the name, provider, model and every price with its evidence.
	Q            planner.Quote
	Region       string
	Currency     string
	Terms        string // the platform terms, as quoted
	Source       string
	EvidenceDate string // YYYY-MM-DD
	CreatedBy    string
	CreatedAt    time.Time
	UpdatedBy    string
	UpdatedAt    time.Time
	// Reports counts the reports the quote is attached to.
	Reports int
	// Catalogue and CatalogueKey name the public price catalogue and its
	// model the quote was imported from ("" for a typed quote); Retrieved
	// is that catalogue's retrieval date, and Listed false once a newer
	// import of it no longer lists the model.
	Catalogue    string
	CatalogueKey string
	Retrieved    string
	Listed       bool
}

const quoteSelect = `SELECT q.id, q.data, q.region, q.currency, q.terms, q.source, q.evidence_date,
	COALESCE(NULLIF(c.name, ''), c.email), q.created_at, COALESCE(NULLIF(u.name, ''), u.email), q.updated_at,
	(SELECT COUNT(*) FROM report_quotes rq WHERE rq.quote_id = q.id),
	q.catalogue, q.catalogue_key, q.retrieved, q.listed
	FROM quotes q JOIN users c ON c.id = q.created_by JOIN users u ON u.id = q.updated_by`

func scanQuote(row scanner) (Quote, error) {
	var q Quote
	var data, created, updated string
	if err := row.Scan(&q.ID, &data, &q.Region, &q.Currency, &q.Terms, &q.Source, &q.EvidenceDate,
		&q.CreatedBy, &created, &q.UpdatedBy, &updated, &q.Reports, &q.Catalogue, &q.CatalogueKey, &q.Retrieved, &q.Listed); err != nil {
		return Quote{}, err
	}
	if err := json.Unmarshal([]byte(data), &q.Q); err != nil {
		return Quote{}, fmt.Errorf("store: quote %d: %w", q.ID, err)
	}
	q.CreatedAt, q.UpdatedAt = parseStamp(created), parseStamp(updated)
	return q, nil
}

func queryQuotes(ctx context.Context, q querier, where string, args ...any) ([]Quote, error) {
	rows, err := q.QueryContext(ctx, quoteSelect+" "+where, args...)
	if err != nil {
		return nil, fmt.Errorf("store: quotes: %w", err)
	}
	defer rows.Close()
	var out []Quote
	for rows.Next() {
		qt, err := scanQuote(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, qt)
	}
	return out, rows.Err()
}

// Quotes lists the library, by name.
func (s *Store) Quotes(ctx context.Context) ([]Quote, error) {
	return queryQuotes(ctx, s.r, `ORDER BY q.name COLLATE NOCASE, q.id`)
}

// QuoteByID returns one quote of the library.
func (s *Store) QuoteByID(ctx context.Context, id int64) (Quote, error) {
	qs, err := queryQuotes(ctx, s.r, `WHERE q.id = ?`, id)
	if err != nil {
		return Quote{}, err
	}
	if len(qs) == 0 {
		return Quote{}, ErrNotFound
	}
	return qs[0], nil
}

// ReportQuotes lists the quotes attached to a report, in the order attached.
func (s *Store) ReportQuotes(ctx context.Context, reportID int64) ([]Quote, error) {
	return queryQuotes(ctx, s.r, `JOIN report_quotes a ON a.quote_id = q.id WHERE a.report_id = ? ORDER BY a.attached_at, q.id`, reportID)
}

// SaveQuote creates the quote (ID 0) or replaces it, recording who changed
// it and when. Names are unique in the library (ErrExists).
func (s *Store) SaveQuote(ctx context.Context, userID int64, q Quote) (int64, error) {
	q.Q.Name = strings.TrimSpace(q.Q.Name)
	if q.Q.Name == "" {
		return 0, inputErr("name", "required")
	}
	data, err := json.Marshal(q.Q)
	if err != nil {
		return 0, fmt.Errorf("store: quote: %w", err)
	}
	now := stamp(s.now())
	id := q.ID
	err = s.tx(ctx, func(tx *sql.Tx) error {
		var dup int64
		err := tx.QueryRowContext(ctx, `SELECT id FROM quotes WHERE name = ? AND id <> ?`, q.Q.Name, q.ID).Scan(&dup)
		if err == nil {
			return fmt.Errorf("name: a quote named %q %w", q.Q.Name, ErrExists)
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if q.ID == 0 {
			res, err := tx.ExecContext(ctx, `INSERT INTO quotes (name, provider, model, region, currency, terms, source, evidence_date, data, created_by, created_at, updated_by, updated_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, q.Q.Name, q.Q.Provider, q.Q.Model, q.Region, q.Currency, q.Terms, q.Source, q.EvidenceDate, string(data), userID, now, userID, now)
			if err != nil {
				return fmt.Errorf("store: create quote: %w", err)
			}
			id, _ = res.LastInsertId()
			return nil
		}
		var before string
		if err := tx.QueryRowContext(ctx, `SELECT data FROM quotes WHERE id = ?`, q.ID).Scan(&before); errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		} else if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE quotes SET name = ?, provider = ?, model = ?, region = ?, currency = ?, terms = ?, source = ?, evidence_date = ?, data = ?,
			updated_by = ?, updated_at = ? WHERE id = ?`, q.Q.Name, q.Q.Provider, q.Q.Model, q.Region, q.Currency, q.Terms, q.Source, q.EvidenceDate, string(data), userID, now, q.ID)
		if err != nil {
			return fmt.Errorf("store: update quote: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		if before == string(data) {
			return nil
		}
		return noteQuoteEdit(ctx, tx, q.ID, userID, now, q.Q.Name, before, string(data))
	})
	return id, err
}

// AttachQuote adds a library quote to the report's comparison, as one change
// to the report.
func (s *Store) AttachQuote(ctx context.Context, e Edit, quoteID int64) error {
	return s.Update(ctx, e, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM quotes WHERE id = ?`, quoteID).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return inputErr("quote", "no such quote in the library")
		}
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM report_quotes WHERE report_id = ? AND quote_id = ?`, e.ReportID, quoteID).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return inputErr("quote", "already attached to this report")
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO report_quotes (report_id, quote_id, attached_by, attached_at) VALUES (?, ?, ?, ?)`,
			e.ReportID, quoteID, e.UserID, stamp(s.now()))
		return err
	})
}

// DetachQuote removes a quote from the report's comparison, as one change to
// the report; ErrNotFound when it was not attached.
func (s *Store) DetachQuote(ctx context.Context, e Edit, quoteID int64) error {
	return s.Update(ctx, e, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM report_quotes WHERE report_id = ? AND quote_id = ?`, e.ReportID, quoteID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return nil
	})
}

// noteQuoteEdit records a library edit in the history of every report that
// is not approved and uses the quote, with a new version: its figures move
// with the library, and its readers see why. Approved reports keep their
// snapshot and are left alone.
func noteQuoteEdit(ctx context.Context, tx *sql.Tx, quoteID, userID int64, at, name, before, after string) error {
	rows, err := tx.QueryContext(ctx, `SELECT r.id, r.version FROM report_quotes rq JOIN reports r ON r.id = rq.report_id
		WHERE rq.quote_id = ? AND r.state <> 'approved' ORDER BY r.id`, quoteID)
	if err != nil {
		return fmt.Errorf("store: quote users: %w", err)
	}
	type rv struct {
		id      int64
		version int
	}
	var users []rv
	for rows.Next() {
		var u rv
		if err := rows.Scan(&u.id, &u.version); err != nil {
			rows.Close()
			return err
		}
		users = append(users, u)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	b, a := quoteDiff(before, after)
	for _, u := range users {
		if _, err := tx.ExecContext(ctx, `UPDATE reports SET version = version + 1, updated_at = ? WHERE id = ?`, at, u.id); err != nil {
			return err
		}
		if err := addHistory(ctx, tx, u.id, u.version+1, userID, at, "library quote "+name+" edited", "costs", b, a); err != nil {
			return err
		}
	}
	return nil
}

// quoteDiff names what changed between two stored quotes, one "field:
// value" line per changed figure on each side.
func quoteDiff(before, after string) (string, string) {
	var x, y map[string]any
	json.Unmarshal([]byte(before), &x)
	json.Unmarshal([]byte(after), &y)
	var bl, al []string
	keys := map[string]bool{}
	for k := range x {
		keys[k] = true
	}
	for k := range y {
		keys[k] = true
	}
	var ks []string
	for k := range keys {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	show := func(v any) string {
		if f, ok := v.(map[string]any); ok && f["amount"] != nil {
			return fmt.Sprint(f["amount"])
		}
		b, _ := json.Marshal(v)
		return string(b)
	}
	for _, k := range ks {
		if bs, as := show(x[k]), show(y[k]); bs != as {
			bl = append(bl, k+": "+bs)
			al = append(al, k+": "+as)
		}
	}
	return strings.Join(bl, "\n"), strings.Join(al, "\n")
}

// QuoteReports lists the reports that use a quote, with their review
// state, by id.
func (s *Store) QuoteReports(ctx context.Context, quoteID int64) ([]QuoteUse, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT r.id, r.title, r.state FROM report_quotes rq JOIN reports r ON r.id = rq.report_id
		WHERE rq.quote_id = ? ORDER BY r.id`, quoteID)
	if err != nil {
		return nil, fmt.Errorf("store: quote reports: %w", err)
	}
	defer rows.Close()
	var out []QuoteUse
	for rows.Next() {
		var u QuoteUse
		if err := rows.Scan(&u.ReportID, &u.Title, &u.State); err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, rows.Err()
}

// QuoteUse is a report that uses a quote.
type QuoteUse struct {
	ReportID int64
	Title    string
	State    State
}
