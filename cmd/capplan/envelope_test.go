package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"capplan/web/demogen/guidellmgen"
)

// writeReport writes a generated GuideLLM report and returns its path.
func writeReport(t *testing.T, cfg guidellmgen.Config) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "benchmarks.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := guidellmgen.Write(f, cfg); err != nil {
		t.Fatal(err)
	}
	return path
}

const testObjectiveText = "success>=99%,ttft_p95<=2s,e2e_p95<=15s"

func TestRunEnvelope(t *testing.T) {
	report := writeReport(t, guidellmgen.Config{}) // rows 1, 2, 4, 8, 10; 10 fails
	tests := []struct {
		name       string
		args       []string
		wantErr    string // substring, "" for none
		wantExit   int    // ExitCode of the error, 0 for none
		wantStdout []string
	}{
		{name: "ceiling 8", args: []string{"--objective", testObjectiveText, report},
			wantStdout: []string{"envelope: demonstrated ceiling: 8 concurrent streams", "p95 end-to-end", "max in flight     8", "--max-num-seqs 8", `"overload_status": 429`}},
		{name: "require met", args: []string{"--objective", testObjectiveText, "--require", "8", report},
			wantStdout: []string{"require 8: PASS"}},
		{name: "require not met exits 3", args: []string{"--objective", testObjectiveText, "--require", "10", report},
			wantErr: "demonstrated ceiling 8 is below the required 10", wantExit: 3, wantStdout: []string{"require 10: FAIL"}},
		{name: "headroom needed but not given: not judged", args: []string{"--objective", testObjectiveText + ",headroom>=10%", "--require", "1", report},
			wantErr: "no envelope", wantExit: 3, wantStdout: []string{"not judged: missing memory headroom"}},
		{name: "headroom given", args: []string{"--objective", testObjectiveText + ",headroom>=10%", "--headroom", "12%", report},
			wantStdout: []string{"demonstrated ceiling: 8 concurrent streams"}},
		{name: "bad objective names the term", args: []string{"--objective", "success>=99%,lat<=2s", report}, wantErr: `"lat<=2s"`},
		{name: "objective required", args: []string{report}, wantErr: "--objective is required"},
		{name: "no file", args: []string{"--objective", testObjectiveText}, wantErr: "no file given"},
		{name: "missing file", args: []string{"--objective", testObjectiveText, filepath.Join(t.TempDir(), "nope.json")}, wantErr: "nope.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := runEnvelope(context.Background(), tt.args, &stdout, &stderr)
			if tt.wantErr == "" && err != nil {
				t.Fatalf("runEnvelope: %v\n%s", err, stderr.String())
			}
			if tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("error = %v, want %q", err, tt.wantErr)
			}
			var ec exitCoder
			gotExit := 0
			if errors.As(err, &ec) {
				gotExit = ec.ExitCode()
			}
			if gotExit != tt.wantExit {
				t.Errorf("exit code = %d, want %d", gotExit, tt.wantExit)
			}
			for _, want := range tt.wantStdout {
				if !strings.Contains(stdout.String(), want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
				}
			}
		})
	}
}

