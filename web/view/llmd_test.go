package view

import (
	"strings"
	"testing"

	"capplan/importers"
	"capplan/web/store"
)

// importedReport is a report whose frozen contract is the demo's, with
// files imported into its matrix as the upload stores them: each file's
// rows in the inputs, and an import record with its name, format and
// warnings.
func importedReport(t *testing.T, paths ...string) Report {
	t.Helper()
	demo := demoReport(t)
	in := blankReport().In
	in.Contract = demo.In.Contract
	in.Workflow.Frozen = true
	v := blankReport()
	v.R.Contract = in.Contract
	v.Imports.Frozen = true
	for i, p := range paths {
		f, err := importers.ParseFile(p, importers.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range f.Rows {
			r.Source = f.Source
			in.Rows = append(in.Rows, r)
		}
		v.Imports.Imports = append(v.Imports.Imports, ImportItem{Import: store.Import{
			ID: int64(i + 1), ReportID: v.R.ID, FileName: f.Source.File, SHA256: f.Source.SHA256, Format: f.Source.Format,
			FormatVersion: f.Source.FormatVersion, ToolVersion: f.Source.ToolVersion, Model: f.Model, SizeBytes: f.Bytes,
			Warnings: f.Warnings, User: "A. Lead", Rows: len(f.Rows),
		}})
	}
	v.Imports.Total = len(v.Imports.Imports)
	return withInputs(v, in)
}

// llm-d's benchmark reports, once imported, say on the page what stack
// was under test, that the figures are the stack's and not one box's,
// and that the raw file is kept; the credentials the files record are
// shown nowhere.
func TestLLMDReportsSayTheirStack(t *testing.T) {
	v := importedReport(t, "../../importers/testdata/llmd_br_v0.2.1_stage.yaml", "../../importers/testdata/llmd_br_v0.2_stage.json")
	if len(v.In.Rows) != 2 {
		t.Fatalf("%d rows", len(v.In.Rows))
	}
	page := stepPageOf(t, v, PrintStep)
	for _, want := range []string{"the stack under test: 1 inference engine replica on 1 × NVIDIA-H100-80GB-HBM3", "the raw file is kept as uploaded", "not for one box"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not say %q", want)
		}
	}
	for _, secret := range []string{"sk-live-doNotStoreThis", "hf_doNotStoreThisEither", "sk-neverKeptEither", "hf_secretNeverKept"} {
		if strings.Contains(page, secret) {
			t.Errorf("the page shows the credential %q", secret)
		}
	}
}
