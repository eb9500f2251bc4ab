package view

import (
	"html"
	"regexp"
	"strings"
	"testing"
)

// rawFloatPattern finds a number written with more than six digits after
// the decimal point's leading zeros: a float printed as the machine holds
// it (631.2969047619048, 0.00360610607831391) rather than by the display
// rule of planner/display.go. Exact short decimals (0.00026112) pass.
var rawFloatPattern = regexp.MustCompile(`\d\.0*[1-9]\d{6,}`)

// pageVisibleText is what a person reads on a page: the text between tags
// and the values of form fields (not the tooltips, which carry exact
// values on purpose, nor scripts and styles).
func pageVisibleText(page string) string {
	page = regexp.MustCompile(`(?s)<(script|style)\b.*?</(script|style)>`).ReplaceAllString(page, " ")
	var b strings.Builder
	for _, m := range regexp.MustCompile(`<(?:input|textarea|option)\b[^>]*\bvalue="([^"]*)"`).FindAllStringSubmatch(page, -1) {
		b.WriteString(html.UnescapeString(m[1]) + "\n")
	}
	b.WriteString(html.UnescapeString(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(page, " ")))
	return b.String()
}

// rawFloatsOf lists each raw float in text with some context.
func rawFloatsOf(text string) []string {
	var out []string
	for _, loc := range rawFloatPattern.FindAllStringIndex(text, -1) {
		lo, hi := max(0, loc[0]-60), min(len(text), loc[1]+20)
		out = append(out, strings.Join(strings.Fields(text[lo:hi]), " "))
	}
	return out
}

// TestNoRawFloatsOnTheDemo reads the demo report's print view, as its
// owner sees it (every edit form's values too), and finds no number
// written as a raw float. (The workbook's sheets are read in web.)
func TestNoRawFloatsOnTheDemo(t *testing.T) {
	if got := rawFloatsOf("631.2969047619048 W and 0.00360610607831391 but 0.00026112 and 2410.868089"); len(got) != 2 {
		t.Fatalf("the scan finds %q, want the two raw floats", got)
	}
	v := demoReport(t)
	if !v.CanEdit || !v.CanEditCosts {
		t.Fatal("the fixture is not the owner's view")
	}
	page := printOf(t, v)
	if !strings.Contains(page, `data-testid="crossover-formula"`) {
		t.Fatal("the demo page shows no crossover formula")
	}
	for _, s := range rawFloatsOf(pageVisibleText(page)) {
		t.Errorf("page: raw float in %q", s)
	}
}
