package view

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/a-h/templ"

	"capplan/planner"
	"capplan/web/store"
)

// demoReport is the demo report's view model for its owner
// (testdata/demo_report.json, written from the seeded demo by
// TestWriteViewFixture in web/report_view_test.go), its Result computed
// here from its inputs: no server, no database.
func demoReport(t *testing.T) Report {
	t.Helper()
	b, err := os.ReadFile("testdata/demo_report.json")
	if err != nil {
		t.Fatal(err)
	}
	var v Report
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	v.In = withRowExtras(t, v.In)
	v.Result = planner.Compute(v.In)
	return v
}

// renderHTML renders c as a page would.
func renderHTML(t *testing.T, c templ.Component) string {
	t.Helper()
	return renderString(t, context.Background(), c)
}

var tagRE = regexp.MustCompile(`<[^>]*>`)

// readText is the text a reader sees in page, with its white space collapsed.
func readText(page string) string {
	return strings.Join(strings.Fields(html.UnescapeString(tagRE.ReplaceAllString(page, " "))), " ")
}

// between is s from the first from to the next to after it (to the end
// without one; "" without from).
func between(s, from, to string) string {
	i := strings.Index(s, from)
	if i < 0 {
		return ""
	}
	j := strings.Index(s[i:], to)
	if j < 0 {
		return s[i:]
	}
	return s[i : i+j]
}

// testid is the text of the element with data-testid id in body, up to its
// first child ("" without one).
func testid(body, id string) string {
	m := regexp.MustCompile(`data-testid="` + regexp.QuoteMeta(id) + `"[^>]*>([^<]*)`).FindStringSubmatch(body)
	if m == nil {
		return ""
	}
	return strings.TrimSpace(m[1])
}

// stepPageOf renders step of v as the app's step page does ("" the
// overview, PrintStep the whole report).
func stepPageOf(t *testing.T, v Report, step string) string {
	t.Helper()
	switch step {
	case "":
		return renderHTML(t, ReportPage(v))
	case PrintStep:
		v.Print = true
		return renderHTML(t, PrintPage(v))
	}
	st, ok := StepByName(step)
	if !ok {
		t.Fatalf("no step %q", step)
	}
	v.Step = step
	return renderHTML(t, ReportStepPage(v, st))
}

// The demo's figures the pages below look for, as the planner computes
// them: if the demo changes, these say so before the pages do.
func TestDemoReportComputes(t *testing.T) {
	v := demoReport(t)
	r := v.Result
	if c := r.Envelope.Ceiling; c == nil || *c != 8 {
		t.Errorf("ceiling %v, want 8 streams", c)
	}
	if len(r.Matrix) != 5 || len(r.Scenarios) != 3 || len(r.Quotes) != 1 || r.Recommendation == nil {
		t.Errorf("demo: %d rows, %d scenarios, %d quotes, recommendation %v", len(r.Matrix), len(r.Scenarios), len(r.Quotes), r.Recommendation)
	}
	for _, it := range r.ExitCheck {
		if !it.Pass {
			t.Errorf("demo exit check fails %q: %s", it.Label, it.Detail)
		}
	}
	// The app's figures, which need the rows' per-request records and
	// sources (withRowExtras): 0.2986 in-objective req/s a box with random
	// arrivals, 3 boxes for the expected busy hour.
	if p := r.Capacity.PerBoxRate; p == nil || fmt.Sprintf("%.4f", *p) != "0.2986" {
		t.Errorf("capacity per box %v, want 0.2986 req/s as the app computes it", p)
	}
	for _, s := range r.Scenarios {
		if s.Scenario.Name == "expected" && (s.BoxesNeeded == nil || *s.BoxesNeeded != 3) {
			t.Errorf("expected scenario needs %v boxes, want 3", s.BoxesNeeded)
		}
	}
}

