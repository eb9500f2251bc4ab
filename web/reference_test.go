package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"capplan/web/demogen/guidellmgen"
)

// inferenceXRows writes InferenceX's agg_bmk.json shape for the demo's
// box (an H100, Llama 3.1 8B in BF16, 512/256 tokens): throughput per GPU
// falling as tok/s per user rises, one row per concurrency.
func inferenceXRows(csv bool) []byte {
	type pt struct{ conc, intvty, out float64 }
	pts := []pt{{1, 160, 150}, {4, 120, 420}, {16, 70, 1100}, {64, 30, 2200}, {256, 12, 3100}}
	cols := []string{"hw", "model", "framework", "precision", "spec_decoding", "disagg", "isl", "osl", "conc", "tp", "ep", "dp_attention", "tput_per_gpu", "output_tput_per_gpu", "input_tput_per_gpu", "median_ttft", "p99_ttft", "intvty"}
	var b bytes.Buffer
	if csv {
		b.WriteString(strings.Join(cols, ",") + "\n")
	} else {
		b.WriteString("[\n")
	}
	for i, p := range pts {
		vals := []any{"h100", "Llama-3.1-8B-Instruct", "vllm", "bf16", "none", false, 512, 256, p.conc, 1, 1, false, p.out * 3, p.out, p.out * 2, 0.05 * float64(i+1), 0.2 * float64(i+1), p.intvty}
		if csv {
			cells := make([]string, len(vals))
			for j, v := range vals {
				cells[j] = fmt.Sprint(v)
			}
			b.WriteString(strings.Join(cells, ",") + "\n")
			continue
		}
		m := map[string]any{}
		for j, c := range cols {
			m[c] = vals[j]
		}
		row, _ := json.Marshal(m)
		if i > 0 {
			b.WriteString(",\n")
		}
		b.Write(row)
	}
	if !csv {
		b.WriteString("\n]\n")
	}
	return b.Bytes()
}

// TestReferenceImportAndPlan: InferenceX rows import as reference rows
// into a report without results, which is then a plan on the page, in the
// list, the API and the workbook; InferenceX rows uploaded as a result and
// a result uploaded as reference rows are refused, saying where each
// belongs; a typed row is added, a refused one names its field.
func TestReferenceImportAndPlan(t *testing.T) {
	app := newTestApp(t)
	r := frozenReport(t, app)
	lead := app.client("lead")
	base := fmt.Sprintf("%s/reports/%d", app.srv.URL, r.ID)

	// A result file given as reference rows: refused, nothing stored.
	var guide bytes.Buffer
	if err := guidellmgen.Write(&guide, guidellmgen.Config{}); err != nil {
		t.Fatal(err)
	}
	res, body := postEvidence(t, lead, base+"/reference", map[string]string{"version": fmt.Sprint(r.Version), "reference.date": "2026-11-20"}, "benchmarks.json", guide.Bytes())
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "import it under Imported results") {
		t.Fatalf("result as reference: %d %s", res.StatusCode, upTo(body, "reference-error-import", "</p>"))
	}
	// InferenceX rows given as a result: refused, naming Reference rows.
	res, body = postFiles(t, lead, base+"/imports", r.Version, false, upload{name: "agg_bmk.json", data: inferenceXRows(false)})
	if res.StatusCode < 400 || !strings.Contains(body, "InferenceX file of public frontier rows") || !strings.Contains(body, "Reference rows") {
		t.Fatalf("InferenceX as a result: %d", res.StatusCode)
	}

	// The JSON array and the CSV, as reference rows.
	for _, f := range []struct {
		name string
		csv  bool
	}{{"agg_bmk.json", false}, {"inferencex.csv", true}} {
		v := reportVersion(t, app, r.ID)
		res, _ = postEvidence(t, lead, base+"/reference", map[string]string{"version": v, "reference.date": "2026-11-20", "reference.source": "InferenceX"}, f.name, inferenceXRows(f.csv))
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("%s: status %d", f.name, res.StatusCode)
		}
	}
	// Typed: a refused row names its field; a good one is added.
	form := url.Values{"version": {reportVersion(t, app, r.ID)}, "reference.source": {"InferenceX dashboard"}, "reference.date": {"2026-11-21"},
		"reference.gpu": {"H100"}, "reference.model": {"Llama-3.1-8B-Instruct"}, "reference.isl": {"512"}, "reference.osl": {"256"},
		"reference.intvty": {"fast"}, "reference.output_tput_per_gpu": {"900"}}
	res, body = do(t, lead, http.MethodPost, base+"/reference/row", form)
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, `data-testid="err-reference.intvty"`) {
		t.Fatalf("bad typed row: %d", res.StatusCode)
	}
	form.Set("reference.intvty", "90")
	if res, _ = do(t, lead, http.MethodPost, base+"/reference/row", form); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("typed row: %d", res.StatusCode)
	}

	out := apiResult(t, app, r.ID)
	rf := out.Reference
	if rf == nil || len(rf.Rows) != 11 || rf.Matched != 11 || !rf.Plan || len(rf.Frontier) == 0 {
		t.Fatalf("reference = %+v", rf)
	}
	if out.Envelope.Ceiling != nil || len(out.Matrix) != 0 || out.ExitPass || out.ExitCheck[0].ID != "plan" {
		t.Errorf("reference rows reached the matrix or the exit check passes: %+v", out.Envelope)
	}

	// The page, the list and the workbook mark the plan.
	_, page := do(t, lead, http.MethodGet, base+"/print", nil)
	for _, want := range []string{`data-testid="reference-plan"`, `data-testid="headline-reference" data-plan="true"`, "Plan, not evidence:", `data-testid="reference-rows"`, "inferencex.csv", "typed: InferenceX dashboard"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	_, list := do(t, lead, http.MethodGet, app.srv.URL+"/reports", nil)
	if !strings.Contains(list, "Plan (public frontier only, not evidence)") {
		t.Error("the list does not mark the plan")
	}
	res, book := do(t, lead, http.MethodGet, base+"/export.xlsx", nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("export: %d", res.StatusCode)
	}
	xf, err := excelize.OpenReader(strings.NewReader(book))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := xf.GetRows("Reference")
	if err != nil {
		t.Fatal(err)
	}
	flat := fmt.Sprint(rows)
	if !strings.Contains(flat, "Plan") || !strings.Contains(flat, "a plan: the report holds only reference rows") || !strings.Contains(flat, "Llama-3.1-8B-Instruct") {
		t.Errorf("Reference sheet: %v", rows[:min(6, len(rows))])
	}

	// Removing the CSV's rows leaves the others.
	form = url.Values{"version": {reportVersion(t, app, r.ID)}, "group": {"inferencex.csv"}}
	if res, _ = do(t, lead, http.MethodPost, base+"/reference/remove", form); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("remove: %d", res.StatusCode)
	}
	if rf := apiResult(t, app, r.ID).Reference; rf == nil || len(rf.Rows) != 6 {
		t.Errorf("after removing the CSV: %+v", rf)
	}
}

