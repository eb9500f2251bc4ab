package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"capplan/planner"
	"capplan/web/demogen/telemetrygen"
)

// One source per figure (docs/method.md, "Measured figures of a row"): the
// demo types 13 % headroom at load 8, 8 % at load 10 and 640 W at load 8;
// a GPU log over every row says 12.6 % at 8, 18.8 % and 631 W at 10. Every
// section that shows a row's headroom or power (matrix, candidates, costs,
// the comparison, the workbook's sheets and the API) shows the log's one
// value, marked as such, and none shows the typed one.
func TestOneValuePerRowFigureInEverySection(t *testing.T) {
	app := newTestApp(t)
	demo := demoReport(t, app)
	ctx := t.Context()
	stored, err := app.store.Rows(ctx, demo.ID)
	if err != nil {
		t.Fatal(err)
	}
	var rows []planner.Row
	for _, sr := range stored {
		if sr.CandidateID == 0 {
			rows = append(rows, sr.Row)
		}
	}
	sort.Slice(rows, func(a, b int) bool { la, _ := rows[a].LoadValue(); lb, _ := rows[b].LoadValue(); return la < lb })
	// Headroom 1 - used / 81,559: 17.6, 16.6, 14.6, 12.6 and 18.8 %; the
	// ceiling (load 8: load 10 fails its latency) draws 631 W.
	steady := map[float64]telemetrygen.Row{
		1: {Watts: 420, MemUsedMiB: 67174}, 2: {Watts: 480, MemUsedMiB: 67994}, 4: {Watts: 560, MemUsedMiB: 69632},
		8: {Watts: 631, MemUsedMiB: 71270}, 10: {Watts: 650, MemUsedMiB: 66226},
	}
	cfg := telemetrygen.Config{Start: DemoTelemetryStart(), LeadS: 10}
	for _, r := range rows {
		load, _ := r.LoadValue()
		tr := steady[load]
		tr.DurationS, tr.UtilPct, tr.TempC = *r.DurationS, 99, 60
		cfg.Rows = append(cfg.Rows, tr)
	}
	var smi bytes.Buffer
	if err := telemetrygen.Write(&smi, cfg); err != nil {
		t.Fatal(err)
	}
	admin := app.client("admin")
	res, body := postEvidence(t, admin, fmt.Sprintf("%s/reports/%d/evidence/telemetry", app.srv.URL, demo.ID),
		map[string]string{"version": fmt.Sprint(demo.Version), "start": DemoTelemetryStart().Format("2006-01-02T15:04:05")}, "smi.csv", smi.Bytes())
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("telemetry: %d\n%s", res.StatusCode, body)
	}

	_, page := do(t, admin, http.MethodGet, fmt.Sprintf("%s/reports/%d/print", app.srv.URL, demo.ID), nil)
	matrix := sectionOf(page, "matrix")
	rowOf := func(sec string, i int) string {
		at := strings.Index(sec, fmt.Sprintf(`data-testid="matrix-row-%d"`, i))
		if at < 0 {
			t.Fatalf("no matrix row %d", i)
		}
		rest := sec[at:]
		return rest[:strings.Index(rest, "</tr>")]
	}
	// Rows in load order: 1, 2, 4, 8, 10.
	r8, r10 := rowOf(matrix, 3), rowOf(matrix, 4)
	if h := testid(r8, "headroom"); h != "12.6 %" {
		t.Errorf("matrix, load 8: headroom %q", h)
	}
	if h := testid(r10, "headroom"); h != "18.8 %" {
		t.Errorf("matrix, load 10: headroom %q", h)
	}
	if p := testid(r8, "power"); p != "631" {
		t.Errorf("matrix, load 8: power %q", p)
	}
	if src := testid(r10, "figure-source"); src != "log" {
		t.Errorf("matrix, load 10: marked %q", src)
	}

	cands := sectionOf(page, "candidates")
	if h := testid(cands, "candidate-headroom"); h != "12.6 %" {
		t.Errorf("candidates: lowest headroom %q", h)
	}
	// The decision chooses FP8, whose own rows no log covers: it says so.
	if d := regexp.MustCompile(`candidate-decision"><strong>([^<]*)`).FindStringSubmatch(cands); d == nil || !strings.Contains(d[1], "candidate fp8 fits with 15 % observed headroom") || !strings.Contains(d[1], "(headroom typed)") {
		t.Errorf("candidates: decision %v", d)
	}
	for _, typed := range []string{"13.0 %", "8 %, below 10 %", "8.0 %", ">640<"} {
		if strings.Contains(cands, typed) || strings.Contains(matrix, typed) {
			t.Errorf("a typed figure %q is still shown", typed)
		}
	}
	costs := sectionOf(page, "costs")
	if !strings.Contains(costs, "Power draw: 631 W (measured at the ceiling row (telemetry: smi.csv))") {
		t.Errorf("costs: %s", regexp.MustCompile(`Power draw:[^<]*`).FindString(costs))
	}

	// The comparison of the report with its FP8 candidate.
	list, _ := app.store.Candidates(ctx, demo.ID)
	var fp8 int64
	for _, cd := range list {
		if cd.Candidate.Name == "fp8" {
			fp8 = cd.ID
		}
	}
	q := fmt.Sprintf("s=%d&s=%d.c%d", demo.ID, demo.ID, fp8)
	_, cmp := do(t, admin, http.MethodGet, app.srv.URL+"/compare?"+q, nil)
	watts := cmp[strings.Index(cmp, `data-testid="compare-watts"`):]
	if cell := regexp.MustCompile(`<td>([^<]*)<small`).FindStringSubmatch(watts); cell == nil || strings.TrimSpace(cell[1]) != "631" {
		t.Errorf("compare: power %v", cell)
	}

	// The workbook: the matrix sheet's figures and their source, the
	// candidates sheet, the comparison sheet.
	wb := workbook(t, admin, fmt.Sprintf("%s/reports/%d/export.xlsx", app.srv.URL, demo.ID))
	mrows, _ := wb.GetRows("Matrix")
	hdr := -1
	for i, r := range mrows {
		if len(r) > 0 && r[0] == "Load" {
			hdr = i
		}
	}
	if hdr < 0 {
		t.Fatalf("no matrix header in %v", mrows)
	}
	col := func(name string) int {
		for i, h := range mrows[hdr] {
			if h == name {
				return i
			}
		}
		t.Fatalf("no column %q", name)
		return 0
	}
	hc, pc, sc := col("Memory headroom"), col("Power (W)"), col("Headroom, peak memory and power from")
	// The log's figures at loads 8 and 10 (headroom 12.6 % and 18.8 %,
	// 631 W and 650 W), as shown with the sheet's formats.
	seen := 0
	for _, r := range mrows[hdr+1:] {
		if len(r) <= sc {
			continue
		}
		want := map[string][2]string{"8": {"12.6%", "631"}, "10": {"18.8%", "650"}}[r[0]]
		if want[0] == "" {
			continue
		}
		seen++
		if r[hc] != want[0] || r[pc] != want[1] || !strings.Contains(r[sc], "memory: telemetry: smi.csv") {
			t.Errorf("workbook matrix, load %s: %q %q %q, want %s and %s W from the log", r[0], r[hc], r[pc], r[sc], want[0], want[1])
		}
	}
	if seen != 2 {
		t.Errorf("workbook matrix: %d of the rows at loads 8 and 10 found", seen)
	}
	crow := sheetRow(t, wb, "Candidates", "baseline")
	if !strings.Contains(strings.Join(crow, "|"), "12.6") || !strings.Contains(strings.Join(crow, "|"), "telemetry: smi.csv") {
		t.Errorf("workbook candidates: %v", crow)
	}
	cwb := workbook(t, admin, app.srv.URL+"/compare.xlsx?"+q)
	if w := sheetRow(t, cwb, "Comparison", "Power at the ceiling (W)"); len(w) < 2 || w[1] != "631" {
		t.Errorf("workbook comparison: %v", w)
	}

	// The API: the matrix and the candidates carry the same value and its source.
	var doc struct {
		Result planner.Result `json:"result"`
	}
	tok, err := app.store.CreateAPIToken(ctx, app.users["reviewer"].ID, "test")
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/api/v1/reports/%d", app.srv.URL, demo.ID), nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	hres, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer hres.Body.Close()
	if err := json.NewDecoder(hres.Body).Decode(&doc); err != nil {
		t.Fatalf("API: %v", err)
	}
	b := doc.Result.Candidates.Candidates[0]
	if b.Headroom == nil || *b.Headroom < 0.1261 || *b.Headroom > 0.1262 || b.HeadroomSource != "telemetry: smi.csv" {
		t.Errorf("API candidates: %v %q", b.Headroom, b.HeadroomSource)
	}
}

// workbook downloads and opens a workbook.
func workbook(t *testing.T, c *http.Client, u string) *excelize.File {
	t.Helper()
	res, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var buf bytes.Buffer
	buf.ReadFrom(res.Body)
	f, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatalf("%s: %v (status %d)", u, err, res.StatusCode)
	}
	return f
}

// sheetRow is the first row of sheet whose first cell is first.
func sheetRow(t *testing.T, f *excelize.File, sheet, first string) []string {
	t.Helper()
	rows, err := f.GetRows(sheet)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if len(r) > 0 && r[0] == first {
			return r
		}
	}
	t.Fatalf("%s: no row %q", sheet, first)
	return nil
}
