package web

import (
	"bytes"
	"fmt"
	"html"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// rawFloat finds a number written with more than six digits after the
// decimal point's leading zeros: a float printed as the machine holds it
// (631.2969047619048, 0.00360610607831391) rather than by the display rule
// of planner/display.go. Exact short decimals (0.00026112) pass.
var rawFloat = regexp.MustCompile(`\d\.0*[1-9]\d{6,}`)

// visibleText is what a person reads on a page: the text between tags and
// the values of form fields (not the tooltips, which carry exact values on
// purpose, nor scripts and styles).
func visibleText(page string) string {
	page = regexp.MustCompile(`(?s)<(script|style)\b.*?</(script|style)>`).ReplaceAllString(page, " ")
	var b strings.Builder
	for _, m := range regexp.MustCompile(`<(?:input|textarea|option)\b[^>]*\bvalue="([^"]*)"`).FindAllStringSubmatch(page, -1) {
		b.WriteString(html.UnescapeString(m[1]) + "\n")
	}
	b.WriteString(html.UnescapeString(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(page, " ")))
	return b.String()
}

// rawFloatsIn lists each raw float in text with some context.
func rawFloatsIn(text string) []string {
	var out []string
	for _, loc := range rawFloat.FindAllStringIndex(text, -1) {
		lo, hi := max(0, loc[0]-60), min(len(text), loc[1]+20)
		out = append(out, strings.Join(strings.Fields(text[lo:hi]), " "))
	}
	return out
}

// TestNoRawFloatsInTheDemoWorkbook reads the demo report's workbook,
// every sheet as formatted for display, and finds no number written as a
// raw float. (Its page is read in web/view.)
func TestNoRawFloatsInTheDemoWorkbook(t *testing.T) {
	if got := rawFloatsIn("631.2969047619048 W and 0.00360610607831391 but 0.00026112 and 2410.868089"); len(got) != 2 {
		t.Fatalf("the scan finds %q, want the two raw floats", got)
	}
	app := newTestApp(t)
	demo := demoReport(t, app)
	c := app.client("admin")
	res, book := do(t, c, http.MethodGet, fmt.Sprintf("%s/reports/%d/export.xlsx", app.srv.URL, demo.ID), nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("export: %d", res.StatusCode)
	}
	f, err := excelize.OpenReader(bytes.NewReader([]byte(book)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cells := 0
	for _, sh := range f.GetSheetList() {
		rows, err := f.GetRows(sh)
		if err != nil {
			t.Fatal(err)
		}
		for r, row := range rows {
			for c, v := range row {
				cells++
				for _, s := range rawFloatsIn(v) {
					name, _ := excelize.CoordinatesToCellName(c+1, r+1)
					t.Errorf("workbook %s!%s: raw float in %q", sh, name, s)
				}
			}
		}
	}
	if cells < 500 {
		t.Fatalf("only %d cells read", cells)
	}
}
