package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"capplan/planner"
)

// CatalogueImport is one price catalogue to bring into the library: its
// prices at a retrieval date, and what the reader left out.
type CatalogueImport struct {
	Catalogue string // planner.CatalogueLiteLLM or planner.CatalogueGenAIPrices
	File      string
	SHA256    string
	Retrieved string // YYYY-MM-DD
	Prices    []planner.CataloguePrice
	// Left out by the reader, for the record: counts and named skips.
	BadPrices, OtherModels int
	// OtherKeys counts the top-level keys skipped as not models.
	OtherKeys int
	Skipped   []string
	// Match are the terms the import kept models by (none: every model);
	// only models they match can be reported removed.
	Match []string
}

// QuoteImport is a catalogue import as recorded: what it moved against
// the import of the same catalogue before it, and the draft reports that
// use a moved quote (each given a history entry).
type QuoteImport struct {
	ID         int64                    `json:"id"`
	Catalogue  string                   `json:"catalogue"`
	File       string                   `json:"file"`
	SHA256     string                   `json:"sha256"`
	Retrieved  string                   `json:"retrieved"`
	Models     int                      `json:"models"`
	Changes    planner.CatalogueChanges `json:"changes"`
	First      bool                     `json:"first"` // the catalogue's first import: every model is new
	BadPrices  int                      `json:"bad_prices"`
	Other      int                      `json:"other_models"`
	OtherKeys  int                      `json:"other_keys"` // top-level keys that are not models, skipped
	Skipped    []string                 `json:"skipped"`
	Match      []string                 `json:"match,omitempty"`
	Repriced   []QuoteUse               `json:"repriced"` // draft reports with a history entry
	ImportedBy string                   `json:"imported_by"`
	ImportedAt time.Time                `json:"imported_at"`
}

type catalogueRow struct {
	id    int64
	key   string
	price planner.CataloguePrice
	q     planner.Quote
	data  string
}

// ImportCatalogue brings a catalogue into the library in one transaction,
// whole or not at all: each model becomes (or updates) the quote named
// planner.QuoteName(catalogue, key), its catalogue figures replaced and
// whatever finance added to it kept (region, terms, retry rate, cache-hit
// and batch shares); models the catalogue no longer lists are kept, marked
// unlisted. Every report not yet approved that uses a quote whose price
// moved gets a new version and a history entry saying each move in a
// sentence; approved reports keep their snapshot. A model whose name is
// taken by a typed quote refuses the import.
func (s *Store) ImportCatalogue(ctx context.Context, userID int64, ci CatalogueImport) (QuoteImport, error) {
	now := s.now()
	at := stamp(now)
	out := QuoteImport{Catalogue: ci.Catalogue, File: ci.File, SHA256: ci.SHA256, Retrieved: ci.Retrieved, Models: len(ci.Prices),
		BadPrices: ci.BadPrices, Other: ci.OtherModels, OtherKeys: ci.OtherKeys, Skipped: ci.Skipped, Match: ci.Match, Repriced: []QuoteUse{}, ImportedAt: now}
	if out.Skipped == nil {
		out.Skipped = []string{}
	}
	for _, p := range ci.Prices {
		if i := strings.IndexFunc(p.Key, func(r rune) bool { return r < 0x20 || r == 0x7f }); i >= 0 {
			what := "a control character"
			if p.Key[i] == 0 {
				what = "a NUL character"
			}
			return out, inputErr("file", fmt.Sprintf("the model key %s holds %s, which no model name has: the catalogue is damaged", strconv.QuoteToASCII(p.Key), what))
		}
	}
	err := s.tx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT id, catalogue_key, catalogue_price, data, listed FROM quotes WHERE catalogue = ?`, ci.Catalogue)
		if err != nil {
			return fmt.Errorf("store: catalogue quotes: %w", err)
		}
		have := map[string]catalogueRow{}
		var older []planner.CataloguePrice
		for rows.Next() {
			var r catalogueRow
			var price string
			var listed bool
			if err := rows.Scan(&r.id, &r.key, &price, &r.data, &listed); err != nil {
				rows.Close()
				return err
			}
			json.Unmarshal([]byte(price), &r.price)
			json.Unmarshal([]byte(r.data), &r.q)
			have[r.key] = r
			if listed && planner.CatalogueMatch(r.key, ci.Match) {
				older = append(older, r.price)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		out.First = len(have) == 0
		out.Changes = planner.CompareCatalogue(older, ci.Prices)
		touched := map[int64][]planner.PriceMove{}
		for _, p := range ci.Prices {
			q := p.Quote(ci.Catalogue, ci.Retrieved)
			priceJSON, _ := json.Marshal(p)
			prev, ok := have[p.Key]
			if ok {
				q = keepAdded(prev.q, q)
			}
			data, err := json.Marshal(q)
			if err != nil {
				return err
			}
			source := ci.Catalogue + " " + ci.File
			if !ok {
				var dup int64
				err := tx.QueryRowContext(ctx, `SELECT id FROM quotes WHERE name = ?`, q.Name).Scan(&dup)
				if err == nil {
					return inputErr("file", fmt.Sprintf("the library already has a typed quote named %q: rename it, then import again", q.Name))
				}
				if !errors.Is(err, sql.ErrNoRows) {
					return err
				}
				if _, err := tx.ExecContext(ctx, `INSERT INTO quotes (name, provider, model, currency, source, evidence_date, data, created_by, created_at, updated_by, updated_at,
					catalogue, catalogue_key, catalogue_price, retrieved, listed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)`,
					q.Name, q.Provider, q.Model, q.Currency, source, ci.Retrieved, string(data), userID, at, userID, at,
					ci.Catalogue, p.Key, string(priceJSON), ci.Retrieved); err != nil {
					return fmt.Errorf("store: import quote %s: %w", p.Key, err)
				}
				continue
			}
			if _, err := tx.ExecContext(ctx, `UPDATE quotes SET provider = ?, model = ?, currency = ?, source = ?, evidence_date = ?, data = ?, updated_by = ?, updated_at = ?,
				catalogue_price = ?, retrieved = ?, listed = 1 WHERE id = ?`,
				q.Provider, q.Model, q.Currency, source, ci.Retrieved, string(data), userID, at, string(priceJSON), ci.Retrieved, prev.id); err != nil {
				return fmt.Errorf("store: update quote %s: %w", p.Key, err)
			}
			if ms := out.Changes.MovesOf(p.Key); len(ms) > 0 {
				touched[prev.id] = ms
			}
		}
		for _, k := range out.Changes.Removed {
			if _, err := tx.ExecContext(ctx, `UPDATE quotes SET listed = 0 WHERE catalogue = ? AND catalogue_key = ?`, ci.Catalogue, k); err != nil {
				return err
			}
		}
		// Drafts using a moved quote: one history entry per quote, the
		// moves in sentences.
		seen := map[int64]bool{}
		ids := make([]int64, 0, len(touched))
		for id := range touched {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		for _, id := range ids {
			ms := touched[id]
			users, err := draftUsers(ctx, tx, id)
			if err != nil {
				return err
			}
			name := planner.QuoteName(ci.Catalogue, ms[0].Key)
			for _, u := range users {
				var version int
				if err := tx.QueryRowContext(ctx, `UPDATE reports SET version = version + 1, updated_at = ? WHERE id = ? RETURNING version`, at, u.ReportID).Scan(&version); err != nil {
					return err
				}
				action := fmt.Sprintf("library quote %s repriced by the %s catalogue retrieved %s", name, ci.Catalogue, ci.Retrieved)
				if err := addHistory(ctx, tx, u.ReportID, version, userID, at, action, "costs", "", planner.HistorySentences(ci.Catalogue, ms)); err != nil {
					return err
				}
				if !seen[u.ReportID] {
					seen[u.ReportID] = true
					out.Repriced = append(out.Repriced, u)
				}
			}
		}
		summary, _ := json.Marshal(out)
		res, err := tx.ExecContext(ctx, `INSERT INTO quote_imports (catalogue, file, sha256, retrieved, models, summary, imported_by, imported_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			ci.Catalogue, ci.File, ci.SHA256, ci.Retrieved, len(ci.Prices), string(summary), userID, at)
		if err != nil {
			return fmt.Errorf("store: quote import: %w", err)
		}
		out.ID, _ = res.LastInsertId()
		return nil
	})
	if err != nil {
		return QuoteImport{}, err
	}
	return s.QuoteImportByID(ctx, out.ID)
}

