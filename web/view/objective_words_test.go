package view

import (
	"html"
	"strings"
	"testing"
)

// The objective is read as a sentence wherever it is shown outside the
// contract: the exit check's Objective row on the overview and the
// matrix's "Judged against" line on the results step; the exit check shows
// no syntax. (/compare's line is tested in web, where the comparison is
// put together.)
func TestObjectiveInWordsOnPages(t *testing.T) {
	v := demoReport(t)
	// The demo's objective in force is its contract's (no amendment).
	sentence, syntax := v.In.Contract.Objective.Sentence(), v.In.Contract.Objective.String()
	if !strings.Contains(sentence, "of requests succeed") || !strings.Contains(syntax, ">=") {
		t.Fatalf("demo objective %q / %q", sentence, syntax)
	}
	row := between(stepPageOf(t, v, ""), `data-testid="exit-objective"`, "</tr>")
	if got := readText(row); !strings.Contains(got, sentence) {
		t.Errorf("exit check's objective row = %q, want the sentence %q", got, sentence)
	}
	if strings.Contains(html.UnescapeString(row), syntax) {
		t.Errorf("exit check's objective row shows the syntax: %q", row)
	}
	line := between(stepPageOf(t, v, "results"), `data-testid="matrix-objective-words"`, "</span>")
	if got := readText(line); !strings.Contains(got, sentence+".") {
		t.Errorf("matrix's objective line = %q, want it to state %q", got, sentence)
	}
}

// The contract's read view says the objective as a sentence first, its
// syntax after it as written (people paste it into tools), both inside the
// element marked objective; the results step's matrix line, which already
// says the sentence, keeps only the syntax "as written".
func TestObjectiveSentenceBeforeSyntax(t *testing.T) {
	v := demoReport(t)
	v.CanEdit = false // the read view, as a reviewer sees it
	sentence, syntax := v.In.Contract.Objective.Sentence(), v.In.Contract.Objective.String()
	got := readText(between(stepPageOf(t, v, "contract"), `data-testid="objective"`, "</dd>"))
	if want := sentence + ". as written: " + syntax; !strings.Contains(got, want) {
		t.Errorf("contract's objective = %q, want %q", got, want)
	}
	line := readText(between(stepPageOf(t, v, "results"), `data-testid="matrix-objective"`, "</p>"))
	if want := "As written in the contract: " + syntax; !strings.Contains(line, want) {
		t.Errorf("matrix's objective line = %q, want %q", line, want)
	}
	if strings.Count(line, sentence) != 1 {
		t.Errorf("matrix's objective line says the sentence %d times, want once: %q", strings.Count(line, sentence), line)
	}
}
