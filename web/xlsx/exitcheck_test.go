package xlsx

import (
	"strings"
	"testing"

	"capplan/planner"
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

// The Contract sheet's amendments name the changed field by its label.
func TestAmendmentFieldLabels(t *testing.T) {
	in := workedInputs()
	in.Amendments = append(in.Amendments, planner.Amendment{Field: "objective.ttft_max_s", OldValue: "2", NewValue: "3", Reason: "product asked", Who: "A. Lead", When: "2026-11-20"})
	f := openBook(t, writeBook(t, testReport(in)))
	rows, err := f.GetRows(shContract)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range rows {
		if len(row) > 1 && row[1] == "3" {
			if row[0] != planner.FieldLabel("objective.ttft_max_s") || row[0] == "objective.ttft_max_s" {
				t.Errorf("amendment row %v: want the field's label", row)
			}
			return
		}
	}
	t.Fatal("no amendment row")
}

// A workload amended after results is marked on the Contract sheet, as on
// the page; the recommendation's reason for keeping the plan's boxes is on
// the Recommendation sheet.
func TestAmendedAfterResultsMarked(t *testing.T) {
	in := workedInputs()
	old := in.Contract.Workload.Terms()
	in.Contract.Workload.OutputTokens += 10
	in.Amendments = append(in.Amendments, planner.Amendment{Field: "workload", OldValue: old, NewValue: in.Contract.Workload.Terms(),
		Reason: "production answers run longer", Who: "A. Lead", When: "2026-11-20", ResultsExisted: true})
	if in.Recommendation != nil {
		in.Recommendation.BeyondPlan = "the peak month is served by the API fallback"
	}
	r := testReport(in)
	if len(r.Result.AmendedAfterResults) == 0 {
		t.Fatal("the amendment is not seen as made after results")
	}
	f := openBook(t, writeBook(t, r))
	find := func(sheet, label string) string {
		t.Helper()
		rows, err := f.GetRows(sheet)
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range rows {
			if len(row) > 1 && row[0] == label {
				return strings.TrimSpace(strings.Join(row[1:], " "))
			}
		}
		return ""
	}
	if got := find(shContract, "AMENDED after results existed"); !strings.Contains(got, "workload: changed from "+old) {
		t.Errorf("Contract sheet's mark = %q", got)
	}
	if in.Recommendation != nil {
		if got := find(shRecommendation, "Why the plan's boxes stand"); got != in.Recommendation.BeyondPlan {
			t.Errorf("Recommendation sheet's reason = %q", got)
		}
	}
}
