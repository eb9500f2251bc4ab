package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/store"
)

// runReference manages a report's reference rows (docs/method.md,
// "Reference rows"): reference import FILE... brings InferenceX files in as
// the public frontier, whole or not at all, by the service the token API
// uses, and prints what was added.
func runReference(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	const use = "reference import --report ID --as EMAIL [--source S] [--date YYYY-MM-DD] [--db FILE] FILE..."
	if len(args) == 0 || args[0] != "import" {
		fmt.Fprintln(stderr, "Usage: capplan "+use)
		if len(args) > 0 && args[0] != "--help" && args[0] != "-h" {
			return fmt.Errorf("reference: unknown subcommand %q; the one there is: reference import", args[0])
		}
		if len(args) > 0 {
			return nil
		}
		return errUsageShown
	}
	fs := newFlags("reference import", use, stderr)
	reportID := fs.Int64("report", 0, "the report to import into (required)")
	dbPath := fs.String("db", defaultDB(), "SQLite database file (env CAPPLAN_DB)")
	as := fs.String("as", "", "the account (email) the import is recorded as: the report's owner, an editor or an admin (required)")
	source := fs.String("source", "", "where the figures were published; default InferenceX")
	date := fs.String("date", "", "the day the figures were published or retrieved (YYYY-MM-DD), for the rows that carry none")
	maxMB := fs.Int64("max-mb", 64, "largest file accepted, in MB")
	if help, err := parseFlags(fs, args[1:]); help || err != nil {
		return err
	}
	if *reportID <= 0 || *as == "" || fs.NArg() == 0 {
		fs.Usage()
		return errors.New("reference import: --report, --as and at least one FILE (InferenceX's agg_bmk.json or its CSV export) are required")
	}
	st, u, err := openAs(ctx, *dbPath, *as, "reference import")
	if err != nil {
		return err
	}
	defer st.Close()
	got, err := reports.New(st, "", time.Now).ImportReference(ctx, u, *reportID, *maxMB<<20, func(add func(name string, r io.Reader, source, date string) error) error {
		for _, path := range fs.Args() {
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			err = add(filepath.Base(path), f, *source, *date)
			f.Close()
			if err != nil {
				return err
			}
		}
		return nil
	})
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("reference import: no report %d in %s; nothing was imported", *reportID, *dbPath)
	}
	if err != nil {
		return fmt.Errorf("reference import: %w; nothing was imported", err)
	}
	writeReferenceImport(stdout, got)
	return nil
}

// writeReferenceImport prints what an import of reference rows added and
// where the report stands against the frontier.
func writeReferenceImport(w io.Writer, got reports.ReferenceImported) {
	for _, f := range got.Files {
		fmt.Fprintf(w, "%s: %s imported (public frontier, not evidence)\n", f.File, planner.Plural(f.Rows, "reference row", "reference rows"))
	}
	fmt.Fprintf(w, "report %d (version %d) holds %s, %d matching its contract\n", got.ReportID, got.Version, planner.Plural(got.Rows, "reference row", "reference rows"), got.Matched)
	if got.Text != "" {
		fmt.Fprintln(w, got.Text)
	}
}
