package importers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// ixColumns are InferenceX's columns, in the order its CSV export writes
// them (a selection: the rest are ignored alike).
var ixColumns = []string{"hw", "model", "framework", "precision", "spec_decoding", "disagg", "isl", "osl", "conc", "tp", "ep", "dp_attention",
	"tput_per_gpu", "output_tput_per_gpu", "input_tput_per_gpu", "median_ttft", "p99_ttft", "mean_tpot", "intvty"}

// ixPoint is one generated InferenceX row: an H100 serving Llama 3.3 70B
// in FP8 at 1024/1024 tokens, with throughput falling as interactivity
// rises.
func ixPoint(i int) map[string]any {
	conc := 1 << (i % 9)
	iv := 120 / float64(1+i%9)
	out := 180 * float64(1+i%9)
	return map[string]any{
		"hw": "h100", "model": "Llama-3.3-70B-Instruct", "framework": "vllm", "precision": "fp8", "spec_decoding": "none",
		"disagg": false, "isl": 1024, "osl": 1024, "conc": conc, "tp": 2, "ep": 1, "dp_attention": false,
		"tput_per_gpu": out * 2, "output_tput_per_gpu": out, "input_tput_per_gpu": out, "median_ttft": 0.21, "p99_ttft": 0.95,
		"mean_tpot": 1 / iv, "intvty": iv, "unknown_column": []int{1, 2},
	}
}

// ixJSON writes n generated rows as agg_bmk.json does: a JSON array.
func ixJSON(n int) []byte {
	rows := make([]map[string]any, n)
	for i := range rows {
		rows[i] = ixPoint(i)
	}
	b, _ := json.MarshalIndent(rows, "", " ")
	return b
}

// ixCSV writes n generated rows as the dashboard's CSV export.
func ixCSV(n int) []byte {
	var b bytes.Buffer
	b.WriteString(strings.Join(ixColumns, ",") + "\n")
	for i := 0; i < n; i++ {
		p := ixPoint(i)
		cells := make([]string, len(ixColumns))
		for j, c := range ixColumns {
			cells[j] = fmt.Sprint(p[c])
		}
		b.WriteString(strings.Join(cells, ",") + "\n")
	}
	return b.Bytes()
}

func parseIX(name string, data []byte) ([]rowsOut, error) {
	rows, _, err := ParseInferenceX(name, bytes.NewReader(data), ReferenceOptions{Date: "2026-11-20"})
	out := make([]rowsOut, len(rows))
	for i, r := range rows {
		out[i] = rowsOut{r.GPU, r.Model, r.Precision, r.ISL, r.OSL, r.Interactivity, r.OutputPerGPU, r.Path, r.Format}
	}
	return out, err
}

type rowsOut struct {
	gpu, model, precision string
	isl, osl              int
	iv, out               float64
	path, format          string
}

func TestParseInferenceXJSONAndCSV(t *testing.T) {
	j, err := parseIX("agg_bmk.json", ixJSON(9))
	if err != nil {
		t.Fatal(err)
	}
	c, err := parseIX("inferencex.csv", ixCSV(9))
	if err != nil {
		t.Fatal(err)
	}
	if len(j) != 9 || len(c) != 9 {
		t.Fatalf("%d and %d rows", len(j), len(c))
	}
	for i := range j {
		a, b := j[i], c[i]
		if a.gpu != "h100" || a.model != "Llama-3.3-70B-Instruct" || a.precision != "fp8" || a.isl != 1024 || a.osl != 1024 || a.iv != 120/float64(1+i) || a.out != 180*float64(1+i) {
			t.Errorf("JSON row %d = %+v", i, a)
		}
		if a.gpu != b.gpu || a.iv != b.iv || a.out != b.out || a.isl != b.isl {
			t.Errorf("row %d: JSON %+v, CSV %+v", i, a, b)
		}
	}
	if j[3].path != "[3]" || c[3].path != "line 5" || j[0].format != "inferencex-json" || c[0].format != "inferencex-csv" {
		t.Errorf("paths %q %q, formats %q %q", j[3].path, c[3].path, j[0].format, c[0].format)
	}
	rows, f, _ := ParseInferenceX("agg_bmk.json", bytes.NewReader(ixJSON(2)), ReferenceOptions{Date: "2026-11-20"})
	r := rows[0]
	if !r.RandomIgnoreEOS || !r.PrefixCacheOff || r.Source != "InferenceX" || r.Date != "2026-11-20" || r.TP != 2 || r.SHA256 != f.SHA256 || len(f.SHA256) != 64 || *r.P99TTFT != 0.95 {
		t.Errorf("row %+v, file %+v", r, f)
	}
}

