package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"capplan/web/demogen/pricegen"
	"capplan/web/store"
)

// TestRunQuotesImport: the command imports a catalogue as an admin, dated
// by --date, and a newer one prints what moved; a lead is refused, and so
// is a cut-off file, each with nothing imported.
func TestRunQuotesImport(t *testing.T) {
	ctx := context.Background()
	db, _ := importDB(t)
	dir := t.TempDir()
	write := func(name string, ms []pricegen.Model) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, pricegen.LiteLLM(ms), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	v1 := write("v1.json", []pricegen.Model{{Key: "gpt-4o", Provider: "openai", Input: "2.5e-06", Output: "1e-05"}, {Key: "old", Input: "1e-06", Output: "2e-06"}})
	v2 := write("v2.json", []pricegen.Model{{Key: "gpt-4o", Provider: "openai", Input: "2e-06", Output: "1e-05"}, {Key: "new", Input: "1e-06", Output: "2e-06"}})
	var out, errOut bytes.Buffer
	if err := run(ctx, []string{"quotes", "import", "--db", db, "--as", "admin@example.com", "--date", "2026-11-01", v1}, &out, &errOut); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	if !strings.Contains(out.String(), "LiteLLM catalogue retrieved 2026-11-01, 2 models") || !strings.Contains(out.String(), "first import") {
		t.Errorf("first import printed %q", out.String())
	}
	out.Reset()
	if err := run(ctx, []string{"quotes", "import", "--db", db, "--as", "admin@example.com", "--date", "2026-11-30", v2}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"1 models with a price moved, 1 new, 1 no longer listed", "down gpt-4o: input price 2.50 → 2.00 USD per 1M tokens (−20 %)", "new  new", "gone old"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("re-import printed %q, lacking %q", out.String(), want)
		}
	}
	if err := run(ctx, []string{"quotes", "import", "--db", db, "--as", "lead@example.com", v2}, &out, &errOut); err == nil || !strings.Contains(err.Error(), "finance or an admin") {
		t.Errorf("a lead's import: %v", err)
	}
	data, _ := os.ReadFile(v2)
	cut := filepath.Join(dir, "cut.json")
	os.WriteFile(cut, data[:len(data)/2], 0o644)
	if err := run(ctx, []string{"quotes", "import", "--db", db, "--as", "admin@example.com", cut}, &out, &errOut); err == nil || !strings.Contains(err.Error(), "cut off") || !strings.Contains(err.Error(), "nothing was imported") {
		t.Errorf("a cut-off file: %v", err)
	}
	// Kept to the models matched: a re-import with the same terms reports
	// no model it did not match as removed.
	out.Reset()
	v3 := write("v3.json", []pricegen.Model{{Key: "gpt-4o", Provider: "openai", Input: "2e-06", Output: "1.2e-05"}, {Key: "other", Input: "1e-06", Output: "2e-06"}})
	if err := run(ctx, []string{"quotes", "import", "--db", db, "--as", "admin@example.com", "--date", "2026-12-01", "--match", "GPT", v3}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); !strings.Contains(s, "1 models with a price moved, 0 new, 0 no longer listed") {
		t.Errorf("matched re-import printed %q", s)
	}
	if err := run(ctx, []string{"quotes", "import", "--db", db, "--as", "admin@example.com", "--match", "mistral", v3}, &out, &errOut); err == nil || !strings.Contains(err.Error(), `has a key holding "mistral"`) {
		t.Errorf("a filter matching nothing: %v", err)
	}
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	qs, _ := st.Quotes(ctx)
	if len(qs) != 3 {
		t.Errorf("%d quotes in the library, want 3 (old kept, unlisted)", len(qs))
	}
}

// TestRunQuotesImportOtherKeys: a LiteLLM map with a mirror's
// "last_updated" string imports its models, and the summary counts the
// top-level keys skipped.
func TestRunQuotesImportOtherKeys(t *testing.T) {
	db, _ := importDB(t)
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"quotes", "import", "--db", db, "--as", "admin@example.com", "--date", "2026-11-30", "../../importers/testdata/litellm_last_updated.json"}, &out, &errOut); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	for _, want := range []string{"2 models", "2 top-level keys that are not models", "last_updated: not a model: a string"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("printed %q, lacking %q", out.String(), want)
		}
	}
}