// The browser's reference form takes several files at once, as the API and
// the command do: all are imported, or, when one cannot be read, none is
// and the answer names it.
func TestReferenceFormTakesSeveralFiles(t *testing.T) {
	app := newTestApp(t)
	r := frozenReport(t, app)
	lead := app.client("lead")
	u := fmt.Sprintf("%s/reports/%d/reference", app.srv.URL, r.ID)

	fields := func() map[string]string {
		return map[string]string{"version": reportVersion(t, app, r.ID), "reference.date": "2026-11-20", "reference.source": "InferenceX"}
	}
	res, body := postEvidenceFiles(t, lead, u, fields(),
		upload{name: "agg_bmk.json", data: inferenceXRows(false)},
		upload{name: "broken.json", data: []byte(`[{"hw": "h100", "model": `)})
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(html.UnescapeString(body), "broken.json") {
		t.Fatalf("a bad second file: %d, answer does not name it:\n%.600s", res.StatusCode, between(body, `id="reference"`, "</section>"))
	}
	if rf := apiResult(t, app, r.ID).Reference; rf != nil && len(rf.Rows) > 0 {
		t.Fatalf("a refused upload stored %d reference rows", len(rf.Rows))
	}

	res, body = postEvidenceFiles(t, lead, u, fields(),
		upload{name: "agg_bmk.json", data: inferenceXRows(false)},
		upload{name: "inferencex.csv", data: inferenceXRows(true)})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("two files: %d\n%.600s", res.StatusCode, body)
	}
	rf := apiResult(t, app, r.ID).Reference
	if rf == nil || len(rf.Rows) != 10 {
		t.Fatalf("two files of 5 rows each: reference %+v", rf)
	}
	files := map[string]int{}
	for _, row := range rf.Rows {
		files[row.Row.File]++
	}
	if files["agg_bmk.json"] != 5 || files["inferencex.csv"] != 5 {
		t.Errorf("rows per file %v, want 5 from each", files)
	}
}
