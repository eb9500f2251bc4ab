package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"capplan/web/store"
)

func runBackup(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("backup", "backup [--db FILE] -o BACKUP.tar\n\n"+
		"Writes one archive (an uncompressed tar) holding a consistent copy of the live\n"+
		"database (VACUUM INTO), every raw result file it refers to, and a manifest of\n"+
		"their sha256 sums. Safe while the server runs. `capplan restore` brings it back.", stderr)
	dbPath := fs.String("db", defaultDB(), "SQLite database file (env CAPPLAN_DB); its raw files are in files/ beside it")
	out := fs.String("o", "", "where to write the archive; must not exist (required)")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	if err := existingDB(*dbPath); err != nil {
		return err
	}
	if *out == "" {
		fs.Usage()
		return errors.New("backup: -o is required")
	}
	st, err := store.Open(ctx, *dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	m, err := st.BackupArchive(ctx, store.FilesDir(*dbPath), *out)
	if err != nil {
		return err
	}
	var bytes int64
	for _, f := range m.Files {
		bytes += f.Size
	}
	fmt.Fprintf(stdout, "wrote %s: the database (%d %s, %d %s, %s) and %d raw %s (%s)\n", *out,
		m.Reports, plural(m.Reports, "report", "reports"), m.Imports, plural(m.Imports, "import", "imports"), humanBytes(m.Database.Size),
		len(m.Files), plural(len(m.Files), "file", "files"), humanBytes(bytes))
	return nil
}

func runRestore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("restore", "restore BACKUP.tar --db FILE\n\n"+
		"Brings back an archive written by `capplan backup` as the database FILE and its\n"+
		"raw files in files/ beside it. Refuses to overwrite a database; checks every\n"+
		"sha256 and the database's integrity before it puts anything in place.", stderr)
	dbPath := fs.String("db", "", "the database file to create; must not exist (required)")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() != 1 || *dbPath == "" {
		fs.Usage()
		return errors.New("restore: name one archive and --db")
	}
	res, err := store.Restore(ctx, fs.Arg(0), *dbPath)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "restored %s from %s (backup of %s)\n", res.DB, fs.Arg(0), res.CreatedAt.Format("2006-01-02 15:04:05 UTC"))
	fmt.Fprintf(stdout, "  database: %d %s, %d %s, %s, integrity ok, sha256 %s\n",
		res.Reports, plural(res.Reports, "report", "reports"), res.Imports, plural(res.Imports, "import", "imports"), humanBytes(res.Database.Size), res.Database.SHA256)
	fmt.Fprintf(stdout, "  raw files: %d (%s) in %s, every sha256 verified\n", len(res.Files), humanBytes(res.Bytes), res.FilesDir)
	if len(res.Migrations) > 0 {
		fmt.Fprintf(stdout, "  schema: %s", res.Migrations[len(res.Migrations)-1])
		if len(res.Pending) > 0 {
			fmt.Fprintf(stdout, " (the next start applies %s)", strings.Join(res.Pending, ", "))
		}
		fmt.Fprintln(stdout)
	}
	fmt.Fprintf(stdout, "start it with: capplan serve --db %s\n", res.DB)
	return nil
}

// checkFailed is the exit status of a check that found problems.
type checkFailed struct{ n int }

func (e checkFailed) Error() string {
	return fmt.Sprintf("check: %d %s found", e.n, plural(e.n, "problem", "problems"))
}
func (e checkFailed) ExitCode() int { return 2 }

func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("check", "check [--db FILE] [--remove-orphans]\n\n"+
		"Verifies a live installation without changing the database: PRAGMA\n"+
		"integrity_check, the migrations, every raw file the database refers to present\n"+
		"with its sha256, and no orphan files in files/. Exits 2 when anything is wrong.", stderr)
	dbPath := fs.String("db", defaultDB(), "SQLite database file (env CAPPLAN_DB)")
	remove := fs.Bool("remove-orphans", false, "delete the files in files/ that nothing refers to")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	if err := existingDB(*dbPath); err != nil {
		return err
	}
	rep, err := store.Check(ctx, *dbPath, *remove)
	for _, p := range rep.Problems {
		fmt.Fprintln(stdout, "problem:", p)
	}
	for _, p := range rep.Orphans {
		if slices.Contains(rep.Removed, p) {
			fmt.Fprintln(stdout, "removed orphan:", p)
		} else {
			fmt.Fprintln(stdout, "orphan (nothing refers to it):", p)
		}
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d %s; %d raw %s (%s) in %s\n", rep.DB, rep.Reports, plural(rep.Reports, "report", "reports"),
		rep.Files, plural(rep.Files, "file", "files"), humanBytes(rep.Bytes), rep.FilesDir)
	if len(rep.Pending) > 0 {
		fmt.Fprintf(stdout, "migrations not applied yet (the next start applies them): %s\n", strings.Join(rep.Pending, ", "))
	}
	if len(rep.InProgress) > 0 {
		fmt.Fprintf(stdout, "%d %s of uploads under way left alone\n", len(rep.InProgress), plural(len(rep.InProgress), "temporary file", "temporary files"))
	}
	left := len(rep.Orphans) - len(rep.Removed)
	if left > 0 {
		fmt.Fprintf(stdout, "%d orphan %s; `capplan check --remove-orphans` deletes %s\n", left, plural(left, "file", "files"), plural(left, "it", "them"))
	}
	if n := len(rep.Problems) + left; n > 0 {
		return checkFailed{n}
	}
	fmt.Fprintln(stdout, "ok: integrity, migrations and every raw file check out")
	return nil
}

// humanBytes formats a size for people: 1.2 GB, 340.0 MB, 12.0 kB, 900 B.
func humanBytes(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}
