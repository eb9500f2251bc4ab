package view

import (
	"strings"
	"testing"
)

// An entry saved before the history walked lists item by item holds a
// list as JSON on one line; it is shown in sentences too.
func TestHistoryLegacyJSONInSentences(t *testing.T) {
	before := `decision: keep` + "\n" + `gates: [{"name":"data location","verdict":"pass"}]` + "\n" + `loads: [1,2,4]`
	after := `decision: change` + "\n" + `gates: [{"name":"data location","verdict":"fail"},{"name":"latency","verdict":"pass"}]` + "\n" + `loads: [1,2,4,8]`
	got := strings.Join(historyLines(before, after), "\n")
	for _, want := range []string{"Gates 1: name: data location", "Gates 2: name: latency", "Loads: 1, 2, 4 → ", "Loads: 1, 2, 4, 8"} {
		if !strings.Contains(got, want) {
			t.Errorf("history of an old entry lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, `{"`) || strings.Contains(got, "[{") || strings.Contains(got, "[1") {
		t.Errorf("an old entry still shows raw JSON:\n%s", got)
	}
	// Lines that pair up are still shown as before → after.
	same := historyLines(`gates: [{"name":"a"}]`, `gates: [{"name":"b"}]`)
	if len(same) != 1 || same[0] != "Gates 1: name: a → b" {
		t.Errorf("an old one-field change = %q, want [Gates 1: name: a → b]", same)
	}
}
