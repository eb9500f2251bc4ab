package importers

import (
	"os"
	"strings"
	"testing"
)

// TestGuideLLMDuplicateKeys edits a small hand-made GuideLLM report so that
// a key appears twice at each level where a figure comes from: the key is
// warned (duplicate-key) with both values, and the last value is used
// whole, as Python's json module reads the file (two objects under one key
// are not merged).
func TestGuideLLMDuplicateKeys(t *testing.T) {
	b, err := os.ReadFile("testdata/guidellm_d_small.json")
	if err != nil {
		t.Fatal(err)
	}
	base := string(b)
	// once replaces the first old in base, which must be there.
	once := func(old, new string) string {
		if !strings.Contains(base, old) {
			t.Fatalf("the fixture lacks %q", old)
		}
		return strings.Replace(base, old, new, 1)
	}
	i, j := strings.Index(base, `"benchmarks": `), strings.LastIndex(base, "}")
	benchmarks := base[i:j]
	cases := []struct {
		name  string
		in    string
		warn  []string // what the duplicate-key warning names; none: no such warning
		check func(t *testing.T, f *File)
	}{
		{
			name: "no key twice",
			in:   base,
			check: func(t *testing.T, f *File) {
				checkF(t, "ttft p99", f.Rows[0].TTFT.P99, 0.14)
				if len(f.Rows[0].Samples) != 3 {
					t.Errorf("%d samples, want 3", len(f.Rows[0].Samples))
				}
			},
		},
		{
			name: "a latency distribution twice: the last one whole, nothing kept from the first",
			in:   once(`"request_latency": {`, `"time_to_first_token_ms": {"successful": {"mean": 50.0, "median": 50.0, "count": 3, "percentiles": {"p50": 50.0, "p95": 60.0}}}, "request_latency": {`),
			warn: []string{"benchmarks[0].metrics.time_to_first_token_ms appears twice", "the last value is used"},
			check: func(t *testing.T, f *File) {
				r := f.Rows[0]
				checkF(t, "ttft p95", r.TTFT.P95, 0.06)
				if r.TTFT.P99 != nil {
					t.Errorf("ttft p99 = %v, taken from the first distribution; want none", *r.TTFT.P99)
				}
			},
		},
		{
			name: "a percentile twice",
			in:   once(`"p95": 2.4`, `"p95": 2.4, "p95": 7.5`),
			warn: []string{"benchmarks[0].metrics.request_latency.successful.percentiles.p95 appears twice (2.4, then 7.5)"},
			check: func(t *testing.T, f *File) {
				checkF(t, "e2e p95", f.Rows[0].E2E.P95, 7.5)
			},
		},
		{
			name: "the request counts twice",
			in:   once(`"requests_per_second": {`, `"request_totals": {"successful": 2, "errored": 1, "incomplete": 0, "total": 3}, "requests_per_second": {`),
			warn: []string{"benchmarks[0].metrics.request_totals appears twice"},
			check: func(t *testing.T, f *File) {
				checkI(t, "successful", f.Rows[0].Successful, 2)
				checkI(t, "errored", f.Rows[0].Errored, 1)
			},
		},
		{
			name: "a benchmark's duration twice",
			in:   once(`"duration": 10.0`, `"duration": 10.0, "duration": 20.0`),
			warn: []string{"benchmarks[0].duration appears twice (10.0, then 20.0)"},
			check: func(t *testing.T, f *File) {
				checkF(t, "duration", f.Rows[0].DurationS, 20)
			},
		},
		{
			name: "a benchmark's metrics twice",
			in:   once(`"requests": {`, `"metrics": {"request_totals": {"successful": 1, "errored": 0, "incomplete": 0, "total": 1}}, "requests": {`),
			warn: []string{"benchmarks[0].metrics appears twice", `then {"request_totals"`},
			check: func(t *testing.T, f *File) {
				r := f.Rows[0]
				checkI(t, "successful", r.Successful, 1)
				if r.TTFT.P95 != nil {
					t.Errorf("ttft p95 = %v, taken from the first metrics; want none", *r.TTFT.P95)
				}
			},
		},
		{
			name: "the report's metadata twice",
			in:   `{"metadata": {"version": 9}, ` + base[1:],
			warn: []string{`metadata appears twice ({"version": 9}, then {"version": 1`},
			check: func(t *testing.T, f *File) {
				if f.Source.FormatVersion != "D (0.5-0.6)" {
					t.Errorf("format version %q, want D from the last metadata", f.Source.FormatVersion)
				}
			},
		},
		{
			name: "the benchmarks list twice",
			in:   base[:i] + strings.Replace(benchmarks, `"streams": 1`, `"streams": 5`, 1) + ", " + benchmarks + base[j:],
			warn: []string{"benchmarks appears twice; the last list is used"},
			check: func(t *testing.T, f *File) {
				if len(f.Rows) != 1 {
					t.Fatalf("%d rows, want the 1 of the last list", len(f.Rows))
				}
				checkF(t, "load", f.Rows[0].Load, 1)
			},
		},
		{
			name: "a benchmark's request lists twice",
			in:   once(`"requests": {`, `"requests": {"successful": [{"output_tokens": 0}]}, "requests": {`),
			warn: []string{"benchmarks[0].requests appears twice; the last lists are used"},
			check: func(t *testing.T, f *File) {
				if n := len(f.Rows[0].Samples); n != 3 {
					t.Errorf("%d samples, want the 3 of the last lists", n)
				}
			},
		},
		{
			name: "one status list twice",
			in:   once(`"errored": []`, `"successful": [{"output_tokens": 0}], "errored": []`),
			warn: []string{"benchmarks[0].requests.successful appears twice: the per-request lists of this benchmark are not used"},
			check: func(t *testing.T, f *File) {
				r := f.Rows[0]
				if len(r.Samples) != 0 || r.IdenticalPrompts != nil {
					t.Errorf("%d samples, identical prompts %v: the lists were used", len(r.Samples), r.IdenticalPrompts)
				}
				checkI(t, "successful", r.Successful, 3) // the counts of the summary stand
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := Parse("g.json", strings.NewReader(c.in), Options{})
			if err != nil {
				t.Fatal(err)
			}
			var msgs []string
			for _, w := range f.Warnings {
				if w.Code == "duplicate-key" {
					msgs = append(msgs, w.Message)
				}
			}
			if len(c.warn) == 0 && len(msgs) > 0 {
				t.Errorf("duplicate-key warnings %q, want none", msgs)
			}
			if len(c.warn) > 0 {
				if len(msgs) != 1 {
					t.Fatalf("duplicate-key warnings %q, want one", msgs)
				}
				for _, s := range c.warn {
					if !strings.Contains(msgs[0], s) {
						t.Errorf("warning %q does not say %q", msgs[0], s)
					}
				}
			}
			c.check(t, f)
		})
	}
}
