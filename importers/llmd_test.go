package importers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"capplan/planner"
)

// parseBothWays parses a fixture decoded whole and, for YAML, converted as
// a stream: the two must give the same file.
func parseLLMDFixture(t *testing.T, path string) *File {
	t.Helper()
	data := mustRead(t, path)
	f, err := Parse(path, bytes.NewReader(data), Options{})
	if err != nil {
		t.Fatal(err)
	}
	yamlStreamAll = true
	g, err := Parse(path, bytes.NewReader(data), Options{})
	yamlStreamAll = false
	if err != nil {
		t.Fatalf("as a stream: %v", err)
	}
	a, _ := json.Marshal(f)
	b, _ := json.Marshal(g)
	if !bytes.Equal(a, b) {
		t.Errorf("decoded whole and as a stream differ:\n%s\n%s", a, b)
	}
	return f
}

// warningMsg is the message of the warning with the code, "" if none.
func warningMsg(ws []planner.Warning, code string) string {
	for _, w := range ws {
		if w.Code == code {
			return w.Message
		}
	}
	return ""
}

func hasWarning(ws []planner.Warning, code string) bool {
	for _, w := range ws {
		if w.Code == code {
			return true
		}
	}
	return false
}

// A v0.2.1 stage in YAML: the load from rate_qps (concurrency .inf), the
// counts from requests total and failures, every latency scaled by its
// own units, the send rate kept apart from the achieved rate because
// requests failed, the GPU memory peak from the scraped VRAM, the KV cache
// that filled and the waiting requests as warnings, and the stack named.
func TestLLMDYAMLStage(t *testing.T) {
	f := parseLLMDFixture(t, "testdata/llmd_br_v0.2.1_stage.yaml")
	if f.Source.Format != "llm-d" || f.Source.FormatVersion != "benchmark report v0.2.1, stage 2" || f.Source.ToolVersion != "guidellm 0.5.3" {
		t.Errorf("source = %+v", f.Source)
	}
	if f.Model != "meta-llama/Llama-3.1-8B-Instruct" || len(f.Rows) != 1 {
		t.Fatalf("model %q, %d rows", f.Model, len(f.Rows))
	}
	r := f.Rows[0]
	if r.LoadKind != planner.LoadRate {
		t.Errorf("load kind %v", r.LoadKind)
	}
	checkF(t, "load", r.Load, 4)
	checkI(t, "attempted", r.Attempted, 480)
	checkI(t, "errored", r.Errored, 6)
	checkI(t, "successful", r.Successful, 474)
	checkF(t, "duration", r.DurationS, 120)
	checkF(t, "send rate", r.SendRate, 4)
	checkF(t, "achieved rate", r.AchievedRate, 474.0/120)
	checkF(t, "ttft mean", r.TTFT.Mean, 0.142)
	checkF(t, "ttft p95", r.TTFT.P95, 0.236)
	checkF(t, "ttft p99", r.TTFT.P99, 0.310)
	checkF(t, "tpot p99", r.TPOT.P99, 0.0295)
	checkF(t, "e2e p95", r.E2E.P95, 6.4)
	checkF(t, "output token rate", r.OutputTokenRate, 1010.5)
	checkF(t, "prompt tokens", r.PromptTokensMean, 512)
	checkF(t, "peak memory GiB", r.Observed.PeakMemoryGiB, 68)
	if r.TTFT.N != 474 {
		t.Errorf("ttft n = %d", r.TTFT.N)
	}
	if e := r.Engine; e == nil || e.KVCacheMax == nil || *e.KVCacheMax < planner.KVCacheFull || e.WaitingMax == nil || *e.WaitingMax <= 0 || e.Source == "" {
		t.Errorf("the engine's figures: %+v", e)
	}
	for _, code := range []string{"errors"} {
		if !hasWarning(r.Warnings, code) {
			t.Errorf("no %s warning: %v", code, r.Warnings)
		}
	}
	if hasWarning(r.Warnings, "multi-replica-stack") {
		t.Errorf("one replica on one GPU is one box: %v", r.Warnings)
	}
	if !strings.Contains(warningMsg(f.Warnings, "stack"), "1 × NVIDIA-H100-80GB-HBM3 (TP 1, DP 1, EP 1)") {
		t.Errorf("file warnings %v", f.Warnings)
	}
	for name, want := range map[string]string{
		"ttft_s.p99": "results.request_performance.aggregate.latency.time_to_first_token.p99",
		"attempted":  "results.request_performance.aggregate.requests.total",
		"load":       "scenario.load.standardized.rate_qps",
		"model":      "scenario.stack[0].standardized.model.name",
	} {
		if r.Paths[name] != want {
			t.Errorf("path of %s = %q, want %q", name, r.Paths[name], want)
		}
	}
}

