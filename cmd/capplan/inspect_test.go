package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

const benchDir = "../../../shared/benchmarks"

// TestInspectJSON checks the JSON shape: every key present, null where the
// file holds nothing, latencies in seconds.
func TestInspectJSON(t *testing.T) {
	var out, errb bytes.Buffer
	files := []string{
		filepath.Join(benchDir, "guidellm", "rsevilla87__guidellm-results-parser__benchmarks.json"),
		filepath.Join(benchDir, "vllm", "dstackai__benchmarks__1p3d_conc128_in128_out2048_20250914_020816.json"),
	}
	if err := runInspect(context.Background(), append([]string{"--json"}, files...), &out, &errb); err != nil {
		t.Fatal(err, errb.String())
	}
	var doc struct {
		Files []map[string]json.RawMessage `json:"files"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Files) != 2 {
		t.Fatalf("%d files", len(doc.Files))
	}
	for _, k := range []string{"file", "sha256", "format", "format_version", "tool_version", "model", "rows", "warnings"} {
		if _, ok := doc.Files[0][k]; !ok {
			t.Errorf("file key %q missing", k)
		}
	}
	if string(doc.Files[0]["tool_version"]) != "null" {
		t.Errorf("tool_version = %s, want null (GuideLLM 0.3 records none)", doc.Files[0]["tool_version"])
	}
	var rows []map[string]json.RawMessage
	if err := json.Unmarshal(doc.Files[0]["rows"], &rows); err != nil || len(rows) != 1 {
		t.Fatalf("rows: %v %d", err, len(rows))
	}
	for _, k := range []string{"load_kind", "load", "achieved_concurrency", "achieved_rate", "attempted", "successful", "errored", "incomplete",
		"duration_s", "request_rate", "output_token_rate", "prompt_tokens_mean", "output_tokens_mean", "ttft_s", "e2e_s", "itl_s", "tpot_s", "warnings"} {
		if _, ok := rows[0][k]; !ok {
			t.Errorf("row key %q missing", k)
		}
	}
	var ttft map[string]*float64
	if err := json.Unmarshal(rows[0]["ttft_s"], &ttft); err != nil {
		t.Fatal(err)
	}
	if ttft["p95"] == nil || *ttft["p95"] != 1.0074176788330078 || ttft["n"] == nil || *ttft["n"] != 586 {
		t.Errorf("ttft_s = %s", rows[0]["ttft_s"])
	}
	// vLLM without e2el: the e2e figures are null, not zero
	var vrows []struct {
		E2E map[string]*float64 `json:"e2e_s"`
	}
	json.Unmarshal(doc.Files[1]["rows"], &vrows)
	if len(vrows) != 1 || vrows[0].E2E["p95"] != nil || vrows[0].E2E["n"] != nil {
		t.Errorf("vllm e2e_s = %v", vrows)
	}
}

// TestInspectText checks the table, the warnings and the error for a file
// that cannot be read.
func TestInspectText(t *testing.T) {
	var out, errb bytes.Buffer
	good := filepath.Join(benchDir, "guidellm", "atoniolo76__gotoni__benchmarks.json")
	bad := filepath.Join(benchDir, "inference-perf", "kubernetes-sigs__inference-perf__summary_prometheus_metrics.json")
	err := runInspect(context.Background(), []string{good, bad, "no-such-file.json"}, &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "kubernetes-sigs__inference-perf__summary_prometheus_metrics.json: ") || !strings.Contains(err.Error(), "no-such-file.json: ") {
		t.Errorf("error = %v, want both failing files named", err)
	}
	text := out.String()
	for _, want := range []string{"atoniolo76__gotoni__benchmarks.json", "ttft_p95", "45.72", "[rate-mismatch]", "[incomplete]", "model-unknown"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
}

// TestInspectUsage checks --help and a missing file argument.
func TestInspectUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if err := runInspect(context.Background(), []string{"--help"}, &out, &errb); err != nil {
		t.Errorf("--help: %v", err)
	}
	if !strings.Contains(errb.String(), "Usage: capplan inspect") {
		t.Errorf("usage text missing: %q", errb.String())
	}
	if err := runInspect(context.Background(), nil, &out, &errb); err == nil {
		t.Error("no error without a file")
	}
}

// TestInspectGenAIBenchFolder: a genai-bench experiment folder is read as
// its upload is: the metadata's model attached to the runs, the metadata
// itself no file of rows; the metadata alone is refused in words.
func TestInspectGenAIBenchFolder(t *testing.T) {
	const dir = "../../importers/testdata/genaibench_closed_loop"
	var out, errb bytes.Buffer
	if err := runInspect(context.Background(), []string{"--json", dir}, &out, &errb); err != nil {
		t.Fatal(err, errb.String())
	}
	var doc struct {
		Files []struct {
			File  string  `json:"file"`
			Model *string `json:"model"`
			Rows  []struct {
				LoadKind string   `json:"load_kind"`
				Load     *float64 `json:"load"`
			} `json:"rows"`
			Warnings []struct{ Code string } `json:"warnings"`
		} `json:"files"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Files) != 1 || doc.Files[0].Model == nil || *doc.Files[0].Model != "meta-llama/Llama-3.1-8B-Instruct" {
		t.Fatalf("files %+v", doc.Files)
	}
	if r := doc.Files[0].Rows; len(r) != 1 || r[0].LoadKind != "concurrency" || *r[0].Load != 1 {
		t.Errorf("rows %+v", r)
	}
	for _, w := range doc.Files[0].Warnings {
		if w.Code == "model-unknown" {
			t.Errorf("model-unknown beside the experiment's model")
		}
	}
	out.Reset()
	err := runInspect(context.Background(), []string{filepath.Join(dir, "experiment_metadata.json")}, &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "holds no results") || !strings.Contains(err.Error(), "run files of its folder") {
		t.Fatalf("metadata alone: %v", err)
	}
	if strings.Contains(out.String(), "model-unknown") {
		t.Errorf("false model-unknown: %s", out.String())
	}
}
