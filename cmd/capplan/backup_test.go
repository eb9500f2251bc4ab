package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"capplan/web"
	"capplan/web/reports"
	"capplan/web/store"
)

// seededInstall makes an installation like a team's: the demo report (with
// its imports, costs, quotes and candidates) and a second report with two
// real result files imported, one of them removed again. It returns the
// database path and the admin's API token.
func seededInstall(t *testing.T) (dbPath, token string) {
	t.Helper()
	ctx := context.Background()
	store.BcryptCost = 4
	dbPath = filepath.Join(t.TempDir(), "data", "capplan.db")
	st, err := store.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	admin, err := st.CreateUser(ctx, "admin", "Administrator", store.RoleAdmin, "a long enough password")
	if err != nil {
		t.Fatal(err)
	}
	if err := web.SeedDemo(ctx, st, store.FilesDir(dbPath)); err != nil {
		t.Fatal(err)
	}
	id, err := st.CreateReport(ctx, admin, "Second box")
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SaveContract(ctx, store.Edit{ReportID: id, BaseVersion: 1, UserID: admin.ID, Action: "contract edited"}, reports.DemoContract(), nil); err != nil {
		t.Fatal(err)
	}
	if err := st.Freeze(ctx, store.Edit{ReportID: id, BaseVersion: 2, UserID: admin.ID, Action: "contract frozen"}); err != nil {
		t.Fatal(err)
	}
	files := []string{
		"../../../shared/benchmarks/vllm/LambdaLabsML__vllm-benchmark__Meta-Llama-3.1-8B-FP8_tp1_len2048.json",
		"../../../shared/benchmarks/guidellm/vllm-project__guidellm__benchmarks_stripped.json",
	}
	if err := runImport(ctx, append([]string{"--report", strconv.FormatInt(id, 10), "--db", dbPath}, files...), io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	ims, err := st.Imports(ctx, id)
	if err != nil || len(ims) != 2 {
		t.Fatalf("imports %v %v", ims, err)
	}
	r, _ := st.Report(ctx, id)
	if err := st.RemoveImport(ctx, store.Edit{ReportID: id, BaseVersion: r.Version, UserID: admin.ID, Action: "import removed"}, ims[1].ID); err != nil {
		t.Fatal(err)
	}
	if token, err = st.CreateAPIToken(ctx, admin.ID, "backup test"); err != nil {
		t.Fatal(err)
	}
	return dbPath, token
}

// apiOutputs returns GET /api/v1/reports/:id of every report, computed as
// of one fixed day.
func apiOutputs(t *testing.T, dbPath, token string) map[int64]string {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	day := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	srv := httptest.NewServer(web.New(st, slog.New(slog.NewTextHandler(io.Discard, nil)),
		web.Config{DataDir: store.FilesDir(dbPath), Now: func() time.Time { return day }}))
	defer srv.Close()
	reports, err := st.Reports(ctx)
	if err != nil || len(reports) < 2 {
		t.Fatalf("reports %v %v", reports, err)
	}
	out := map[int64]string{}
	for _, r := range reports {
		req, _ := http.NewRequest("GET", srv.URL+"/api/v1/reports/"+strconv.FormatInt(r.ID, 10), nil)
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("report %d: %d %s", r.ID, res.StatusCode, b)
		}
		out[r.ID] = string(b)
	}
	return out
}

