package web

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"capplan/web/view"
)

// The glossary page is reached from the header of every page, shows every
// term under its anchor, and needs no login.
func TestGlossaryPage(t *testing.T) {
	app := newTestApp(t)
	res, body := do(t, http.DefaultClient, http.MethodGet, app.srv.URL+"/glossary", nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("glossary without login: %d", res.StatusCode)
	}
	for _, e := range view.Glossary {
		if !strings.Contains(body, `<dt id="`+e.Key+`" data-testid="glossary-term">`) {
			t.Errorf("glossary page lacks the entry %q", e.Key)
		}
	}
	_, reports := do(t, app.client("lead"), http.MethodGet, app.srv.URL+"/reports", nil)
	if !strings.Contains(reports, `<a href="/glossary" data-testid="nav-glossary">Glossary</a>`) {
		t.Error("the header navigation does not link the glossary")
	}
}

// On every step page of the demo each term is linked once at most (its
// first use), every link names an entry of the glossary, each step links
// the glossary, and the step pages together link the field's words a
// newcomer meets there.
func TestStepPagesLinkTermsOnFirstUse(t *testing.T) {
	app := newTestApp(t)
	demo := demoReport(t, app)
	link := regexp.MustCompile(`<a href="/glossary#([a-z0-9-]+)" class="term" data-term="([a-z0-9-]+)"`)
	linked := map[string]bool{}
	for _, st := range append(reportSteps, reportStep{Name: printStep}) {
		u := fmt.Sprintf("%s/reports/%d%s", app.srv.URL, demo.ID, pathOfStep(st.Name))
		res, body := do(t, app.client("lead"), http.MethodGet, u, nil)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d", u, res.StatusCode)
		}
		if !strings.Contains(body, `data-testid="glossary-link"`) {
			t.Errorf("%s: the step does not link the glossary", u)
		}
		count := map[string]int{}
		for _, m := range link.FindAllStringSubmatch(body, -1) {
			if m[1] != m[2] {
				t.Errorf("%s: a link to %q marked as %q", u, m[1], m[2])
			}
			if _, ok := view.GlossaryTerm(m[1]); !ok {
				t.Errorf("%s: links the term %q, which the glossary lacks", u, m[1])
			}
			count[m[1]]++
			linked[m[1]] = true
		}
		for k, n := range count {
			if n > 1 {
				t.Errorf("%s: the term %q linked %d times, want once (its first use)", u, k, n)
			}
		}
	}
	for _, want := range []string{"ttft", "e2e", "envelope", "ceiling", "admission", "retry-after", "crossover",
		"f-local", "v-api", "fleet", "residency", "provider-view", "reference-rows", "soak", "showback",
		"regression-gate", "recommendation-gates"} {
		if !linked[want] {
			t.Errorf("no step page of the demo links %q", want)
		}
	}
}

// A glossary link takes no children: text written after it on the same
// line in braces ("@Term(...) { "for" } a shared box") is taken for its
// children and dropped from the page. No template writes one.
func TestGlossaryLinksHaveNoChildren(t *testing.T) {
	files, _ := filepath.Glob("*.templ")
	more, _ := filepath.Glob("view/*.templ")
	files = append(files, more...)
	if len(files) == 0 {
		t.Fatal("no templates found")
	}
	childOf := regexp.MustCompile(`@(view\.)?(Term|Prose)\([^)]*\)\s*\{`)
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			if childOf.MatchString(line) {
				t.Errorf("%s:%d: a glossary link with children, which are dropped: %s", f, i+1, strings.TrimSpace(line))
			}
		}
	}
}

// TestNoElseInAttributes holds that no template writes "else" as an
// attribute: templ takes an "else if" among an element's attributes for
// an attribute named else and a second, separate if (a row both stopped
// and not counted got two class attributes). Such a choice is written as
// two ifs whose conditions exclude each other.
func TestNoElseInAttributes(t *testing.T) {
	files, _ := filepath.Glob("*_templ.go")
	more, _ := filepath.Glob("view/*_templ.go")
	files = append(files, more...)
	if len(files) == 0 {
		t.Fatal("no generated templates found")
	}
	elseAttr := regexp.MustCompile(`WriteString\(templ_\w+_Buffer, \d+, " else"\)`)
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if loc := elseAttr.FindIndex(src); loc != nil {
			line := 1 + strings.Count(string(src[:loc[0]]), "\n")
			t.Errorf("%s:%d: an element's attributes hold an else, written as an attribute named else", f, line)
		}
	}
}
