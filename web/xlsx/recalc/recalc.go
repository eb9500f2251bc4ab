// Package recalc has LibreOffice open .xlsx workbooks, recalculate every
// formula on load (never trusting the cached values) and hand back each
// sheet's cells as raw values, and render sheets to images: the tests'
// independent reading of a workbook, as a reviewer's spreadsheet would
// compute it.
package recalc

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// recalcXML makes LibreOffice recalculate every formula of an .xlsx on
// load instead of trusting the cached values (OOXMLRecalcMode 0: always).
const recalcXML = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="ODFRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>`

// Soffice finds LibreOffice; without it the test is skipped, except on CI
// (env CI set), where it must be installed.
func Soffice(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"soffice", "libreoffice"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("LibreOffice (soffice) is not installed; .ci/run installs libreoffice-calc-nogui")
	}
	t.Skip("LibreOffice (soffice) is not installed")
	return ""
}

// run converts the named workbooks (name: letters only) with LibreOffice,
// recalculation forced on load, to the filter given, into a directory it
// returns.
func run(t testing.TB, books map[string][]byte, filter string) string {
	t.Helper()
	bin := Soffice(t)
	dir := t.TempDir()
	profile := filepath.Join(dir, "profile")
	if err := os.MkdirAll(filepath.Join(profile, "user"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(profile, "user", "registrymodifications.xcu"), []byte(recalcXML), 0o644); err != nil {
		t.Fatal(err)
	}
	var ins []string
	for name, data := range books {
		in := filepath.Join(dir, name+".xlsx")
		if err := os.WriteFile(in, data, 0o644); err != nil {
			t.Fatal(err)
		}
		ins = append(ins, in)
	}
	slices.Sort(ins)
	out := filepath.Join(dir, "out")
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(1+len(books))*time.Minute)
	defer cancel()
	args := []string{"-env:UserInstallation=file://" + profile, "--headless", "--norestore", "--convert-to", filter, "--outdir", out}
	cmd := exec.CommandContext(ctx, bin, append(args, ins...)...)
	cmd.Env = append(os.Environ(), "HOME="+dir)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, b)
	}
	return out
}

// Books has LibreOffice open each workbook (by name, letters only),
// recalculate it and write every sheet of sheets as CSV of raw
// (unformatted) values, in one run; it returns each book's sheets' cells.
func Books(t testing.TB, books map[string][]byte, sheets []string) map[string]map[string][][]string {
	t.Helper()
	// Filter options: comma, double quote, UTF-8, first line 1, no cell
	// formats, language 0, quote text, detect numbers, raw values (not as
	// shown), no formulas, no trimming, every sheet (-1) to its own file.
	return sheetsOf(t, books, sheets, "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1")
}

// Shown is Books with each cell as LibreOffice shows it (its number
// format applied), not its raw value.
func Shown(t testing.TB, books map[string][]byte, sheets []string) map[string]map[string][][]string {
	t.Helper()
	return sheetsOf(t, books, sheets, "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true,false,false,-1")
}

// sheetsOf converts books with filter in one run and reads back each
// book's sheets.
func sheetsOf(t testing.TB, books map[string][]byte, sheets []string, filter string) map[string]map[string][][]string {
	t.Helper()
	out := run(t, books, filter)
	all := map[string]map[string][][]string{}
	for name := range books {
		got := map[string][][]string{}
		for _, sh := range sheets {
			b, err := os.ReadFile(filepath.Join(out, name+"-"+sh+".csv"))
			if err != nil {
				files, _ := os.ReadDir(out)
				t.Fatalf("%s sheet %s: %v (have %v)", name, sh, err, files)
			}
			r := csv.NewReader(bytes.NewReader(b))
			r.FieldsPerRecord = -1
			rows, err := r.ReadAll()
			if err != nil {
				t.Fatalf("%s sheet %s: %v", name, sh, err)
			}
			got[sh] = rows
		}
		all[name] = got
	}
	return all
}