// rawFiles maps each file under dir (relative path) to its bytes.
func rawFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestBackupRestoreRoundTrip(t *testing.T) {
	ctx := context.Background()
	db, token := seededInstall(t)
	before := apiOutputs(t, db, token)
	filesBefore := rawFiles(t, store.FilesDir(db))
	if len(filesBefore) != 4 { // the demo's two generated files and the two real ones
		t.Fatalf("%d raw files seeded", len(filesBefore))
	}

	archive := filepath.Join(t.TempDir(), "backup.tar")
	var out bytes.Buffer
	if err := run(ctx, []string{"backup", "--db", db, "-o", archive}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "2 reports, 4 imports") || !strings.Contains(out.String(), "4 raw files") {
		t.Errorf("backup output: %s", out.String())
	}
	if err := run(ctx, []string{"backup", "--db", db, "-o", archive}, io.Discard, io.Discard); err == nil {
		t.Error("backup overwrote an existing archive")
	}

	restored := filepath.Join(t.TempDir(), "new", "capplan.db")
	out.Reset()
	if err := run(ctx, []string{"restore", archive, "--db", restored}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"restored " + restored, "2 reports, 4 imports", "integrity ok", "raw files: 4", "every sha256 verified"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("restore output lacks %q:\n%s", want, out.String())
		}
	}
	after := apiOutputs(t, restored, token)
	for id, b := range before {
		if after[id] != b {
			t.Errorf("report %d: the API output differs after the restore:\nbefore %.300s\nafter  %.300s", id, b, after[id])
		}
	}
	filesAfter := rawFiles(t, store.FilesDir(restored))
	if len(filesAfter) != len(filesBefore) {
		t.Errorf("%d raw files restored, want %d", len(filesAfter), len(filesBefore))
	}
	for p, b := range filesBefore {
		if !bytes.Equal(filesAfter[p], b) {
			t.Errorf("raw file %s is not byte-identical after the restore", p)
		}
	}

	// A live database is never overwritten.
	err := run(ctx, []string{"restore", archive, "--db", db}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "refusing to overwrite") {
		t.Errorf("restore over the live database: %v", err)
	}

	// The restored installation passes the check.
	out.Reset()
	if err := run(ctx, []string{"check", "--db", restored}, &out, io.Discard); err != nil {
		t.Errorf("check after restore: %v\n%s", err, out.String())
	}
}

func TestRestoreRefusesADamagedArchiveNamingTheFile(t *testing.T) {
	ctx := context.Background()
	db, _ := seededInstall(t)
	archive := filepath.Join(t.TempDir(), "backup.tar")
	if err := run(ctx, []string{"backup", "--db", db, "-o", archive}, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	// Flip one byte inside the real vLLM file's content in the archive.
	raw := rawFiles(t, store.FilesDir(db))
	var victim string
	var content []byte
	for p, b := range raw {
		if bytes.Contains(b, []byte(`"model_id"`)) {
			victim, content = p, b
		}
	}
	if victim == "" {
		t.Fatal("the vLLM file is not among the raw files")
	}
	tarBytes, _ := os.ReadFile(archive)
	at := bytes.Index(tarBytes, content)
	if at < 0 {
		t.Fatal("raw file not found whole in the archive")
	}
	tarBytes[at+len(content)/2] ^= 0x20
	damaged := filepath.Join(t.TempDir(), "damaged.tar")
	os.WriteFile(damaged, tarBytes, 0o600)

	target := filepath.Join(t.TempDir(), "capplan.db")
	err := run(ctx, []string{"restore", damaged, "--db", target}, io.Discard, io.Discard)
	wantName := "files/" + filepath.ToSlash(victim)
	var ae *store.ArchiveError
	if !errors.As(err, &ae) || !strings.Contains(err.Error(), wantName) || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("damaged archive: %v (want the error to name %s)", err, wantName)
	}
	if _, err := os.Stat(target); err == nil {
		t.Error("a database was restored from a damaged archive")
	}
	if _, err := os.Stat(store.FilesDir(target)); err == nil {
		t.Error("raw files were put in place from a damaged archive")
	}

	// A truncated archive is refused too.
	cut := filepath.Join(t.TempDir(), "cut.tar")
	os.WriteFile(cut, tarBytes[:at+100], 0o600)
	if err := run(ctx, []string{"restore", cut, "--db", target}, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), wantName) {
		t.Errorf("truncated archive: %v", err)
	}
}

