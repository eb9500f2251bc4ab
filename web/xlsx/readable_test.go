package xlsx

import (
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	lo "capplan/web/xlsx/recalc"
)

// A workbook a reviewer can read, opened or printed: on the Summary and
// the Crossover sheets every wrapped text has a row tall enough for its
// lines (at least its characters over the column's width) and no wrapped
// text is squeezed into a narrow column; every sheet prints one page wide;
// the Crossover's headers are words, each code name (F_local, V_api, N) in
// a note; and LibreOffice, recalculating, shows "no end" and "never" in
// words, no figure in scientific notation or as ###, and a whole load
// whole.
func TestWorkbookReadable(t *testing.T) {
	r := testReport(bandsInputs())
	data := writeBook(t, r)
	f := openBook(t, data)
	for _, sh := range []string{shSummary, shCrossover} {
		rows, err := f.GetRows(sh)
		if err != nil {
			t.Fatal(err)
		}
		for ri, row := range rows {
			for ci, text := range row {
				name, _ := excelize.CoordinatesToCellName(ci+1, ri+1)
				id, _ := f.GetCellStyle(sh, name)
				st, err := f.GetStyle(id)
				if err != nil || st.Alignment == nil || !st.Alignment.WrapText || text == "" {
					continue
				}
				col, _ := excelize.ColumnNumberToName(ci + 1)
				w, _ := f.GetColWidth(sh, col)
				if w < 12 && len(text) > int(w) {
					t.Errorf("%s!%s: %q wraps in a column %g wide", sh, name, text, w)
				}
				lines := 0
				for _, para := range strings.Split(text, "\n") {
					lines += max(1, int(math.Ceil(float64(len([]rune(para)))/(w*1.1))))
				}
				h, _ := f.GetRowHeight(sh, ri+1)
				if want := float64(lines) * lineHeight; h < want-0.01 {
					t.Errorf("%s!%s: row %d is %g pt for %d lines of %q (%g wide): it overprints", sh, name, ri+1, h, lines, text, w)
				}
			}
		}
	}
	for _, sh := range SheetNames {
		pl, err := f.GetPageLayout(sh)
		if err != nil || pl.FitToWidth == nil || *pl.FitToWidth != 1 || pl.FitToHeight == nil || *pl.FitToHeight != 0 {
			t.Errorf("%s does not print one page wide: %+v %v", sh, pl, err)
		}
		if p, err := f.GetSheetProps(sh); err != nil || p.FitToPage == nil || !*p.FitToPage {
			t.Errorf("%s: fit to page is off", sh)
		}
	}
	hdr, _ := f.GetRows(shCrossover)
	for _, h := range hdr[0] {
		if strings.Contains(h, "_") {
			t.Errorf("Crossover header %q is a code name, not words", h)
		}
	}
	notes := map[string]string{}
	cs, err := f.GetComments(shCrossover)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		notes[c.Cell] = c.Text
		for _, p := range c.Paragraph {
			notes[c.Cell] += p.Text
		}
	}
	for cell, want := range map[string]string{"B1": "F_local", "C1": "F_api", "D1": "V_local", "E1": "V_api", "F1": "N = (F_local - F_api) / (V_api - V_local)"} {
		if !strings.Contains(notes[cell], want) {
			t.Errorf("Crossover!%s note %q, want %q", cell, notes[cell], want)
		}
	}

	shown := lo.Shown(t, map[string][]byte{"book": data}, SheetNames)["book"]
	bad := regexp.MustCompile(`\d[eE][+-]?\d|###`)
	noEnd := false
	for _, sh := range []string{shSummary, shCrossover} {
		for _, row := range shown[sh] {
			for _, c := range row {
				if bad.MatchString(c) {
					t.Errorf("%s shows %q", sh, c)
				}
			}
			if len(row) > 2 && strings.HasPrefix(row[0], "piece ") && row[2] == "no end" {
				noEnd = true
			}
		}
	}
	if !noEnd {
		t.Error(`the last piece of the Crossover sheet does not read "no end"`)
	}
	for _, row := range shown[shSummary] {
		if len(row) > 1 && row[0] == "Demonstrated ceiling (load)" && row[1] != "8" {
			t.Errorf("Summary: ceiling shows %q, want 8", row[1])
		}
	}
}
