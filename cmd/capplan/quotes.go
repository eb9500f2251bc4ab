package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"capplan/web/reports"
	"capplan/web/store"
)

// runQuotes manages the quote library: quotes import FILE brings a public
// price catalogue in, whole or not at all, and prints what moved.
func runQuotes(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "import" {
		fmt.Fprintln(stderr, "Usage: capplan quotes import --as EMAIL [--date YYYY-MM-DD] [--match TERMS] [--db FILE] FILE")
		if len(args) > 0 && args[0] != "--help" && args[0] != "-h" {
			return fmt.Errorf("quotes: unknown subcommand %q; the one there is: quotes import", args[0])
		}
		if len(args) > 0 {
			return nil
		}
		return errUsageShown
	}
	fs := newFlags("quotes import", "quotes import --as EMAIL [--date YYYY-MM-DD] [--db FILE] FILE", stderr)
	dbPath := fs.String("db", defaultDB(), "SQLite database file (env CAPPLAN_DB)")
	as := fs.String("as", "", "the finance or admin account (email) the import is recorded as (required)")
	date := fs.String("date", "", "the day the catalogue was retrieved; default today")
	match := fs.String("match", "", "keep only the models whose key holds one of these comma-separated terms, e.g. 'gpt-4o, claude'")
	maxMB := fs.Int64("max-mb", 64, "largest file accepted, in MB")
	if help, err := parseFlags(fs, args[1:]); help || err != nil {
		return err
	}
	if fs.NArg() != 1 || *as == "" {
		fs.Usage()
		return errors.New("quotes import: --as and one FILE (LiteLLM's model_prices_and_context_window.json or genai-prices' data.json) are required")
	}
	st, u, err := openAs(ctx, *dbPath, *as, "quotes import")
	if err != nil {
		return err
	}
	defer st.Close()
	path := fs.Arg(0)
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("quotes import: %w; nothing was imported", err)
	}
	defer f.Close()
	qi, err := reports.New(st, "", time.Now).ImportPrices(ctx, u, filepath.Base(path), f, *date, *match, *maxMB<<20)
	if err != nil {
		return fmt.Errorf("quotes import: %w; nothing was imported", err)
	}
	writeQuoteImport(stdout, qi)
	return nil
}

// writeQuoteImport prints what an import brought and moved.
func writeQuoteImport(w io.Writer, qi store.QuoteImport) {
	fmt.Fprintf(w, "%s: %s catalogue retrieved %s, %d models (import #%d, sha256 %s)\n", qi.File, qi.Catalogue, qi.Retrieved, qi.Models, qi.ID, qi.SHA256)
	if qi.BadPrices+qi.Other+qi.OtherKeys > 0 {
		fmt.Fprintf(w, "left out: %d prices that are not finite non-negative numbers, %d models without input and output token prices", qi.BadPrices, qi.Other)
		if qi.OtherKeys > 0 {
			fmt.Fprintf(w, ", %d top-level keys that are not models", qi.OtherKeys)
		}
		fmt.Fprintln(w)
		for _, s := range qi.Skipped {
			fmt.Fprintf(w, "  %s\n", s)
		}
	}
	if qi.First {
		fmt.Fprintf(w, "first import of this catalogue: %d models added to the library\n", len(qi.Changes.Added))
		return
	}
	ch := qi.Changes
	fmt.Fprintf(w, "%d models with a price moved, %d new, %d no longer listed, %d unchanged\n", len(ch.Moved()), len(ch.Added), len(ch.Removed), ch.Unchanged)
	for _, m := range ch.Moves {
		dir := "down"
		if m.Up {
			dir = "up"
		}
		fmt.Fprintf(w, "  %-4s %s\n", dir, m.Sentence())
	}
	for _, k := range ch.Added {
		fmt.Fprintf(w, "  new  %s\n", k)
	}
	for _, k := range ch.Removed {
		fmt.Fprintf(w, "  gone %s\n", k)
	}
	for _, r := range qi.Repriced {
		fmt.Fprintf(w, "report %d %q (%s) uses a moved quote: its history records the change\n", r.ReportID, r.Title, r.State.Label())
	}
}
