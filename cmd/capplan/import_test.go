package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"capplan/web/demogen/genaibenchgen"
	"capplan/web/demogen/guidellmgen"
	"capplan/web/reports"
	"capplan/web/store"
)

// importDB creates a database with an admin, a lead, a reviewer and a
// report owned by the lead with a frozen contract.
func importDB(t *testing.T) (path string, reportID int64) {
	t.Helper()
	ctx := context.Background()
	store.BcryptCost = 4
	path = filepath.Join(t.TempDir(), "capplan.db")
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var lead store.User
	for _, u := range []struct {
		email string
		role  store.Role
	}{{"admin@example.com", store.RoleAdmin}, {"lead@example.com", store.RoleLead}, {"reviewer@example.com", store.RoleReviewer}} {
		created, err := st.CreateUser(ctx, u.email, "", u.role, "a long enough password")
		if err != nil {
			t.Fatal(err)
		}
		if u.role == store.RoleLead {
			lead = created
		}
	}
	id, err := st.CreateReport(ctx, lead, "CLI import")
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SaveContract(ctx, store.Edit{ReportID: id, BaseVersion: 1, UserID: lead.ID, Action: "contract edited"}, reports.DemoContract(), nil); err != nil {
		t.Fatal(err)
	}
	if err := st.Freeze(ctx, store.Edit{ReportID: id, BaseVersion: 2, UserID: lead.ID, Action: "contract frozen"}); err != nil {
		t.Fatal(err)
	}
	return path, id
}

func TestRunImport(t *testing.T) {
	ctx := context.Background()
	db, id := importDB(t)
	gen := writeReport(t, guidellmgen.Config{})
	real := "../../../shared/benchmarks/vllm/LambdaLabsML__vllm-benchmark__Meta-Llama-3.1-8B-FP8_tp1_len2048.json"
	broken := filepath.Join(t.TempDir(), "broken.json")
	os.WriteFile(broken, []byte(`{"benchmarks": [`), 0o644)
	idArg := strconv.FormatInt(id, 10)

	// A bad file among good ones: nothing stored, the file named.
	var out, errb bytes.Buffer
	err := runImport(ctx, []string{"--report", idArg, "--db", db, gen, broken}, &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "broken.json") || !strings.Contains(err.Error(), "nothing was imported") {
		t.Fatalf("err %v", err)
	}
	// A reviewer may not import.
	if err := runImport(ctx, []string{"--report", idArg, "--db", db, "--as", "reviewer@example.com", gen}, &out, &errb); err == nil || !strings.Contains(err.Error(), "may not edit") {
		t.Errorf("as reviewer: %v", err)
	}

	out.Reset()
	if err := runImport(ctx, []string{"--report", idArg, "--db", db, gen, real}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	if !strings.Contains(out.String(), "added 6 rows from 2 files to report "+idArg+" as lead@example.com") {
		t.Errorf("output:\n%s", out.String())
	}
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ims, _ := st.Imports(ctx, id)
	if len(ims) != 2 || ims[0].User != "lead@example.com" {
		t.Fatalf("imports %+v", ims)
	}
	raw := filepath.Join(filepath.Dir(db), "files", ims[0].SHA256[:2], ims[0].SHA256)
	if _, err := os.Stat(raw); err != nil {
		t.Errorf("raw file not kept beside the database: %v", err)
	}

	// Again: refused as a duplicate, nothing added.
	err = runImport(ctx, []string{"--report", idArg, "--db", db, "--as", "admin@example.com", gen}, &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "already imported") {
		t.Errorf("duplicate: %v", err)
	}
	if err := runImport(ctx, []string{"--help"}, &out, &errb); err != nil || !strings.Contains(errb.String(), "--report") {
		t.Errorf("--help: %v\n%s", err, errb.String())
	}
}

// TestRunImportGenAIBenchArchive: a genai-bench experiment folder as a
// .tar.gz on the command line becomes one row per run, each named by its
// path inside the archive, and the API key of its command line is nowhere
// on disk.
func TestRunImportGenAIBenchArchive(t *testing.T) {
	ctx := context.Background()
	db, id := importDB(t)
	const key = "sk-cli-SECRET0123456789abcdef"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(genaibenchgen.Tar("exp", genaibenchgen.Folder("s", key, 50, 1, 1, 2, 8)))
	zw.Close()
	arch := filepath.Join(t.TempDir(), "exp.tar.gz")
	os.WriteFile(arch, gz.Bytes(), 0o644)
	var out, errb bytes.Buffer
	if err := runImport(ctx, []string{"--report", strconv.FormatInt(id, 10), "--db", db, arch}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	if !strings.Contains(out.String(), "added 3 rows from 3 files") {
		t.Errorf("output:\n%s", out.String())
	}
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	ims, _ := st.Imports(ctx, id)
	st.Close()
	for _, im := range ims {
		if !strings.HasPrefix(im.FileName, "exp.tar.gz: exp/") || im.Model != "Qwen/Qwen3-8B" {
			t.Errorf("import %q of model %q", im.FileName, im.Model)
		}
	}
	filepath.WalkDir(filepath.Dir(db), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(key)) {
				t.Errorf("%s holds the key", p)
			}
		}
		return nil
	})
}
