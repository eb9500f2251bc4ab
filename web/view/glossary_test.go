package view

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/a-h/templ"
)

func renderString(t *testing.T, ctx context.Context, c templ.Component) string {
	t.Helper()
	var buf bytes.Buffer
	if err := c.Render(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// The glossary page shows every term of the one list, each under its own
// anchor, and an index linking to each.
func TestGlossaryPageRendersEveryTerm(t *testing.T) {
	html := renderString(t, context.Background(), GlossaryPage())
	if len(Glossary) < 28 {
		t.Errorf("the glossary has %d terms, want the field's 28 or more", len(Glossary))
	}
	seen := map[string]bool{}
	for _, e := range Glossary {
		if seen[e.Key] {
			t.Errorf("term %q twice", e.Key)
		}
		seen[e.Key] = true
		if !regexp.MustCompile(`^[a-z0-9-]+$`).MatchString(e.Key) {
			t.Errorf("term %q: an anchor is lower case letters, digits and dashes", e.Key)
		}
		if len(e.Words) == 0 || strings.TrimSpace(e.Text) == "" || !strings.HasSuffix(e.Text, ".") {
			t.Errorf("term %q: needs words to link and a text in sentences", e.Key)
		}
		for _, want := range []string{
			`<dt id="` + e.Key + `" data-testid="glossary-term">` + templ.EscapeString(e.Name) + `</dt>`,
			`<a href="#` + e.Key + `">`,
		} {
			if !strings.Contains(html, want) {
				t.Errorf("glossary page lacks %s", want)
			}
		}
	}
	for _, want := range []string{"ttft", "itl", "tpot", "e2e", "percentile", "closed-loop", "ceiling", "envelope",
		"weak-evidence", "confidence-bound", "admission", "wait-budget", "retry-after", "headroom",
		"recommendation-gates", "regression-gate", "f-local", "v-api", "crossover", "hybrid-plan", "littles-law",
		"provider-view", "fleet", "residency", "reference-rows", "soak", "showback", "freeze"} {
		if !seen[want] {
			t.Errorf("the glossary lacks %q", want)
		}
	}
	if e, _ := GlossaryTerm("regression-gate"); !strings.Contains(e.Text, "only the baseline") {
		t.Errorf("the regression gate's entry does not say why it asks for a candidate when only the baseline was tested: %q", e.Text)
	}
}

// Within a page each term is linked once, at its first use, whether it
// comes through Term or Prose; later uses are plain text.
func TestTermLinkedOnFirstUseOnly(t *testing.T) {
	page := templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		for _, c := range []templ.Component{
			Prose("The envelope ends at the ceiling; admission keeps inside the envelope."),
			Term("envelope", "Envelope"),
			Term("ceiling", ""),
			Prose("95 % of first tokens within 2 s; TTFT p95"),
		} {
			if err := c.Render(ctx, w); err != nil {
				return err
			}
		}
		return nil
	})
	html := renderString(t, context.Background(), Glossed(page))
	for key, want := range map[string]int{"envelope": 1, "ceiling": 1, "admission": 1, "ttft": 1} {
		if n := strings.Count(html, `data-term="`+key+`"`); n != want {
			t.Errorf("%s linked %d times on the page, want %d:\n%s", key, n, want, html)
		}
	}
	if !strings.Contains(html, `<a href="/glossary#envelope" class="term" data-term="envelope"`) ||
		!strings.Contains(html, `>The envelope</a>`) && !strings.Contains(html, `>envelope</a>`) {
		t.Errorf("the first use of envelope is not linked to its entry:\n%s", html)
	}
	if !strings.Contains(html, " keeps inside the envelope.") {
		t.Errorf("the second use of envelope is not plain text:\n%s", html)
	}
	// A fragment swapped in alone cannot know its page: it links its terms.
	frag := renderString(t, context.Background(), Term("soak", "soak"))
	if !strings.Contains(frag, `href="/glossary#soak"`) {
		t.Errorf("a fragment's term is not linked: %s", frag)
	}
	// Two pages do not share what they linked.
	again := renderString(t, context.Background(), Glossed(Term("soak", "")))
	if !strings.Contains(again, `data-term="soak"`) || !strings.Contains(again, ">Soak</a>") {
		t.Errorf("a new page's first use is not linked, or lacks the entry's name: %s", again)
	}
}

// Prose matches whole words only, the longest spelling first.
func TestProseMatchesWholeWords(t *testing.T) {
	got := splitProse("The admission limit, not admissions; a soaked box; Little's law holds.")
	var keys []string
	for _, p := range got {
		if p.Key != "" {
			keys = append(keys, p.Key+"="+p.Text)
		}
	}
	if strings.Join(keys, ",") != "admission=admission limit,littles-law=Little's law" {
		t.Errorf("linked %v", keys)
	}
}

// Every term a template links names an entry of the glossary: the keys
// given to Term in the templates are read from their source.
func TestEveryLinkedTermExists(t *testing.T) {
	re := regexp.MustCompile(`Term\("([^"]*)"`)
	var files []string
	for _, dir := range []string{".", ".."} {
		m, err := filepath.Glob(filepath.Join(dir, "*.templ"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	uses := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			uses++
			if _, ok := GlossaryTerm(m[1]); !ok {
				t.Errorf("%s links the term %q, which the glossary lacks", f, m[1])
			}
		}
	}
	if uses < 5 {
		t.Errorf("only %d terms linked in the templates: is the pattern still right?", uses)
	}
	for _, w := range proseWords {
		if _, ok := GlossaryTerm(w.key); !ok {
			t.Errorf("prose word %q names no entry", w.word)
		}
	}
}

// A glossary link takes no children: text written after it on the same
// line in braces ("@Term(...) { "for" } a shared box") is taken for its
// children and dropped from the page. No template writes one.
func TestGlossaryLinksHaveNoChildren(t *testing.T) {
	files, _ := filepath.Glob("*.templ")
	more, _ := filepath.Glob("../*.templ")
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
	more, _ := filepath.Glob("../*_templ.go")
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
