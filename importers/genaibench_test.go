package importers

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"capplan/planner"
	"capplan/web/demogen/genaibenchgen"
)

func TestGenAIBench(t *testing.T) {
	const key = "sk-proj-abcdefghijklmnop1234"
	run, err := Parse("D(100,50)_text-to-text_concurrency_4_time_60s.json", strings.NewReader(genaibenchgen.Run(4, 120, 3, "ms")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := run.Rows[0]
	checkRow(t, r, rowWant{kind: "concurrency", load: 4, att: 123, ok: 120, errd: 3, inc: -1, dur: 60, rate: 2, outRate: 100,
		ttftP95: 190, ttftP99: 190, e2eP95: 1900, e2eP99: 1900, warn: []string{"time-unit", "errors", "error-codes"}})
	if len(r.Samples) != 123 {
		t.Fatalf("%d samples", len(r.Samples))
	}
	meta, err := Parse("experiment_metadata.json", strings.NewReader(genaibenchgen.Meta("ms", key)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	e := meta.Experiment
	if e == nil || len(meta.Rows) != 0 {
		t.Fatalf("metadata: %+v, %d rows", e, len(meta.Rows))
	}
	if e.Model != "Qwen/Qwen3-8B" || e.TimeUnit != "ms" || e.GPU != "1 x H100" || e.Engine != "SGLang v0.5.2" || e.Masked < 2 {
		t.Errorf("experiment %+v", e)
	}
	if strings.Contains(fmt.Sprintf("%+v", e), key) || !strings.Contains(e.CommandMasked, "--api-key ***") {
		t.Errorf("the key was kept: %q", e.CommandMasked)
	}
	ApplyExperiment([]*File{run, meta}, e)
	r = run.Rows[0]
	checkF(t, "ttft p95 in s", r.TTFT.P95, 0.19)
	checkF(t, "e2e p99 in s", r.E2E.P99, 1.9)
	if r.Model != "Qwen/Qwen3-8B" || run.Model != "Qwen/Qwen3-8B" || run.Source.ToolVersion != "0.0.2" {
		t.Errorf("model %q %q version %q", r.Model, run.Model, run.Source.ToolVersion)
	}
	if s := r.Samples[0]; s.TTFT < 0.099 || s.TTFT > 0.101 || !s.OK || r.Samples[122].OK {
		t.Errorf("samples %+v %+v", s, r.Samples[122])
	}
	for _, w := range append(r.Warnings, run.Warnings...) {
		if w.Code == "time-unit" || w.Code == "model-unknown" {
			t.Errorf("warning kept: %v", w)
		}
	}
	if !strings.Contains(r.Paths["model"], "experiment_metadata.json: api_model_name") {
		t.Errorf("model path %q", r.Paths["model"])
	}
}

func TestGenAIBenchRefusals(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"no aggregate", `{"individual_request_metrics": []}`, "aggregated_metrics: missing"},
		{"embedding batch run", `{"aggregated_metrics": {"iteration_type": "batch_size", "batch_size": 8, "num_completed_requests": 1}}`, "embedding batch-size run"},
		{"truncated", `{"aggregated_metrics": {"num_concurrency": 1, "num_completed_requests": 1}, "individual_request_metrics": [{"ttft": 1`, "truncated"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("r.json", strings.NewReader(c.in), Options{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
}

func TestMaskSecrets(t *testing.T) {
	for in, want := range map[string]string{
		"genai-bench benchmark --api-key sk-abc123456789 --task t":       "genai-bench benchmark --api-key *** --task t",
		`aiperf profile --api-key="xyz" -m m`:                            `aiperf profile --api-key=*** -m m`,
		"curl -H 'Authorization: Bearer eyJhbGciOi.abc' http://x":        "curl -H 'Authorization: Bearer ***' http://x",
		"--hf-token hf_abcdefghijklmnopqrstu --max-tokens 100":           "--hf-token *** --max-tokens 100",
		"http://x/v1?api_key=abcd&x=1":                                   "http://x/v1?api_key=***&x=1",
		"key sk-live-0123456789abcdef in text":                           "key *** in text",
		"--model-tokenizer /models/q --num-concurrency 4 --max-tokens 9": "--model-tokenizer /models/q --num-concurrency 4 --max-tokens 9",
	} {
		if got, _ := MaskSecrets(in); got != want {
			t.Errorf("MaskSecrets(%q) = %q, want %q", in, got, want)
		}
	}
	for k, want := range map[string]bool{"api_key": true, "auth_config": true, "hf_token": true, "Authorization": true, "total_tokens": false, "tokenizer": false, "max_tokens": false} {
		if isSecretKey(k) != want {
			t.Errorf("isSecretKey(%q) = %v", k, !want)
		}
	}
}

// TestGenAIBenchRunSaysItself: a run's own _time_unit wins, failed
// requests are counted from the requests when the aggregate says 0, and
// a non-streaming run's placeholder TTFT is not a measurement.
func TestGenAIBenchRunSaysItself(t *testing.T) {
	in := genaibenchgen.Run(2, 100, 4, "ms")
	in = strings.Replace(in, `"num_error_requests": 4`, `"num_error_requests": 0`, 1)
	in = strings.Replace(in, `"num_completed_requests": 100`, `"num_completed_requests": 104`, 1)
	in = strings.TrimSuffix(strings.TrimSpace(in), "}") + `, "_time_unit": "ms"}`
	f, err := Parse("run.json", strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := f.Rows[0]
	checkF(t, "ttft p95 in s", r.TTFT.P95, 0.19)
	checkI(t, "errored", r.Errored, 4)
	checkI(t, "successful", r.Successful, 100)
	for _, w := range r.Warnings {
		if w.Code == "time-unit" {
			t.Errorf("warned of the unit the file states: %v", w)
		}
	}
	meta, err := Parse("experiment_metadata.json", strings.NewReader(genaibenchgen.Meta("ms", "k")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	ApplyExperiment([]*File{f}, meta.Experiment)
	checkF(t, "ttft p95 not scaled twice", f.Rows[0].TTFT.P95, 0.19)

	ph := regexp.MustCompile(`"ttft": [0-9.e-]+,`).ReplaceAllString(genaibenchgen.Run(1, 10, 0, "s"), `"ttft": 0.001,`)
	f, err = Parse("run.json", strings.NewReader(ph), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r := f.Rows[0]; r.TTFT.P95 != nil || !hasCode(r.Warnings, "ttft-placeholder") {
		t.Errorf("placeholder TTFT kept: %v %v", r.TTFT.P95, r.Warnings)
	}
}

func hasCode(ws []planner.Warning, code string) bool {
	for _, w := range ws {
		if w.Code == code {
			return true
		}
	}
	return false
}

// TestGenAIBenchClosedLoopArrivalRate: genai-bench's closed-loop runner
// writes an arrival rate too; the run stays a concurrency run, its arrival
// rate kept as the send rate, with no false rate mismatch.
func TestGenAIBenchClosedLoopArrivalRate(t *testing.T) {
	const dir = "testdata/genaibench_closed_loop/"
	run, err := ParseFile(dir+"D(1024,128)_text-to-text_num_concurrency_1_time_60s.json", Options{})
	if err != nil {
		t.Fatal(err)
	}
	meta, err := ParseFile(dir+"experiment_metadata.json", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if hasCode(meta.Warnings, "model-unknown") {
		t.Errorf("the metadata file, which holds no rows, warns of no model: %v", meta.Warnings)
	}
	files, err := CompleteUpload([]*File{meta, run})
	if err != nil || len(files) != 1 {
		t.Fatalf("%d files, %v", len(files), err)
	}
	r := files[0].Rows[0]
	if r.LoadKind != planner.LoadConcurrency || r.Load == nil || *r.Load != 1 {
		t.Fatalf("load %s %v, want concurrency 1", r.LoadKind, r.Load)
	}
	checkF(t, "send rate", r.SendRate, 0.8782)
	checkF(t, "achieved rate", r.AchievedRate, 0.861)
	if hasCode(r.Warnings, "rate-mismatch") {
		t.Errorf("a concurrency run warned of a rate: %v", r.Warnings)
	}
	if !strings.Contains(r.Paths["send_rate"], "arrival_requests_per_second") || r.Model != "meta-llama/Llama-3.1-8B-Instruct" {
		t.Errorf("send rate from %q, model %q", r.Paths["send_rate"], r.Model)
	}
}

// TestGenAIBenchOpenLoop: an open-loop run stores its QPS level in
// num_concurrency; the experiment's --qps-level (or a level that is not a
// whole number) makes it a rate run.
func TestGenAIBenchOpenLoop(t *testing.T) {
	const dir = "testdata/genaibench_closed_loop/"
	raw, err := os.ReadFile(dir + "D(1024,128)_text-to-text_num_concurrency_1_time_60s.json")
	if err != nil {
		t.Fatal(err)
	}
	mraw, err := os.ReadFile(dir + "experiment_metadata.json")
	if err != nil {
		t.Fatal(err)
	}
	open := strings.Replace(string(mraw), "--num-concurrency 1", "--qps-level 1", 1)
	run, _ := Parse("run.json", strings.NewReader(string(raw)), Options{})
	meta, err := Parse("experiment_metadata.json", strings.NewReader(open), Options{})
	if err != nil || !meta.Experiment.OpenLoop {
		t.Fatalf("open loop not seen: %v", err)
	}
	files, err := CompleteUpload([]*File{run, meta})
	if err != nil {
		t.Fatal(err)
	}
	r := files[0].Rows[0]
	if r.LoadKind != planner.LoadRate || *r.Load != 1 || !strings.Contains(r.Paths["load"], "--qps-level") {
		t.Errorf("load %s %v from %q, want rate 1", r.LoadKind, *r.Load, r.Paths["load"])
	}
	if !hasCode(r.Warnings, "rate-mismatch") {
		t.Errorf("1 req/s asked, 0.861 succeeded: no warning %v", r.Warnings)
	}
	half := strings.Replace(string(raw), `"num_concurrency": 1,`, `"num_concurrency": 0.5,`, 1)
	f, err := Parse("run.json", strings.NewReader(half), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r := f.Rows[0]; r.LoadKind != planner.LoadRate || *r.Load != 0.5 {
		t.Errorf("a level of 0.5: %s %v", r.LoadKind, *r.Load)
	}
}

// TestGenAIBenchMetadataAlone: an experiment without its runs is refused
// in words, saying what to upload.
func TestGenAIBenchMetadataAlone(t *testing.T) {
	meta, err := ParseFile("testdata/genaibench_closed_loop/experiment_metadata.json", Options{})
	if err != nil {
		t.Fatal(err)
	}
	files, err := CompleteUpload([]*File{meta})
	if err == nil || len(files) != 0 || !strings.Contains(err.Error(), "experiment_metadata.json: genai-bench's experiment_metadata.json holds no results") || !strings.Contains(err.Error(), "upload it together with the run files") {
		t.Fatalf("%d files, err %v", len(files), err)
	}
}
