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

// runImport imports result files into a report straight into the database
// file, by the same path as the browser upload and the API: every file or
// none, raw files kept under the data folder by sha256.
func runImport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("import", "import --report ID [--db FILE] [--as EMAIL] [--data DIR] FILE...", stderr)
	reportID := fs.Int64("report", 0, "the report to import into (required)")
	dbPath := fs.String("db", defaultDB(), "SQLite database file (env CAPPLAN_DB)")
	as := fs.String("as", "", "the account (email) the import is recorded as; default the report's owner")
	dataDir := fs.String("data", "", "folder of the raw result files; default files/ beside the database, as serve uses")
	maxMB := fs.Int64("max-mb", 0, "largest file accepted, in MB; 0 for no limit")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if *reportID <= 0 || fs.NArg() == 0 {
		fs.Usage()
		return errors.New("import: --report and at least one FILE are required")
	}
	if *dataDir == "" {
		*dataDir = filepath.Join(filepath.Dir(*dbPath), "files")
	}
	if _, err := os.Stat(*dbPath); err != nil {
		return fmt.Errorf("import: database %s: %w", *dbPath, err)
	}
	st, err := store.Open(ctx, *dbPath)
	if err != nil {
		return err
	}
	defer st.Close()

	r, err := st.Report(ctx, *reportID)
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("import: no report %d in %s", *reportID, *dbPath)
	}
	if err != nil {
		return err
	}
	var u store.User
	if *as == "" {
		u, err = st.User(ctx, r.OwnerID)
	} else {
		u, err = st.UserByEmail(ctx, *as)
	}
	if err != nil {
		return fmt.Errorf("import: account %q: %w", *as, err)
	}
	if !r.CanEdit(u) {
		return fmt.Errorf("import: %s (%s) may not edit report %d", u.Email, u.Role, r.ID)
	}

	batch := reports.NewImportBatch(*dataDir, *maxMB<<20)
	batch.Context = ctx // Ctrl-C stops a long file's reading
	defer batch.Close()
	for _, path := range fs.Args() {
		if err := addFile(batch, path); err != nil {
			return fmt.Errorf("import: %w; nothing was imported", err)
		}
	}
	files := batch.Files()
	ims, err := reports.CommitLatest(ctx, st, batch, r.ID, u.ID)
	if err != nil {
		return fmt.Errorf("import: %w; nothing was imported", err)
	}
	// The rows' warnings as the report judges them: the file's own and
	// the checks against the contract.
	judged := map[string][]planner.Warning{}
	if rep, err := reports.New(st, "", time.Now).Load(ctx, r.ID); err == nil {
		judged = rep.RowWarnings()
	}
	rows := 0
	for i, im := range ims {
		rows += im.Rows
		fmt.Fprintf(stdout, "%s: import #%d, %s %s, %d rows, sha256 %s\n", im.FileName, im.ID, im.Format, im.FormatVersion, im.Rows, im.SHA256)
		for _, w := range files[i].Warnings {
			fmt.Fprintf(stdout, "  warning: %s [%s]\n", planner.WarningSentence(w), w.Code)
		}
		for _, row := range files[i].Rows {
			ws, ok := judged[reports.WarningsKey(im.SHA256, row.Index)]
			if !ok || im.CandidateID != 0 {
				ws = row.Warnings
			}
			for _, w := range ws {
				fmt.Fprintf(stdout, "  row %d: warning: %s [%s]\n", row.Index, planner.WarningSentence(w), w.Code)
			}
		}
	}
	fmt.Fprintf(stdout, "added %d %s from %d %s to report %d as %s\n", rows, plural(rows, "row", "rows"), len(ims), plural(len(ims), "file", "files"), r.ID, u.Email)
	return nil
}

// addFile streams one file into the batch.
func addFile(batch *reports.ImportBatch, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return batch.Add(filepath.Base(path), f)
}
