package xlsx

import (
	"strings"
	"testing"
)

// The Exit check sheet names each item and its section as people read
// them, not by their ids or anchors.
func TestExitCheckSheetShowsLabels(t *testing.T) {
	r := testReport(workedInputs())
	f := openBook(t, writeBook(t, r))
	rows, err := f.GetRows(shExitCheck)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, it := range r.Result.ExitCheck {
		ids[it.ID] = true
	}
	seen := 0
	for _, row := range rows[1:] {
		for _, cellText := range row {
			if ids[cellText] && !strings.Contains(cellText, " ") && cellText != "Rows" {
				t.Errorf("row %v shows the id %q", row, cellText)
			}
		}
		if len(row) > 3 && row[3] != "" {
			seen++
			if row[3] == strings.ToLower(row[3]) {
				t.Errorf("row %v: section %q, want its heading", row, row[3])
			}
		}
	}
	if seen != len(r.Result.ExitCheck) {
		t.Errorf("%d items with a section, want %d", seen, len(r.Result.ExitCheck))
	}
	if rows[1][0] != r.Result.ExitCheck[0].Label {
		t.Errorf("first item %q, want %q", rows[1][0], r.Result.ExitCheck[0].Label)
	}
}
