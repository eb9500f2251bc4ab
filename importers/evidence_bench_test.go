package importers

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"capplan/planner"
	"capplan/web/demogen/usagegen"
)

// BenchmarkShowbackUsageLog streams a generated six-hour two-tenant usage
// log (about 90,000 requests) through ParseUsage into the showback meter,
// and reports MB/s and the growth of memory obtained from the OS: the
// meter keeps counters per tenant and per 50 ms step, never the requests.
func BenchmarkShowbackUsageLog(b *testing.B) {
	path := filepath.Join(b.TempDir(), "usage.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	cfg := usagegen.Default()
	cfg.DurationS = 6 * 3600
	if err := usagegen.Write(f, cfg); err != nil {
		b.Fatal(err)
	}
	f.Close()
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		in, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		m := planner.NewShowbackMeter(0)
		if _, err := ParseUsage("usage.jsonl", in, EvidenceOptions{}, m.Add); err != nil {
			b.Fatal(err)
		}
		in.Close()
		if u := m.Usage(""); len(u.Tenants) != 2 {
			b.Fatalf("tenants = %+v", u.Tenants)
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.Sys-before.Sys)/(1<<20), "MB-sys-growth")
	b.ReportMetric(float64(st.Size())/(1<<20), "MB-file")
}