// keepAdded keeps on a re-imported quote what finance added to the one
// imported before: everything the catalogue does not price.
func keepAdded(prev, next planner.Quote) planner.Quote {
	q := prev
	q.Name, q.Provider, q.Model, q.Currency = next.Name, next.Provider, next.Model, next.Currency
	q.InputPerMTokens, q.OutputPerMTokens, q.CachedInputPerMTokens = next.InputPerMTokens, next.OutputPerMTokens, next.CachedInputPerMTokens
	q.BatchDiscount = next.BatchDiscount
	switch {
	case next.BatchDiscount == nil:
		q.BatchShare = nil
	case prev.BatchShare == nil:
		q.BatchShare = next.BatchShare
	}
	if q.CacheHitShare != nil && q.CachedInputPerMTokens == nil {
		q.CacheHitShare = nil // no cached price left to apply it to
	}
	return q
}

// draftUsers lists the reports not approved that use a quote.
func draftUsers(ctx context.Context, tx *sql.Tx, quoteID int64) ([]QuoteUse, error) {
	rows, err := tx.QueryContext(ctx, `SELECT r.id, r.title, r.state FROM report_quotes rq JOIN reports r ON r.id = rq.report_id
		WHERE rq.quote_id = ? AND r.state <> 'approved' ORDER BY r.id`, quoteID)
	if err != nil {
		return nil, fmt.Errorf("store: quote users: %w", err)
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

// QuoteImportByID returns one recorded catalogue import.
func (s *Store) QuoteImportByID(ctx context.Context, id int64) (QuoteImport, error) {
	var summary, by, at string
	err := s.r.QueryRowContext(ctx, `SELECT qi.summary, COALESCE(NULLIF(u.name, ''), u.email), qi.imported_at FROM quote_imports qi JOIN users u ON u.id = qi.imported_by WHERE qi.id = ?`, id).
		Scan(&summary, &by, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return QuoteImport{}, ErrNotFound
	}
	if err != nil {
		return QuoteImport{}, fmt.Errorf("store: quote import: %w", err)
	}
	var qi QuoteImport
	if err := json.Unmarshal([]byte(summary), &qi); err != nil {
		return QuoteImport{}, fmt.Errorf("store: quote import %d: %w", id, err)
	}
	qi.ID, qi.ImportedBy, qi.ImportedAt = id, by, parseStamp(at)
	return qi, nil
}