// Every step page renders its head, the step bar with the step marked,
// and each of its sections (view.Sections) with content of its own.
func TestEveryStepRendersItsSections(t *testing.T) {
	v := demoReport(t)
	for _, st := range Steps {
		t.Run(StepKey(st.Name), func(t *testing.T) {
			page := stepPageOf(t, v, st.Name)
			if !strings.Contains(page, v.R.Title) {
				t.Errorf("the page does not name the report %q", v.R.Title)
			}
			if st.Name != "" && !strings.Contains(page, `aria-current="page"`) {
				t.Error("the step bar marks no step as the current one")
			}
			shown := sectionsOf(st.Name)
			if len(shown) == 0 {
				t.Fatal("the step shows no section")
			}
			for _, s := range shown {
				section := sectionIn(page, s.Name)
				if section == "" {
					t.Errorf("section %q is missing", s.Name)
					continue
				}
				if len(readText(section)) < len(s.Title)+20 {
					t.Errorf("section %q is nearly empty: %q", s.Name, readText(section))
				}
			}
			// No section of another step is on this one.
			for _, s := range Sections {
				if s.Step != st.Name && s.View != nil && sectionIn(page, s.Name) != "" {
					t.Errorf("section %q of step %q is on step %q", s.Name, s.Step, st.Name)
				}
			}
		})
	}
}

// sectionIn is the element with id name in page, from its opening tag to
// the next section's ("" when page holds no such id).
func sectionIn(page, name string) string {
	re := regexp.MustCompile(`<(section|div|article)[^>]*\sid="` + regexp.QuoteMeta(name) + `"`)
	loc := re.FindStringIndex(page)
	if loc == nil {
		return ""
	}
	rest := page[loc[0]:]
	if next := regexp.MustCompile(`<section[^>]*\sid="`).FindAllStringIndex(rest, 2); len(next) == 2 {
		return rest[:next[1][0]]
	}
	return rest
}

// What each step says, from the computed report: the figures and words a
// reader comes to the page for.
func TestStepPagesSayTheReportsAnswers(t *testing.T) {
	v := demoReport(t)
	r := v.Result
	in := v.In
	rec := in.Recommendation
	if rec == nil {
		t.Fatal("the demo has no recommendation")
	}
	checks := []struct {
		step string
		want []string
	}{
		{"", []string{r.Headline.Serve.Question, r.Headline.Serve.Answer, r.Headline.Own.Answer, "Exit check"}},
		{"contract", []string{in.Contract.Device, in.Contract.BaselineModel, in.Contract.Objective.Sentence()}},
		{"results", []string{"Demonstrated ceiling: " + num(r.Envelope.Ceiling, -1), v.Imports.Imports[0].FileName}},
		{"costs", []string{r.Quotes[0].Name}},
		{"decision", []string{r.Scenarios[0].Scenario.Name, r.Crossovers[0].Text, decisionText(rec.Decision), rec.Owner}},
		{"evidence", []string{"Soak and drains", "GPU telemetry"}},
		{"review", []string{v.History[0].Action, "Comments"}},
	}
	for _, c := range checks {
		text := readText(stepPageOf(t, v, c.step))
		for _, w := range c.want {
			if w == "" {
				t.Errorf("step %q: an empty figure to look for", c.step)
				continue
			}
			if !strings.Contains(text, readText(w)) {
				t.Errorf("step %q does not say %q", StepKey(c.step), w)
			}
		}
	}
}

// The results step holds the matrix: one row per load level, each with
// its verdict.
func TestResultsStepShowsTheMatrix(t *testing.T) {
	v := demoReport(t)
	page := stepPageOf(t, v, "results")
	matrix := sectionIn(page, "matrix")
	if matrix == "" {
		t.Fatal("no matrix")
	}
	for _, rr := range v.Result.Matrix {
		if !strings.Contains(readText(matrix), verdictWord(rr.Verdict.State)) {
			t.Errorf("the matrix does not say the verdict %q of load %v", verdictWord(rr.Verdict.State), rr.Load)
		}
	}
	if n := strings.Count(matrix, `data-testid="matrix-row-`); n < len(v.Result.Matrix) {
		t.Errorf("%d matrix rows shown, the report has %d", n, len(v.Result.Matrix))
	}
}

