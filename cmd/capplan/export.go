package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"capplan/web/reports"
	"capplan/web/store"
)

// runExport writes one report as an XLSX workbook with live formulas.
func runExport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("export", "export --report ID [--db FILE] [--focus tokens|requests] -o report.xlsx|showback.csv", stderr)
	dbPath := fs.String("db", defaultDB(), "SQLite database file (env CAPPLAN_DB)")
	id := fs.Int64("report", 0, "the report's id (required)")
	out := fs.String("o", "", "the workbook to write, or - for stdout (required)")
	focus := fs.String("focus", "", "write the showback as a FOCUS 1.2 CSV under this meter (tokens or requests) instead of the workbook")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	if *id <= 0 || *out == "" {
		fs.Usage()
		return errors.New("export: --report and -o are required")
	}
	if err := existingDB(*dbPath); err != nil {
		return err
	}
	st, err := store.Open(ctx, *dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	// Built whole before anything is written: a failure leaves no file.
	var buf bytes.Buffer
	svc := reports.New(st, "", time.Now)
	if *focus != "" {
		err = svc.ExportFOCUS(ctx, *id, *focus, &buf)
	} else {
		err = svc.Export(ctx, *id, &buf)
	}
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if *out == "-" {
		_, err := buf.WriteTo(stdout)
		return err
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	fmt.Fprintf(stdout, "wrote %s (report %d)\n", *out, *id)
	return nil
}
