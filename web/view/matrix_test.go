package view

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"capplan/planner"
	"capplan/web/store"
)

func TestCodeWords(t *testing.T) {
	for in, want := range map[string]string{"planned-row-missing": "planned row missing", "load-kind-mismatch": "load kind mismatch", "errors": "errors"} {
		if got := codeWords(in); got != want {
			t.Errorf("codeWords(%q) = %q, want %q", in, got, want)
		}
	}
}

// readerOf is v as someone who may read but not edit it sees it.
func readerOf(v Report) Report {
	v.CanEdit, v.CanEditCosts, v.CanSubmit, v.CanWithdraw, v.CanAddQuotes = false, false, false, false, false
	v.Imports.CanEdit = false
	return v
}

// The matrix judges each row against the objective, with the failing
// figure marked and its reason in its title, links each row to its
// sources and the whole to its CSV; the envelope says the ceiling in words
// and proposes the admission limit as a flag and as JSON, with its chart;
// a reader sees no figures form.
func TestMatrixShowsVerdictsEnvelopeAndAdmission(t *testing.T) {
	v := readerOf(sweepReport(t))
	id := v.R.ID
	body := printOf(t, v)
	m := sectionIn(body, "matrix")
	for _, want := range []string{
		`data-testid="matrix-row-4" data-verdict="fail"`,
		`data-testid="matrix-row-3" data-verdict="pass"`,
		`class="num fail" title="p95 end-to-end 16.2 s, above the 15 s bound; ` + planner.SummaryBoundNote + `" data-testid="e2e-p95">16.200`,
		`class="num pass" title="p95 end-to-end 12.4 s, within the 15 s bound; ` + planner.SummaryBoundNote + `" data-testid="e2e-p95">12.400`,
		"p95 end-to-end 16.2 s, above the 15 s bound",
		fmt.Sprintf(`href="/reports/%d/rows/%d/provenance?from=matrix"`, id, sweepRowID(4)),
		fmt.Sprintf(`href="/reports/%d/matrix.csv"`, id),
	} {
		if !strings.Contains(m, want) {
			t.Errorf("matrix lacks %s", want)
		}
	}
	if strings.Contains(m, "observed-form-") {
		t.Error("a reader sees the observed-figures forms")
	}
	env := sectionIn(body, "envelope")
	// The envelope's sentence links the field's words to the glossary.
	if words := regexp.MustCompile(`<[^>]*>`).ReplaceAllString(env, ""); !strings.Contains(words, "demonstrated ceiling: 8 concurrent streams") {
		t.Error("envelope lacks demonstrated ceiling: 8 concurrent streams")
	}
	for _, want := range []string{
		`data-testid="ceiling">Demonstrated ceiling: 8<`,
		`data-testid="max-in-flight"><strong>8</strong>`,
		"--max-num-seqs 8",
		`&#34;max_in_flight&#34;: 8`,
		`class="chart"`,
	} {
		if !strings.Contains(env, want) {
			t.Errorf("envelope lacks %s", want)
		}
	}
	for _, id := range []string{"matrix", "envelope", "overload", "candidates", "residency"} {
		if !strings.Contains(body, `id="`+id+`"`) {
			t.Errorf("the whole report lacks #%s", id)
		}
	}
}

// The matrix's judged columns come first, labelled with what they are of,
// the other percentiles left out of print; a row's own warning is a badge
// in words with its message as the title; the objective is said above it,
// and a report without one says what to do instead of "Judged against —".
// (The sources pages the rows link to are tested in web.)
func TestMatrixJudgedColumnsFirstAndLabels(t *testing.T) {
	v := sweepReport(t)
	in := v.In
	// A second file with a row that carries a warning of its own.
	few := sweepRows("short.json", strings.Repeat("ef", 32))[:1]
	few[0].Warnings = []planner.Warning{{Code: "few-requests", Message: "only 3 requests: the percentiles are weak"}}
	in.Rows = append(append([]planner.Row(nil), in.Rows...), few...)
	body := printOf(t, withInputs(v, in))
	head := between(sectionIn(body, "matrix"), `data-testid="matrix-table"`, "</thead>")
	order := []string{">Verdict<", ">Success rate (of finished)<", ">Incomplete<", ">TTFT p95 (s)<", ">E2E p95 (s)<", ">Headroom<",
		">Successful req/s<", ">Achieved (in flight · total req/s)<", ">Output tok/s<", ">TTFT p50 (s)<", ">E2E p99 (s)<", ">Sources<"}
	last := -1
	for _, h := range order {
		i := strings.Index(head, h)
		if i < 0 {
			t.Errorf("matrix heading %s missing", h)
			continue
		}
		if i < last {
			t.Errorf("matrix heading %s is out of order: the judged figures come first", h)
		}
		last = i
	}
	if !strings.Contains(head, `title="successful ÷ (successful + errored)`) {
		t.Error("the success rate heading does not say what it is of")
	}
	if !strings.Contains(head, `class="num print-hide more">TTFT p50 (s)`) {
		t.Error("the other percentiles are not left out of print")
	}
	m := sectionIn(body, "matrix")
	if want := `<span class="badge warn" title="only 3 requests: the percentiles are weak" data-code="few-requests">few requests</span>`; !strings.Contains(m, want) {
		t.Errorf("warning badge is not in words with the message as its title: want %s", want)
	}
	if !strings.Contains(m, "Judged against") {
		t.Error("no objective sentence")
	}

	// An empty report says what to do instead of "Judged against —".
	empty := withInputs(Report{R: store.Report{ID: 4, Title: "Empty", Owner: "A. Lead", Version: 1}, CanEdit: true, CanEditCosts: true, CanSubmit: true,
		Imports: Imports{ReportID: 4, Version: 1, CanEdit: true}}, planner.Inputs{})
	m = sectionIn(printOf(t, empty), "matrix")
	if !strings.Contains(m, "No objective yet: write it in the test contract.") || strings.Contains(m, "Judged against") {
		t.Errorf("empty report's matrix: %s", between(m, `data-testid="matrix-objective"`, "</p>"))
	}
}
