package web

import (
	"fmt"
	"html"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// /compare, which puts the reports picked together, reads the one
// objective they are judged against as a sentence and shows no syntax
// (the report's own pages are tested in web/view).
func TestObjectiveInWordsOnCompare(t *testing.T) {
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
	cands, err := app.store.Candidates(t.Context(), demo.ID)
	if err != nil || len(cands) == 0 {
		t.Fatalf("demo candidates: %v", err)
	}
	_, cmp := do(t, app.client("reviewer"), http.MethodGet, fmt.Sprintf("%s/compare?s=%d&s=%d.c%d", app.srv.URL, demo.ID, demo.ID, cands[0].ID), nil)
	if got := words(upTo(cmp, "compare-objective", "</p>")); !strings.Contains(got, "All judged against one objective: "+sentence+".") {
		t.Errorf("/compare's objective = %q, want the sentence %q", got, sentence)
	}
	if strings.Contains(html.UnescapeString(cmp), syntax) {
		t.Error("/compare shows the objective's syntax")
	}
}