func TestParseInferenceXRefusals(t *testing.T) {
	noIntvty := strings.Replace(string(ixJSON(3)), `"intvty": 60`, `"intvty": null`, 1)
	badNum := strings.Replace(string(ixCSV(3)), "h100,Llama-3.3-70B-Instruct,vllm,fp8,none,false,1024", "h100,Llama-3.3-70B-Instruct,vllm,fp8,none,false,lots", 1)
	for _, tc := range []struct{ name, data, want string }{
		{"empty", "", "the file is empty"},
		{"guidellm", `{"benchmarks": []}`, "this is a GuideLLM report (one JSON object), not InferenceX rows: it is evidence of your own box, so import it under Imported results"},
		{"vllm sweep array", `[{"model_id": "m", "completed": 10, "output_throughput": 100}]`, "not InferenceX rows (no hw, intvty and output_tput_per_gpu): a benchmark result of your own box belongs under Imported results"},
		{"result csv", "Metric,avg,p50\nTTFT,1,2\n", "belongs under Imported results"},
		{"missing interactivity", noIntvty, "[1]: no intvty (tok/s per user): a reference row needs it"},
		{"not a number", badNum, `line 2: isl: "lots" is not a number`},
		{"cut off", string(ixJSON(3)[:200]), "cut off"},
		{"trailing", string(ixJSON(1)) + "[]", "unexpected data after the end of the array"},
		{"no rows", "[]", "no InferenceX rows in the file"},
		{"binary", "\x00\x01\x02", "binary"},
	} {
		_, err := parseIX("ix.json", []byte(tc.data))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "ix.json: ") {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	// Without a date in the form or the file, nothing is imported.
	if _, _, err := ParseInferenceX("ix.json", bytes.NewReader(ixJSON(1)), ReferenceOptions{}); err == nil || !strings.Contains(err.Error(), "no date") {
		t.Errorf("undated: %v", err)
	}
	if _, _, err := ParseInferenceX("ix.json", bytes.NewReader(ixJSON(1)), ReferenceOptions{Date: "20.11.2026"}); err == nil || !strings.Contains(err.Error(), "YYYY-MM-DD") {
		t.Errorf("bad date: %v", err)
	}
}

func TestParseInferenceXBounds(t *testing.T) {
	data := ixJSON(50)
	_, _, err := ParseInferenceX("big.json", bytes.NewReader(data), ReferenceOptions{Date: "2026-11-20", EvidenceOptions: EvidenceOptions{MaxBytes: int64(len(data) - 1)}})
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("past MaxBytes: %v", err)
	}
	huge := `[{"hw": "h100", "intvty": 1, "output_tput_per_gpu": 1, "model": "` + strings.Repeat("m", maxInferenceXRow) + `"}]`
	if _, err := parseIX("huge.json", []byte(huge)); err == nil || !strings.Contains(err.Error(), "[0]: larger than 64 KB, more than any InferenceX row") {
		t.Errorf("a huge row: %v", err)
	}
	long := strings.Replace(string(ixJSON(1)), `"Llama-3.3-70B-Instruct"`, `"`+strings.Repeat("m", MaxLabel+1)+`"`, 1)
	if _, err := parseIX("long.json", []byte(long)); err == nil || !strings.Contains(err.Error(), "model: longer than") {
		t.Errorf("a long label: %v", err)
	}
	// More rows than the bound, streamed: refused without reading them all.
	var b bytes.Buffer
	b.WriteString("[")
	row, _ := json.Marshal(ixPoint(1))
	for i := 0; i <= MaxInferenceXRows; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.Write(row)
	}
	b.WriteString("]")
	if _, err := parseIX("many.json", b.Bytes()); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("more than %d rows", MaxInferenceXRows)) {
		t.Errorf("too many rows: %v", err)
	}
}

// TestInferenceXIsNotAResult uploads InferenceX rows as a result: refused,
// saying where they belong.
func TestInferenceXIsNotAResult(t *testing.T) {
	for name, data := range map[string][]byte{"agg_bmk.json": ixJSON(3), "inferencex.csv": ixCSV(3)} {
		_, err := Parse(name, bytes.NewReader(data), Options{})
		if err == nil || !strings.Contains(err.Error(), "InferenceX file of public frontier rows") || !strings.Contains(err.Error(), "Reference rows") {
			t.Errorf("%s as a result: %v", name, err)
		}
	}
}

// FuzzParseInferenceX fuzzes the InferenceX reader, JSON and CSV: a
// failure names the file, a success holds rows that planner accepts.
func FuzzParseInferenceX(f *testing.F) {
	f.Add(ixJSON(3))
	f.Add(ixCSV(3))
	f.Add([]byte(`[{"hw":"b200","model":"m","isl":"1024","osl":8192,"intvty":"12.5","output_tput_per_gpu":"900","disagg":"true","date":"2026-01-01"}]`))
	f.Add([]byte("hw,model,isl,osl,intvty,output_tput_per_gpu\n\"h200\",\"a,b\",1,2,3,4\n"))
	f.Add([]byte(`{"benchmarks": []}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		rows, _, err := ParseInferenceX("f", bytes.NewReader(b), ReferenceOptions{Date: "2026-11-20", EvidenceOptions: EvidenceOptions{MaxBytes: 1 << 20}})
		fuzzEvidence(t, err, rows)
		if err != nil {
			return
		}
		if len(rows) == 0 || len(rows) > MaxInferenceXRows {
			t.Fatalf("%d rows", len(rows))
		}
		for _, r := range rows {
			if err := r.Validate(); err != nil {
				t.Fatalf("row kept that planner refuses: %v (%+v)", err, r)
			}
		}
	})
}

// BenchmarkParseInferenceX reads a generated agg_bmk.json of 10,000 rows
// (about InferenceX's size for all GPUs and models); its reference is
// BenchmarkReadInferenceX, the same bytes read and thrown away.
func BenchmarkParseInferenceX(b *testing.B) {
	data := ixJSON(10_000)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := ParseInferenceX("agg_bmk.json", bytes.NewReader(data), ReferenceOptions{Date: "2026-11-20"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadInferenceX is BenchmarkParseInferenceX's reference.
func BenchmarkReadInferenceX(b *testing.B) {
	data := ixJSON(10_000)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := io.Copy(io.Discard, bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}
