package importers

import (
	"io"
	"strings"
	"testing"
	"time"

	"capplan/planner"
)

// TestRowReadersBoundedMemory: a reader that holds one row, record or
// cell at a time refuses a field past its bound as it streams, never
// buffering it: a 300 MB string in one InferenceX row (JSON or CSV), in a
// price catalogue's entry, in an evidence log's line or in a YAML report
// leaves the heap within a few MB of where it started, not 300 MB above.
func TestRowReadersBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 300 MB per case")
	}
	const chunk = 1 << 16
	huge := strings.Repeat("m", chunk)
	n := 300 << 20 / chunk // 300 MB
	cases := []struct {
		name    string
		parse   func(io.Reader) error
		in      func() io.Reader
		wantErr string
	}{
		{"InferenceX JSON row", func(r io.Reader) error {
			_, _, err := ParseInferenceX("agg_bmk.json", r, ReferenceOptions{Date: "2026-11-20"})
			return err
		}, func() io.Reader {
			return repeat(`[{"hw": "h100", "intvty": 1, "output_tput_per_gpu": 1, "model": "`, huge, `"}]`, n)
		}, "[0]: larger than 64 KB"},
		{"InferenceX CSV row", func(r io.Reader) error {
			_, _, err := ParseInferenceX("agg_bmk.csv", r, ReferenceOptions{Date: "2026-11-20"})
			return err
		}, func() io.Reader {
			return repeat("hw,model,isl,osl,intvty,output_tput_per_gpu\nh100,", huge, ",1,1,1,1\n", n)
		}, "longer than"},
		{"price catalogue entry", func(r io.Reader) error {
			_, err := ParsePrices("prices.json", r, PriceOptions{Date: "2026-11-20"})
			return err
		}, func() io.Reader {
			return repeat(`[{"id": "openai", "name": "OpenAI", "models": [{"id": "gpt-x", "prices": {"input_mtok": 1, "output_mtok": 2}, "description": "`, huge, `"}]}]`, n)
		}, "larger than 8 MB, more than any price catalogue"},
		{"usage log line", func(r io.Reader) error {
			_, err := ParseUsage("usage.csv", r, EvidenceOptions{}, func(planner.UsageRecord) error { return nil })
			return err
		}, func() io.Reader {
			return repeat("tenant,start,end,prompt_tokens,output_tokens\n", huge, ",2026-11-20T00:00:00Z,2026-11-20T00:01:00Z,1,1\n", n)
		}, "longer than"},
		{"llm-d YAML report", func(r io.Reader) error {
			_, err := Parse("benchmark_report.yaml", r, Options{})
			return err
		}, func() io.Reader {
			return repeat("version: '0.2'\nscenario:\n  load:\n    metadata:\n      note: \"", huge, "\"\n", n)
		}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			start := time.Now()
			mb := peakHeap(func() { err = c.parse(c.in()) })
			t.Logf("peak heap %.1f MB above the start, %v: %v", mb, time.Since(start).Round(time.Millisecond), err)
			if mb > 32 {
				t.Errorf("peak heap %.1f MB above the start for a 300 MB field", mb)
			}
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("err = %v, want a refusal naming %q", err, c.wantErr)
			}
		})
	}
}
