package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"capplan/planner"
	"capplan/web/demogen/guidellmgen"
	"capplan/web/reports"
	"capplan/web/store"
)

// inferenceXFile writes InferenceX's agg_bmk.json shape for the demo
// contract's box (an H100, Llama 3.1 8B in BF16, 512/256 tokens), one row
// per concurrency, without dates of their own.
func inferenceXFile(t *testing.T, path string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("[")
	for i, p := range [][3]float64{{1, 160, 150}, {16, 70, 1100}, {256, 12, 3100}} {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"hw":"h100","model":"Llama-3.1-8B-Instruct","framework":"vllm","precision":"bf16","spec_decoding":"none","disagg":false,"isl":512,"osl":256,"conc":%g,"tp":1,"output_tput_per_gpu":%g,"intvty":%g}`, p[0], p[2], p[1])
	}
	b.WriteString("]\n")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRunReferenceImport: the command imports InferenceX files into a
// report as its lead, whole, and prints what was added; a reviewer is
// refused, and so are a result file among the files and a file without a
// date, each with nothing stored.
func TestRunReferenceImport(t *testing.T) {
	ctx := context.Background()
	db, id := importDB(t)
	dir := t.TempDir()
	agg := inferenceXFile(t, filepath.Join(dir, "agg_bmk.json"))
	more := inferenceXFile(t, filepath.Join(dir, "more.json"))
	var guide bytes.Buffer
	if err := guidellmgen.Write(&guide, guidellmgen.Config{}); err != nil {
		t.Fatal(err)
	}
	result := filepath.Join(dir, "benchmarks.json")
	os.WriteFile(result, guide.Bytes(), 0o644)
	rows := func() int {
		t.Helper()
		st, err := store.Open(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		var in *planner.ReferenceInput
		if _, err := st.Section(ctx, id, reports.SecReference, &in); err != nil {
			t.Fatal(err)
		}
		if in == nil {
			return 0
		}
		return len(in.Rows)
	}
	ref := func(as string, extra ...string) (string, error) {
		var out, errOut bytes.Buffer
		args := append([]string{"reference", "import", "--db", db, "--report", fmt.Sprint(id), "--as", as}, extra...)
		err := run(ctx, args, &out, &errOut)
		return out.String(), err
	}

	if _, err := ref("reviewer@example.com", "--date", "2026-11-20", agg); err == nil || !strings.Contains(err.Error(), "only the report's owner, its editors and admins") || !strings.Contains(err.Error(), "nothing was imported") {
		t.Errorf("a reviewer's import: %v", err)
	}
	if _, err := ref("lead@example.com", "--date", "2026-11-20", agg, result); err == nil || !strings.Contains(err.Error(), "benchmarks.json") || !strings.Contains(err.Error(), "Imported results") || !strings.Contains(err.Error(), "nothing was imported") {
		t.Errorf("a result file among the files: %v", err)
	}
	if _, err := ref("lead@example.com", agg); err == nil || !strings.Contains(err.Error(), "no date") {
		t.Errorf("no date: %v", err)
	}
	if _, err := ref("lead@example.com", "--date", "2026-11-20", agg, filepath.Join(dir, "missing.json")); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("a missing file: %v", err)
	}
	if n := rows(); n != 0 {
		t.Fatalf("refused imports stored %d reference rows", n)
	}
	if _, err := ref("lead@example.com", "--report", "999", "--date", "2026-11-20", agg); err == nil || !strings.Contains(err.Error(), "no report 999") {
		t.Errorf("no such report: %v", err)
	}

	out, err := ref("lead@example.com", "--source", "InferenceX", "--date", "2026-11-20", agg, more)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"agg_bmk.json: 3 reference rows imported (public frontier, not evidence)", "more.json: 3 reference rows imported",
		fmt.Sprintf("report %d", id), "holds 6 reference rows, 6 matching its contract"} {
		if !strings.Contains(out, want) {
			t.Errorf("import printed %q, lacking %q", out, want)
		}
	}
	if n := rows(); n != 6 {
		t.Errorf("%d reference rows stored, want 6", n)
	}
	// Again: a file's rows replace the rows of the file of the same name.
	if _, err := ref("lead@example.com", "--date", "2026-11-21", agg); err != nil {
		t.Fatal(err)
	}
	if n := rows(); n != 6 {
		t.Errorf("after re-importing agg_bmk.json: %d reference rows, want 6", n)
	}
}