// A v0.2 stage in JSON of a disaggregated stack: a prefill and a decode
// replica of TP 4 each; the figures are flagged as the whole stack's.
func TestLLMDJSONStage(t *testing.T) {
	f := parseLLMDFixture(t, "testdata/llmd_br_v0.2_stage.json")
	r := f.Rows[0]
	if f.Source.FormatVersion != "benchmark report v0.2, stage 5" || f.Model != "Qwen/Qwen3-32B" {
		t.Errorf("source %+v model %q", f.Source, f.Model)
	}
	checkF(t, "load", r.Load, 12)
	checkI(t, "successful", r.Successful, 3600)
	checkF(t, "duration", r.DurationS, 300)
	checkF(t, "request rate", r.RequestRate, 12)
	if r.Paths["request_rate"] != "results.request_performance.aggregate.throughput.request_rate.mean" {
		t.Errorf("request rate from %q", r.Paths["request_rate"])
	}
	checkF(t, "ttft p99", r.TTFT.P99, 0.95)
	checkF(t, "tpot p95", r.TPOT.P95, 0.038)
	if !hasWarning(r.Warnings, "multi-replica-stack") || !strings.Contains(warningMsg(f.Warnings, "stack"), "8 × NVIDIA-H100-80GB-HBM3 (TP 4, DP 1, EP 1), roles 1 prefill, 1 decode") {
		t.Errorf("warnings %v / %v", r.Warnings, f.Warnings)
	}
}

// The native configurations, which carry API keys and tokens, are skipped
// unread: no credential reaches the imported file.
func TestLLMDSecretsStayOut(t *testing.T) {
	for _, path := range []string{"testdata/llmd_br_v0.2.1_stage.yaml", "testdata/llmd_br_v0.2_stage.json"} {
		f := parseLLMDFixture(t, path)
		b, _ := json.Marshal(f)
		for _, secret := range []string{"sk-live", "sk-never", "hf_", "doNotStore"} {
			if bytes.Contains(b, []byte(secret)) {
				t.Errorf("%s: %q reached the import: %s", path, secret, b)
			}
		}
		if !hasWarning(f.Warnings, "credential-in-file") {
			t.Errorf("%s: no warning that the raw file holds a credential: %v", path, f.Warnings)
		}
	}
}

