package reports

import (
	"context"
	"fmt"
	"io"
	"time"

	"capplan/importers"
	"capplan/planner"
	"capplan/web/store"
)

// ImportPrices reads a public price catalogue (LiteLLM's or
// genai-prices') and brings it into the quote library, whole or not at
// all, dated by its retrieval (today when date is empty; never after
// today). The browser, the token API and the command line all come here
// (docs/method.md, "Price catalogues").
//
// match, when not empty, keeps only the models whose key holds one of its
// comma-separated terms ("gpt-4o, claude"), so the library takes the
// models a team compares rather than a catalogue's thousands; a re-import
// with the same terms reports as removed only the models they match.
func (s *Service) ImportPrices(ctx context.Context, u store.User, name string, r io.Reader, date, match string, maxBytes int64) (store.QuoteImport, error) {
	if u.Role != store.RoleFinance && u.Role != store.RoleAdmin {
		return store.QuoteImport{}, fmt.Errorf("%w: finance or an admin imports price catalogues", ErrForbidden)
	}
	today := s.Now().UTC().Format(time.DateOnly)
	if date == "" {
		date = today
	}
	if _, err := time.Parse(time.DateOnly, date); err != nil {
		return store.QuoteImport{}, &store.InputError{Field: "date", Msg: fmt.Sprintf("retrieval date %q is not a date (YYYY-MM-DD)", date)}
	}
	if date > today {
		return store.QuoteImport{}, &store.InputError{Field: "date", Msg: fmt.Sprintf("retrieval date %s is after today (%s): a catalogue is dated by the day it was fetched", date, today)}
	}
	c, err := importers.ParsePrices(name, r, importers.PriceOptions{MaxBytes: maxBytes, Date: date, Context: ctx})
	if err != nil {
		return store.QuoteImport{}, err
	}
	terms := planner.CatalogueTerms(match)
	var prices []planner.CataloguePrice
	for _, p := range c.Prices {
		if planner.CatalogueMatch(p.Key, terms) {
			prices = append(prices, p)
		}
	}
	if len(prices) == 0 {
		return store.QuoteImport{}, &store.InputError{Field: "match", Msg: fmt.Sprintf("no model of the %s catalogue (%d models) has a key holding %q", c.Catalogue, len(c.Prices), match)}
	}
	ci := store.CatalogueImport{Catalogue: c.Catalogue, File: c.File, SHA256: c.SHA256, Retrieved: date, Prices: prices,
		BadPrices: c.BadPrices, OtherModels: c.OtherModels, OtherKeys: c.OtherKeys, Match: terms}
	for _, sk := range c.Skipped {
		ci.Skipped = append(ci.Skipped, sk.String())
	}
	return s.Store.ImportCatalogue(ctx, u.ID, ci)
}
