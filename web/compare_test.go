package web

import (
	"bytes"
	"fmt"
	"net/http"
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
	if !strings.Contains(body, `data-testid="compare-per1000-expected"`) || !strings.Contains(body, "/compare.xlsx?"+strings.ReplaceAll(q, "&", "&amp;")) {
		t.Error("no cost per 1,000 row or workbook link")
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

	res, body = do(t, c, http.MethodGet, fmt.Sprintf("%s/compare?s=%d&s=999", app.srv.URL, demo.ID), nil)
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(testid(body, "compare-error"), "report 999 does not exist") {
		t.Errorf("bad pick: %d %q", res.StatusCode, testid(body, "compare-error"))
	}
	res, body = do(t, c, http.MethodGet, fmt.Sprintf("%s/compare?s=%d", app.srv.URL, demo.ID), nil)
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "2 to 4") {
		t.Errorf("one pick: %d", res.StatusCode)
	}
}