func TestRunEnvelopeJSON(t *testing.T) {
	report := writeReport(t, guidellmgen.Config{Loads: []float64{1, 2, 4, 8}})
	var stdout, stderr bytes.Buffer
	if err := runEnvelope(context.Background(), []string{"--json", "--objective", testObjectiveText, "--require", "8", report}, &stdout, &stderr); err != nil {
		t.Fatalf("runEnvelope: %v", err)
	}
	var got struct {
		Envelope struct {
			State   string   `json:"state"`
			Ceiling *float64 `json:"ceiling"`
		} `json:"envelope"`
		Admission struct {
			MaxInFlight *int `json:"max_in_flight"`
		} `json:"admission"`
		Rows []json.RawMessage `json:"rows"`
		Pass bool              `json:"pass"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, stdout.String())
	}
	if got.Envelope.State != "lower-bound" || got.Envelope.Ceiling == nil || *got.Envelope.Ceiling != 8 || !got.Pass || len(got.Rows) != 4 {
		t.Errorf("got %+v", got)
	}
}

func TestRunEnvelopeHelp(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := runEnvelope(context.Background(), []string{"--help"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"ttft_pNN<=T", "headroom>=P%", "no_oom", "exits with status 3", "-require"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("help lacks %q:\n%s", want, stderr.String())
		}
	}
}

// writeVLLMRows writes a vllm bench serve JSONL file, one line per
// concurrency row: streams, completed and failed requests.
func writeVLLMRows(t *testing.T, rows [][3]int) string {
	t.Helper()
	var b strings.Builder
	for _, r := range rows {
		streams, ok, failed := r[0], r[1], r[2]
		fmt.Fprintf(&b, `{"model_id":"llama-8b","max_concurrency":%d,"completed":%d,"failed":%d,"duration":120,"request_throughput":%g,`+
			`"total_input_tokens":%d,"total_output_tokens":%d,"mean_ttft_ms":300,"median_ttft_ms":250,"p95_ttft_ms":600,"p99_ttft_ms":900,`+
			`"mean_e2el_ms":5000,"median_e2el_ms":4800,"p95_e2el_ms":6000,"p99_e2el_ms":7000}`+"\n",
			streams, ok, failed, float64(ok)/120, ok*512, ok*256)
	}
	path := filepath.Join(t.TempDir(), "sweep.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A measured failure is never erased by its sample: 1 stream passes on 40
// requests, 2 streams fails success >= 99 % on 97 of 100, 4 streams
// passes. The ceiling is 1, on weak evidence (docs/method.md, "Weak
// evidence"): --require 2 fails, --require 1 passes and says so.
func TestRunEnvelopeWeakEvidenceKeepsTheFailure(t *testing.T) {
	file := writeVLLMRows(t, [][3]int{{1, 40, 0}, {2, 97, 3}, {4, 200, 0}})
	var stdout, stderr bytes.Buffer
	err := runEnvelope(context.Background(), []string{"--objective", testObjectiveText, "--require", "2", file}, &stdout, &stderr)
	var ec exitCoder
	if !errors.As(err, &ec) || ec.ExitCode() != requireExitCode {
		t.Fatalf("--require 2: error %v, want exit %d\n%s", err, requireExitCode, stdout.String())
	}
	for _, want := range []string{"require 2: FAIL", "ceiling: 1 concurrent stream, on weak evidence", "2 concurrent streams does not pass: success 97 %, below 99 %"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("--require 2: stdout lacks %q:\n%s", want, stdout.String())
		}
	}
	stdout.Reset()
	if err := runEnvelope(context.Background(), []string{"--objective", testObjectiveText, "--require", "1", file}, &stdout, &stderr); err != nil {
		t.Fatalf("--require 1: %v\n%s", err, stdout.String())
	}
	for _, want := range []string{"require 1: PASS, on weak evidence", "Rerun it with at least 100 successful requests"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("--require 1: stdout lacks %q:\n%s", want, stdout.String())
		}
	}
}

// writeVLLMSweep writes a vllm bench serve JSONL file, one summary line per
// concurrency row: streams, completed requests and p95 end-to-end in ms.
func writeVLLMSweep(t *testing.T, rows [][3]int) string {
	t.Helper()
	var b strings.Builder
	for _, r := range rows {
		streams, ok, e2e := r[0], r[1], r[2]
		fmt.Fprintf(&b, `{"model_id":"llama-8b","max_concurrency":%d,"completed":%d,"failed":0,"duration":120,"request_throughput":%g,`+
			`"total_input_tokens":%d,"total_output_tokens":%d,"mean_ttft_ms":300,"median_ttft_ms":250,"p95_ttft_ms":600,"p99_ttft_ms":900,`+
			`"mean_e2el_ms":%d,"median_e2el_ms":%d,"p95_e2el_ms":%d,"p99_e2el_ms":%d}`+"\n",
			streams, ok, float64(ok)/120, ok*512, ok*256, e2e*8/10, e2e*3/4, e2e, e2e*11/10)
	}
	path := filepath.Join(t.TempDir(), "sweep.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The usual shape of a fixed-duration sweep (docs/method.md, "Weak
// evidence"): 1 stream passes on 40 successful requests, 2 on 78, 4 on
// 151, 8 on 273; 10 fails p95 end-to-end. The short first rows are covered
// by the conclusive pass at 8: --require 8 passes, --require 10 fails.
func TestRunEnvelopeShortFirstRowsDoNotSinkTheSweep(t *testing.T) {
	file := writeVLLMSweep(t, [][3]int{{1, 40, 5000}, {2, 78, 6000}, {4, 151, 8000}, {8, 273, 12000}, {10, 300, 16200}})
	var stdout, stderr bytes.Buffer
	if err := runEnvelope(context.Background(), []string{"--objective", testObjectiveText, "--require", "8", file}, &stdout, &stderr); err != nil {
		t.Fatalf("--require 8: %v\n%s", err, stdout.String())
	}
	for _, want := range []string{"require 8: PASS\n", "demonstrated ceiling: 8 concurrent streams",
		"1 concurrent stream and 2 concurrent streams passed inconclusively below the ceiling and change nothing",
		"load 1 (inconclusive, covered by the ceiling): " + "a confidence bound cannot be computed from a summary"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("--require 8: stdout lacks %q:\n%s", want, stdout.String())
		}
	}
	stdout.Reset()
	err := runEnvelope(context.Background(), []string{"--objective", testObjectiveText, "--require", "10", file}, &stdout, &stderr)
	var ec exitCoder
	if !errors.As(err, &ec) || ec.ExitCode() != requireExitCode {
		t.Fatalf("--require 10: error %v, want exit %d", err, requireExitCode)
	}
}

func TestRunEnvelopeConfidenceFlag(t *testing.T) {
	file := writeVLLMSweep(t, [][3]int{{1, 200, 5000}})
	var stdout, stderr bytes.Buffer
	err := runEnvelope(context.Background(), []string{"--objective", testObjectiveText, "--confidence", "120%", file}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), `--confidence "120%"`) {
		t.Errorf("error %v", err)
	}
}
