package web

import (
	"fmt"
	"html"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// The objective is read as a sentence wherever it is shown outside the
// contract: the exit check's Objective row on the overview, the matrix's
// "Judged against" line on the results step, and /compare; the exit
// check and /compare show no syntax.
func TestObjectiveInWordsOnPages(t *testing.T) {
	app := newTestApp(t)
	demo := demoReport(t, app)
	// The demo's objective in force is its contract's (no amendment).
	sentence, syntax := demo.Contract.Objective.Sentence(), demo.Contract.Objective.String()
	if !strings.Contains(sentence, "of requests succeed") || !strings.Contains(syntax, ">=") {
		t.Fatalf("demo objective %q / %q", sentence, syntax)
	}
	words := func(s string) string {
		return strings.Join(strings.Fields(html.UnescapeString(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(s, ""))), " ")
	}
	c := app.client("reviewer")
	base := fmt.Sprintf("%s/reports/%d", app.srv.URL, demo.ID)

	_, overview := do(t, c, http.MethodGet, base, nil)
	row := upTo(overview, "exit-objective", "</tr>")
	if got := words(row); !strings.Contains(got, sentence) {
		t.Errorf("exit check's objective row = %q, want the sentence %q", got, sentence)
	}
	if strings.Contains(html.UnescapeString(row), syntax) {
		t.Errorf("exit check's objective row shows the syntax: %q", row)
	}

	_, results := do(t, c, http.MethodGet, base+"/results", nil)
	line := upTo(results, "matrix-objective-words", "</span>")
	if got := words(line); !strings.Contains(got, sentence+".") {
		t.Errorf("matrix's objective line = %q, want it to state %q", got, sentence)
	}

	cands, err := app.store.Candidates(t.Context(), demo.ID)
	if err != nil || len(cands) == 0 {
		t.Fatalf("demo candidates: %v", err)
	}
	_, cmp := do(t, c, http.MethodGet, fmt.Sprintf("%s/compare?s=%d&s=%d.c%d", app.srv.URL, demo.ID, demo.ID, cands[0].ID), nil)
	if got := words(upTo(cmp, "compare-objective", "</p>")); !strings.Contains(got, "All judged against one objective: "+sentence+".") {
		t.Errorf("/compare's objective = %q, want the sentence %q", got, sentence)
	}
	if strings.Contains(html.UnescapeString(cmp), syntax) {
		t.Error("/compare shows the objective's syntax")
	}
}

// The contract's read view says the objective as a sentence first, its
// syntax after it as written (people paste it into tools), both inside the
// element marked objective; the results step's matrix line, which already
// says the sentence, keeps only the syntax "as written".
func TestObjectiveSentenceBeforeSyntax(t *testing.T) {
	app := newTestApp(t)
	demo := demoReport(t, app)
	sentence, syntax := demo.Contract.Objective.Sentence(), demo.Contract.Objective.String()
	words := func(s string) string {
		return strings.Join(strings.Fields(html.UnescapeString(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(s, ""))), " ")
	}
	c := app.client("reviewer")
	base := fmt.Sprintf("%s/reports/%d", app.srv.URL, demo.ID)

	_, contract := do(t, c, http.MethodGet, base+"/contract", nil)
	got := words(upTo(contract, "objective", "</dd>"))
	if want := sentence + ". as written: " + syntax; !strings.Contains(got, want) {
		t.Errorf("contract's objective = %q, want %q", got, want)
	}

	_, results := do(t, c, http.MethodGet, base+"/results", nil)
	line := words(upTo(results, "matrix-objective", "</p>"))
	if want := "As written in the contract: " + syntax; !strings.Contains(line, want) {
		t.Errorf("matrix's objective line = %q, want %q", line, want)
	}
	if strings.Count(line, sentence) != 1 {
		t.Errorf("matrix's objective line says the sentence %d times, want once: %q", strings.Count(line, sentence), line)
	}
}
