package view

import (
	"fmt"
	"html"
	"strings"
	"testing"

	"capplan/planner"
)

// The imports list on the results step says a file's warnings in
// sentences, one line per warning with the rows it concerns, without the
// rows unfolded and without the warning's code: rows of another model than
// the contract's name both. (The API's answer to the upload is tested in
// web.)
func TestImportWarningsInSentences(t *testing.T) {
	v := sweepReport(t)
	in := v.In
	in.Rows = append([]planner.Row(nil), in.Rows...)
	for i := range in.Rows {
		in.Rows[i].Model = "mistralai/Mistral-7B-Instruct-v0.3"
	}
	v = withJudgedRows(withInputs(v, in))
	page := html.UnescapeString(stepPageOf(t, v, "results"))
	want := fmt.Sprintf("The file's model is mistralai/Mistral-7B-Instruct-v0.3; the contract names %s.", in.Contract.BaselineModel)
	lines := between(page, `data-testid="`+"row-warning-lines"+`"`, "</ul>")
	if lines == "" {
		t.Fatal("the imports list has no warning sentences")
	}
	if !strings.Contains(lines, want+" (5 rows)") {
		t.Errorf("imports list lines = %q, want %q", lines, want+" (5 rows)")
	}
	if strings.Contains(page, "model-mismatch ×") || strings.Contains(page, "<code>model-mismatch</code>") {
		t.Error("the imports list still shows the warning's code")
	}
}
