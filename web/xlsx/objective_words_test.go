package xlsx

import (
	"strings"
	"testing"
)

// The workbook states the objective in words where it is read: the
// Contract sheet's "Objective in force" is the sentence, the syntax as
// typed on the next row; the Exit check sheet's objective item is the
// sentence too. Read back from the written file.
func TestWorkbookObjectiveInWords(t *testing.T) {
	r := testReport(workedInputs())
	sentence := r.Result.Objective.Sentence()
	if sentence == "" || !strings.Contains(sentence, "of requests succeed") {
		t.Fatalf("worked objective's sentence %q", sentence)
	}
	f := openBook(t, writeBook(t, r))
	rows, err := f.GetRows(shContract)
	if err != nil {
		t.Fatal(err)
	}
	var inForce, typed bool
	for i, row := range rows {
		if len(row) >= 2 && row[0] == "Objective in force" {
			inForce = row[1] == sentence
			typed = i+1 < len(rows) && len(rows[i+1]) >= 2 && rows[i+1][0] == "As typed on the contract" && rows[i+1][1] == r.Result.ObjectiveText
		}
	}
	if !inForce || !typed {
		t.Errorf("Contract sheet: objective in words %v, as typed beside it %v; want %q and %q", inForce, typed, sentence, r.Result.ObjectiveText)
	}
	rows, err = f.GetRows(shExitCheck)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, row := range rows {
		if strings.Join(row, "|") != "" && strings.Contains(strings.Join(row, "|"), sentence) {
			found = true
		}
		if len(row) > 0 && strings.Contains(strings.Join(row, "|"), r.Result.ObjectiveText) {
			t.Errorf("Exit check sheet shows the objective's syntax: %q", row)
		}
	}
	if !found {
		t.Errorf("Exit check sheet lacks the objective in words %q", sentence)
	}
}