// Refusals name what is wrong, with the path inside the report.
func TestLLMDRefusals(t *testing.T) {
	yml := string(mustRead(t, "testdata/llmd_br_v0.2.1_stage.yaml"))
	js := string(mustRead(t, "testdata/llmd_br_v0.2_stage.json"))
	edit := func(s, old, new string) string {
		if !strings.Contains(s, old) {
			t.Fatalf("fixture text %q not found", old)
		}
		return strings.Replace(s, old, new, 1)
	}
	cutAt := func(s, before string) string { return s[:strings.Index(s, before)] }
	for _, c := range []struct {
		name, file, in, want string
	}{
		{"an older schema", "r.json", edit(js, `"version": "0.2"`, `"version": "0.1"`), "llm-d benchmark report 0.1 is not read"},
		{"failures above the total", "r.json", edit(js, `"failures": 0`, `"failures": 4000`), "the request counts contradict each other"},
		{"NaN total", "r.json", edit(js, `"total": 3600`, `"total": NaN`), "requests.total (attempted) is NaN"},
		{"a latency in minutes", "r.json", edit(js, `"units": "s", "mean": 0.412`, `"units": "min", "mean": 0.412`), `latency.time_to_first_token.units: "min" is not a unit`},
		{"negative latency", "r.json", edit(js, `"p99": 0.95`, `"p99": -1`), "time_to_first_token.p99 (ttft_s.p99) is negative"},
		{"no counts", "r.json", edit(js, `"requests": {"total"`, `"requests_x": {"total"`), "aggregate.requests: missing"},
		{"JSON cut off", "r.json", js[:len(js)*2/3], "the file is cut off (truncated)"},
		{"YAML cut inside a line", "r.yaml", yml[:strings.Index(yml, "p99: 310.0")+6], "the file is cut off (truncated) in line"},
		{"YAML cut before latency", "r.yaml", cutAt(yml, "      throughput:"), "the file is cut off (truncated) inside results.request_performance.aggregate"},
		{"a negative scraped value", "r.yaml", edit(yml, "value: 0.62", "value: -0.62"), "samples[0].value: negative"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, stream := range []bool{false, true} {
				yamlStreamAll = stream
				f, err := Parse(c.file, strings.NewReader(c.in), Options{})
				yamlStreamAll = false
				if err == nil {
					t.Fatalf("stream %v: imported %d rows, want %q", stream, len(f.Rows), c.want)
				}
				if !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), c.file+": ") {
					t.Errorf("stream %v: err = %v, want %q", stream, err, c.want)
				}
			}
		})
	}
}

// llmdWithSamples is a JSON report whose one scraped metric has n samples.
func llmdWithSamples(t testing.TB, n int) io.Reader {
	js := string(mustRead(t, "testdata/llmd_br_v0.2_stage.json"))
	i := strings.LastIndex(js, "}")
	i = strings.LastIndex(js[:i], "}") // the end of results
	head := js[:i] + `, "observability": {"metrics": [{"name": "vllm:kv_cache_usage_perc", "unit": "fraction", "samples": [`
	sample := `{"ts": "2026-11-21T10:00:00Z", "value": 0.5},`
	return io.MultiReader(strings.NewReader(head), repeat("", sample, "", n), strings.NewReader(`{"ts": "2026-11-21T10:00:01Z", "value": 0.99}]}]}`+js[i:]))
}

// A report's scraped samples are folded one at a time: 48 MB of them read
// in a few MB of heap, and their peak is the row's.
func TestLLMDBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 48 MB")
	}
	n := (48 << 20) / 45
	var f *File
	var err error
	mb := peakHeap(func() { f, err = Parse("r.json", llmdWithSamples(t, n), Options{}) })
	t.Logf("peak heap %.1f MB for %d samples", mb, n)
	if err != nil {
		t.Fatal(err)
	}
	if e := f.Rows[0].Engine; e == nil || e.KVCacheMax == nil || *e.KVCacheMax < planner.KVCacheFull {
		t.Errorf("the last sample's peak is lost: %+v", e)
	}
	if mb > 16 {
		t.Errorf("peak heap %.1f MB, want under 16 MB", mb)
	}
}

// BenchmarkParseLLMD reads a report with 1 MB of scraped samples.
func BenchmarkParseLLMD(b *testing.B) {
	var buf bytes.Buffer
	io.Copy(&buf, llmdWithSamples(b, (1<<20)/45))
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse("r.json", bytes.NewReader(data), Options{}); err != nil {
			b.Fatal(err)
		}
	}
	_ = fmt.Sprint
}