// The print view carries every step under its heading, and every section
// once.
func TestPrintViewCarriesEveryStep(t *testing.T) {
	v := demoReport(t)
	page := stepPageOf(t, v, PrintStep)
	for _, st := range Steps {
		if !strings.Contains(page, `data-testid="print-step-`+StepKey(st.Name)+`"`) {
			t.Errorf("no part for step %q", StepKey(st.Name))
		}
	}
	for _, s := range Sections {
		if s.View == nil {
			continue
		}
		if n := strings.Count(page, ` id="`+s.Name+`"`); n != 1 {
			t.Errorf("section %q shown %d times", s.Name, n)
		}
	}
	if !strings.Contains(readText(page), "Demonstrated ceiling: "+num(v.Result.Envelope.Ceiling, -1)) {
		t.Error("the print view does not say the ceiling")
	}
}

// A reader without the right to edit sees no form that changes the report
// on any step (a comment, which anyone who reads may write, aside).
func TestStepsShowNoEditFormsToReaders(t *testing.T) {
	v := demoReport(t)
	v.CanEdit, v.CanEditCosts, v.CanSubmit, v.CanWithdraw, v.CanAddQuotes = false, false, false, false, false
	v.Imports.CanEdit = false
	post := regexp.MustCompile(`hx-post="(/reports/[^"]*)"`)
	for _, st := range Steps {
		for _, m := range post.FindAllStringSubmatch(stepPageOf(t, v, st.Name), -1) {
			if !strings.HasSuffix(m[1], "/comments") {
				t.Errorf("step %q shows a reader a form posting to %s", StepKey(st.Name), m[1])
			}
		}
	}
}

// Every section, and every anchor named on its own, has its title from
// planner.SectionTitle, the one list of titles the workbook reads too.
func TestEverySectionHasItsTitle(t *testing.T) {
	for _, s := range Sections {
		if s.Title == "" || s.Title != planner.SectionTitle(s.Name) {
			t.Errorf("section %q is titled %q", s.Name, s.Title)
		}
		for _, a := range s.Named {
			if sectionTitle(a) == "" || sectionTitle(a) == a {
				t.Errorf("anchor %q of section %q has no title", a, s.Name)
			}
		}
	}
}

// A report just created (nothing typed, nothing imported) renders every
// step, each of its sections present, and the overview says for each
// answer what is missing, with a link to where it is entered.
func TestBlankReportRendersEveryStep(t *testing.T) {
	var v Report
	v.R = store.Report{ID: 3, Title: "Blank", Owner: "lead@example.com", Version: 1}
	v.CanEdit, v.CanEditCosts, v.CanSubmit = true, true, true
	v.Imports = Imports{ReportID: 3, Version: 1, CanEdit: true}
	v.Result = planner.Compute(v.In)
	for _, st := range append(Steps, StepDef{Name: PrintStep}) {
		page := stepPageOf(t, v, st.Name)
		for _, s := range Sections {
			if s.View != nil && (s.Step == st.Name || st.Name == PrintStep) && sectionIn(page, s.Name) == "" {
				t.Errorf("step %q: section %q is missing", StepKey(st.Name), s.Name)
			}
		}
	}
	page := stepPageOf(t, v, "")
	for _, name := range []string{"serve", "admit", "own", "decision"} {
		if !strings.Contains(page, `data-testid="headline-`+name+`" data-answered="false"`) {
			t.Errorf("%s is not marked unanswered", name)
		}
	}
	for _, want := range []string{
		`No load-test results imported: import the benchmark files. Go to Imported results`,
		"What is missing:",
	} {
		if !strings.Contains(readText(page), want) {
			t.Errorf("the overview lacks %q", want)
		}
	}
	if !strings.Contains(page, `href="/reports/3/results#imports"`) {
		t.Error("the missing results do not link to the imports on the results step")
	}
}
