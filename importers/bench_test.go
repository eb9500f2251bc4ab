package importers

import (
	"capplan/web/demogen/genaibenchgen"

	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"capplan/web/demogen/guidellmgen"
)

// benchBytes is the size of the generated report: CAPPLAN_BENCH_BYTES, or
// 32 MB so that `go test -bench` stays quick.
func benchBytes(b *testing.B) int64 {
	if s := os.Getenv("CAPPLAN_BENCH_BYTES"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			b.Fatalf("CAPPLAN_BENCH_BYTES: %v", err)
		}
		return n
	}
	return 32 << 20
}

// benchReport returns the path of the GuideLLM report to benchmark: the
// file named by CAPPLAN_BENCH_FILE (such as a 1 GB report written by
// testdata/gen), or one generated in a temporary directory.
func benchReport(b *testing.B) string {
	if p := os.Getenv("CAPPLAN_BENCH_FILE"); p != "" {
		return p
	}
	path := filepath.Join(b.TempDir(), "benchmarks.json")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := guidellmgen.Write(f, guidellmgen.Config{TargetBytes: benchBytes(b)}); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkParseGuideLLM1GB parses a generated GuideLLM report with full
// per-request records (1 GB with CAPPLAN_BENCH_BYTES=1073741824) and
// reports MB/s and the growth of memory obtained from the OS. Its
// reference is BenchmarkReadGuideLLMReport, the same file read and thrown
// away in the same run.
func BenchmarkParseGuideLLM1GB(b *testing.B) {
	path := benchReport(b)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := ParseFile(path, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.Sys-before.Sys)/(1<<20), "MB-sys-growth")
	b.ReportMetric(float64(st.Size())/(1<<20), "MB-file")
}

// BenchmarkParseGuideLLMKeep parses the same report while keeping its raw
// copy in a temporary file (Options.Copy), as an import does; compare it
// with BenchmarkParseGuideLLM1GB of the same run.
func BenchmarkParseGuideLLMKeep(b *testing.B) {
	path := benchReport(b)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	dir := b.TempDir()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out, err := os.CreateTemp(dir, "raw-*")
		if err != nil {
			b.Fatal(err)
		}
		f, err := ParseFile(path, Options{Copy: out})
		if err != nil {
			b.Fatal(err)
		}
		out.Close()
		if fi, err := os.Stat(out.Name()); err != nil || fi.Size() != f.Bytes {
			b.Fatalf("copy of %v bytes, want %d (%v)", fi.Size(), f.Bytes, err)
		}
		os.Remove(out.Name())
	}
}

// BenchmarkReadGuideLLMReport is the reference of the parse benchmarks: the
// report read with io.Copy into io.Discard, as cat would, without parsing
// or hashing.
func BenchmarkReadGuideLLMReport(b *testing.B) {
	path := benchReport(b)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	buf := make([]byte, 256<<10)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.CopyBuffer(io.Discard, struct{ io.Reader }{f}, buf); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
}

// benchParse parses data b.N times and reports MB/s.
func benchParse(b *testing.B, name string, data []byte) {
	b.Helper()
	if _, err := Parse(name, bytes.NewReader(data), Options{}); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Parse(name, bytes.NewReader(data), Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseVLLMDetailed parses a vLLM result with per-request arrays
// (ttfts, itls, output_lens, errors, generated_texts) for 20,000 requests.
func BenchmarkParseVLLMDetailed(b *testing.B) {
	var s strings.Builder
	s.WriteString(`{"date": "20250101-000000", "backend": "vllm", "model_id": "m", "request_rate": "inf", "max_concurrency": 64, "duration": 100, "completed": 20000, "failed": 0, "total_output_tokens": 2000000, "request_throughput": 200, "output_throughput": 20000, "mean_ttft_ms": 10, "median_ttft_ms": 10, "p99_ttft_ms": 20`)
	arr := func(key string, item func(i int) string) {
		s.WriteString(`, "` + key + `": [`)
		for i := 0; i < 20000; i++ {
			if i > 0 {
				s.WriteString(", ")
			}
			s.WriteString(item(i))
		}
		s.WriteString("]")
	}
	arr("ttfts", func(i int) string { return fmt.Sprintf("%.6f", 0.01+float64(i%97)/1000) })
	arr("output_lens", func(i int) string { return "100" })
	arr("itls", func(i int) string { return "[0.0051, 0.0049, 0.0050, 0.0052, 0.0048, 0.0050]" })
	arr("errors", func(i int) string { return `""` })
	arr("generated_texts", func(i int) string { return `"` + strings.Repeat("lorem ipsum ", 40) + `"` })
	s.WriteString("}")
	benchParse(b, "vllm.json", []byte(s.String()))
}

// BenchmarkParseSGLangJSONL parses 2,000 SGLang bench_serving lines, each
// with a server_info of about 8 KB.
func BenchmarkParseSGLangJSONL(b *testing.B) {
	line := `{"backend": "sglang", "dataset_name": "random", "request_rate": Infinity, "max_concurrency": 4, "completed": 10, "duration": 10, "request_throughput": 1, "output_throughput": 100, "total_output_tokens_retokenized": 1000, "total_output_tokens": 1000, "mean_e2e_latency_ms": 100, "median_e2e_latency_ms": 100, "p99_e2e_latency_ms": 190, "mean_ttft_ms": 10, "median_ttft_ms": 10, "p99_ttft_ms": 19, "median_itl_ms": 5, "server_info": {"model_path": "m", "version": "0.5.0", "args": "` + strings.Repeat("x", 8000) + `"}}` + "\n"
	benchParse(b, "sglang.jsonl", []byte(strings.Repeat(line, 2000)))
}

// BenchmarkParseGuideLLMYAML parses GuideLLM's YAML report of 55 KB,
// decoded whole.
func BenchmarkParseGuideLLMYAML(b *testing.B) {
	benchParse(b, "g.yaml", mustRead(b, "testdata/guidellm_d_0.5.yaml"))
}

// BenchmarkParseGuideLLMYAMLStream parses a GuideLLM YAML report of 16 MB,
// converted to JSON as it is read (over 4 MB).
func BenchmarkParseGuideLLMYAMLStream(b *testing.B) {
	s := string(mustRead(b, "testdata/guidellm_d_0.5.yaml"))
	i := strings.Index(s, "    successful:\n    - ") + len("    successful:\n")
	j := strings.Index(s[i+6:], "\n    - ") + i + 7
	var buf bytes.Buffer
	io.Copy(&buf, repeat(s[:i], s[i:j], s[i:], (16<<20)/(j-i)))
	benchParse(b, "g.yaml", buf.Bytes())
}

// BenchmarkParseSummaries parses the small summary formats from the real
// files: AIPerf, GenAI-Perf, LLMPerf and inference-perf.
func BenchmarkParseSummaries(b *testing.B) {
	for _, c := range []struct{ name, glob string }{
		{"aiperf", real("aiperf", "*.json")},
		{"llmperf", real("llmperf", "*.json")},
		{"inference-perf", real("inference-perf", "*stage_0*lifecycle*.json")},
	} {
		paths, _ := filepath.Glob(c.glob)
		if len(paths) == 0 {
			b.Fatalf("no file for %s", c.glob)
		}
		data := mustRead(b, paths[0])
		b.Run(c.name, func(b *testing.B) { benchParse(b, filepath.Base(paths[0]), data) })
	}
	run := []byte(genaibenchgen.Run(16, 2000, 20, "s"))
	b.Run("genai-bench", func(b *testing.B) { benchParse(b, genaibenchgen.RunName(16), run) })
}