// The warning names where each credential is, and a report without one
// has no such warning.
func TestLLMDCredentialWarning(t *testing.T) {
	f := parseLLMDFixture(t, "testdata/llmd_br_v0.2.1_stage.yaml")
	msg := warningMsg(f.Warnings, "credential-in-file")
	for _, where := range []string{"scenario.stack[0].native.args.--api-key", "scenario.stack[0].native.envars.HF_TOKEN"} {
		if !strings.Contains(msg, where) {
			t.Errorf("the warning does not name %s: %q", where, msg)
		}
	}
	js := string(mustRead(t, "testdata/llmd_br_v0.2_stage.json"))
	js = strings.Replace(js, `"HF_TOKEN": "hf_secretNeverKept"`, `"HF_HOME": "/cache"`, 1)
	js = strings.Replace(js, `"api_key": "sk-neverKeptEither"`, `"api_key": null`, 1)
	g, err := Parse("r.json", strings.NewReader(js), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if hasWarning(g.Warnings, "credential-in-file") {
		t.Errorf("a report without a credential is warned: %v", g.Warnings)
	}
}

// A stack of two replicas of one engine is two replicas, kept with the
// row: against a one-replica row at the same load it measures a fleet's
// scaling factor (docs/method.md, "Fleets and the reserve").
func TestLLMDTwoReplicas(t *testing.T) {
	data := string(mustRead(t, "testdata/llmd_br_v0.2.1_stage.yaml"))
	start := strings.Index(data, "  - metadata:\n      kind: inference_engine")
	end := strings.Index(data, "  - metadata:\n      kind: generic")
	if start < 0 || end < start {
		t.Fatal("the fixture's stack is not where the test expects it")
	}
	engine := data[start:end]
	two := data[:end] + strings.Replace(engine, "vllm-decode-0", "vllm-decode-1", 1) + data[end:]
	f, err := Parse("two.yaml", strings.NewReader(two), Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := f.Rows[0]
	if r.Replicas == nil || *r.Replicas != 2 || r.ReplicaCount() != 2 {
		t.Errorf("replicas = %v", r.Replicas)
	}
	if !hasWarning(r.Warnings, "multi-replica-stack") {
		t.Errorf("two replicas are not one box: %v", r.Warnings)
	}
	one := parseLLMDFixture(t, "testdata/llmd_br_v0.2.1_stage.yaml").Rows[0]
	if one.Replicas != nil || one.ReplicaCount() != 1 {
		t.Errorf("one replica: %v", one.Replicas)
	}
}

// TestLLMDFromVLLM: in a report converted from vLLM's bench serve result,
// request_rate is vLLM's request_throughput (completed over the run): the
// achieved rate; the run is a rate run at rate_qps, its concurrency the
// cap, both said.
func TestLLMDFromVLLM(t *testing.T) {
	f, err := ParseFile("testdata/llmd_br_v0.2_from_vllm.yaml", Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := f.Rows[0]
	if r.LoadKind != planner.LoadRate || r.Load == nil || *r.Load != 8 {
		t.Fatalf("load %s %v, want rate 8", r.LoadKind, r.Load)
	}
	checkF(t, "achieved rate", r.AchievedRate, 5.0761)
	checkF(t, "request rate", r.RequestRate, 5.0761)
	if r.SendRate != nil {
		t.Errorf("vLLM's success rate filed as a send rate: %v", *r.SendRate)
	}
	checkI(t, "successful", r.Successful, 609)
	var said string
	for _, w := range r.Warnings {
		if w.Code == "rate-and-cap" {
			said = w.Message
		}
	}
	if !strings.Contains(said, "driven at 8 req/s with at most 512 requests in flight") || !strings.Contains(said, "the cap did not bind") {
		t.Errorf("rate and cap said as %q (warnings %v)", said, r.Warnings)
	}
	if !hasCode(r.Warnings, "rate-mismatch") {
		t.Errorf("8 req/s asked, 5.08 succeeded: no rate-mismatch in %v", r.Warnings)
	}
}