func TestCheckFindsMissingDamagedAndOrphanFiles(t *testing.T) {
	ctx := context.Background()
	db, _ := seededInstall(t)
	var out bytes.Buffer
	if err := run(ctx, []string{"check", "--db", db}, &out, io.Discard); err != nil {
		t.Fatalf("fresh install: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "4 raw files") || !strings.Contains(out.String(), "ok:") {
		t.Errorf("check output:\n%s", out.String())
	}
	dir := store.FilesDir(db)
	var paths []string
	for p := range rawFiles(t, dir) {
		paths = append(paths, filepath.Join(dir, p))
	}
	orphan := filepath.Join(dir, "ab", strings.Repeat("ab", 32))
	os.MkdirAll(filepath.Dir(orphan), 0o750)
	os.WriteFile(orphan, []byte("left behind"), 0o440)
	// An upload under way holds its temporary file's lock; one that a
	// crash left (the CLI's or the server's) holds none.
	upload := filepath.Join(dir, ".upload-123")
	os.WriteFile(upload, []byte("arriving"), 0o600)
	held, err := os.Open(upload)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if err := store.LockFile(held); err != nil {
		t.Fatal(err)
	}
	crashed := filepath.Join(dir, ".upload-4242-77")
	os.WriteFile(crashed, []byte("cut short"), 0o600)

	out.Reset()
	err = run(ctx, []string{"check", "--db", db}, &out, io.Discard)
	var ec exitCoder
	if !errors.As(err, &ec) || ec.ExitCode() != 2 || !strings.Contains(out.String(), "orphan (nothing refers to it): "+orphan) {
		t.Fatalf("orphan: %v\n%s", err, out.String())
	}
	if strings.Contains(out.String(), ".upload-123 ") || !strings.Contains(out.String(), "uploads under way left alone") {
		t.Errorf("an upload in progress was counted as an orphan:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "orphan (nothing refers to it): "+crashed) {
		t.Errorf("a temporary file no process holds is not an orphan:\n%s", out.String())
	}
	out.Reset()
	if err := run(ctx, []string{"check", "--db", db, "--remove-orphans"}, &out, io.Discard); err != nil {
		t.Fatalf("--remove-orphans: %v\n%s", err, out.String())
	}
	if _, err := os.Stat(orphan); err == nil {
		t.Error("orphan not removed")
	}
	if _, err := os.Stat(upload); err != nil {
		t.Error("the upload in progress was removed")
	}
	if _, err := os.Stat(crashed); err == nil {
		t.Error("the temporary file a crash left was not removed")
	}

	// A damaged and a missing raw file are named.
	os.Chmod(paths[0], 0o640)
	b, _ := os.ReadFile(paths[0])
	b[10] ^= 1
	os.WriteFile(paths[0], b, 0o640)
	os.Remove(paths[1])
	out.Reset()
	err = run(ctx, []string{"check", "--db", db}, &out, io.Discard)
	if err == nil || !strings.Contains(out.String(), paths[0]+" (imported as") || !strings.Contains(out.String(), "is damaged") ||
		!strings.Contains(out.String(), paths[1]+" (imported as") || !strings.Contains(out.String(), "is missing") {
		t.Errorf("damage not reported: %v\n%s", err, out.String())
	}
	// And a backup refuses to archive them.
	if err := run(ctx, []string{"backup", "--db", db, "-o", filepath.Join(t.TempDir(), "b.tar")}, io.Discard, io.Discard); err == nil {
		t.Error("backup archived a damaged installation")
	}
}

func TestCheckWillNotEmptyTheFilesOfAnotherDatabase(t *testing.T) {
	ctx := context.Background()
	db, _ := seededInstall(t)
	// A fresh, empty database in the same folder: every file is an orphan to it.
	empty := filepath.Join(filepath.Dir(db), "empty.db")
	st, err := store.Open(ctx, empty)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	err = run(ctx, []string{"check", "--db", empty, "--remove-orphans"}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "refers to no raw file") {
		t.Errorf("removal against an empty database: %v", err)
	}
	if n := len(rawFiles(t, store.FilesDir(db))); n != 4 {
		t.Errorf("%d raw files left, want 4", n)
	}
}
