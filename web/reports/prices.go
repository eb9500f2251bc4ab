package reports

import (
	"context"
	"fmt"
	"io"
	"time"

	"capplan/importers"
	"capplan/web/store"
)

// ImportPrices reads a public price catalogue (LiteLLM's or
// genai-prices') and brings it into the quote library, whole or not at
// all, dated by its retrieval (today when date is empty; never after
// today). The browser, the token API and the command line all come here
// (docs/method.md, "Price catalogues").
func (s *Service) ImportPrices(ctx context.Context, u store.User, name string, r io.Reader, date string, maxBytes int64) (store.QuoteImport, error) {
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
	ci := store.CatalogueImport{Catalogue: c.Catalogue, File: c.File, SHA256: c.SHA256, Retrieved: date, Prices: c.Prices,
		BadPrices: c.BadPrices, OtherModels: c.OtherModels}
	for _, sk := range c.Skipped {
		ci.Skipped = append(ci.Skipped, sk.String())
	}
	return s.Store.ImportCatalogue(ctx, u.ID, ci)
}
