package importers

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"capplan/testdata/gen/guidellmgen"
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

// BenchmarkParseGuideLLM1GB parses a generated GuideLLM report with full
// per-request records (1 GB with CAPPLAN_BENCH_BYTES=1073741824) and
// reports MB/s and the growth of memory obtained from the OS.
func BenchmarkParseGuideLLM1GB(b *testing.B) {
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
	st, _ := os.Stat(path)
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
