package web

import (
	"bytes"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// The demo's baseline against its FP8 candidate: the page names the model
// difference above the numbers, the workbook sheet holds the same figures
// with the deltas as formulas, and a bad pick is refused by name.
func TestCompareBaselineAndCandidate(t *testing.T) {
	app := newTestApp(t)
	demo := demoReport(t, app)
	cands, err := app.store.Candidates(t.Context(), demo.ID)
	if err != nil {
		t.Fatal(err)
	}
	var fp8 int64
	for _, cd := range cands {
		if cd.Candidate.Name == "fp8" {
			fp8 = cd.ID
		}
	}
	q := fmt.Sprintf("s=%d&s=%d.c%d", demo.ID, demo.ID, fp8)
	c := app.client("reviewer")
	res, body := do(t, c, http.MethodGet, app.srv.URL+"/compare?"+q, nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d", res.StatusCode)
	}
	diffs := body[strings.Index(body, `data-testid="compare-differences"`)+1:]
	diffs = diffs[:strings.Index(diffs, "</div>")]
	if !strings.Contains(diffs, "model") || !strings.Contains(diffs, "Llama-3.1-8B-Instruct-FP8") {
		t.Errorf("differences = %q", diffs)
	}
	shared := fmt.Sprintf("ref=%d&s=%d&s=%d.c%d", demo.ID, demo.ID, demo.ID, fp8)
	if !strings.Contains(body, `data-testid="compare-per1000-expected"`) || !strings.Contains(body, "/compare.xlsx?"+strings.ReplaceAll(shared, "&", "&amp;")) {
		t.Error("no cost per 1,000 row or workbook link")
	}
	// Each differing value is written under its subject's name.
	diffTable := upTo(body, "compare-difference-table", "</table>")
	if !strings.Contains(diffTable, "<th scope=\"col\">"+demo.Title+": fp8</th>") {
		t.Errorf("the differences name no subject: %q", diffTable)
	}
	if !regexp.MustCompile(`(?s)<th scope="row">model.*?</th><td>meta-llama/Llama-3.1-8B-Instruct</td><td>meta-llama/Llama-3.1-8B-Instruct-FP8</td>`).MatchString(diffTable) {
		t.Errorf("the model difference does not say which subject has which: %q", diffTable)
	}

	res, err = c.Get(app.srv.URL + "/compare.xlsx?" + q)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var buf bytes.Buffer
	buf.ReadFrom(res.Body)
	f, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatalf("workbook: %v (status %d)", err, res.StatusCode)
	}
	rows, err := f.GetRows("Comparison")
	if err != nil {
		t.Fatal(err)
	}
	var ceiling []string
	for _, r := range rows {
		if len(r) > 0 && r[0] == "Demonstrated ceiling" {
			ceiling = r
		}
	}
	if len(ceiling) < 3 {
		t.Fatalf("ceiling row = %v in %v", ceiling, rows)
	}
	for i, r := range rows {
		if len(r) > 0 && r[0] == "Demonstrated ceiling" {
			if fx, _ := f.GetCellFormula("Comparison", fmt.Sprintf("D%d", i+1)); fx != fmt.Sprintf("C%d/B%d-1", i+1, i+1) {
				t.Errorf("delta formula = %q in %v", fx, rows)
			}
		}
	}

	// The user chooses the reference: the candidate, though it comes
	// second; the deltas move to the baseline's column, the workbook's too.
	res, body = do(t, c, http.MethodGet, fmt.Sprintf("%s/compare?%s&ref=%d.c%d", app.srv.URL, q, demo.ID, fp8), nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d", res.StatusCode)
	}
	if got := upTo(body, "compare-reference", "</p>"); !strings.Contains(got, demo.Title+": fp8</strong>") {
		t.Errorf("reference line = %q", got)
	}
	if !strings.Contains(upTo(body, "compare-col-1", "</th>"), "reference") || !strings.Contains(upTo(body, "compare-col-0", "</th>"), "measure against this") {
		t.Errorf("column heads = %q / %q", upTo(body, "compare-col-0", "</th>"), upTo(body, "compare-col-1", "</th>"))
	}
	cells := upTo(body, "compare-ceiling", "</tr>")
	if i, j := strings.Index(cells, `class="delta"`), strings.Index(cells, "</td>"); i < 0 || i > j {
		t.Errorf("the baseline's ceiling carries no delta against the candidate: %q", cells)
	}
	res, err = c.Get(fmt.Sprintf("%s/compare.xlsx?%s&ref=%d.c%d", app.srv.URL, q, demo.ID, fp8))
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	buf.ReadFrom(res.Body)
	res.Body.Close()
	if f, err = excelize.OpenReader(&buf); err != nil {
		t.Fatal(err)
	}
	if rows, err = f.GetRows("Comparison"); err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		if len(r) > 0 && r[0] == "Demonstrated ceiling" {
			if fx, _ := f.GetCellFormula("Comparison", fmt.Sprintf("D%d", i+1)); fx != fmt.Sprintf("B%d/C%d-1", i+1, i+1) {
				t.Errorf("delta against the chosen reference = %q, want B/C-1", fx)
			}
		}
		if len(r) > 0 && strings.HasPrefix(r[0], "Changes are against") && r[0] != "Changes are against "+demo.Title+": fp8, the reference" {
			t.Errorf("workbook reference line = %q", r[0])
		}
	}

	res, body = do(t, c, http.MethodGet, fmt.Sprintf("%s/compare?s=%d&s=999", app.srv.URL, demo.ID), nil)
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(testid(body, "compare-error"), "report 999 does not exist") {
		t.Errorf("bad pick: %d %q", res.StatusCode, testid(body, "compare-error"))
	}
	res, body = do(t, c, http.MethodGet, fmt.Sprintf("%s/compare?s=%d", app.srv.URL, demo.ID), nil)
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "2 to 4") {
		t.Errorf("one pick: %d", res.StatusCode)
	}
}

// upTo is the page from the element marked id up to the first end after it.
func upTo(body, id, end string) string {
	i := strings.Index(body, `data-testid="`+id+`"`)
	if i < 0 {
		return ""
	}
	s := body[i:]
	if j := strings.Index(s, end); j >= 0 {
		return s[:j]
	}
	return s
}
