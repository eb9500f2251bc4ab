package importers

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestLLMDYAMLTruncations cuts a real-shaped llm-d benchmark report v0.2.1
// after each of its lines (and inside some) and reads each piece: a piece
// is refused as cut off, or it is a whole report in its own right (it ends
// where a section of the report may end), and then its row has the time
// to first token and the end-to-end latency. No piece imports a row
// without latencies.
func TestLLMDYAMLTruncations(t *testing.T) {
	data, err := os.ReadFile("testdata/llmd_br_v0.2.1_stage.yaml")
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	// The lines after which the document is whole: the aggregate's last
	// statistic, the time series' last item and each metric's last sample.
	whole := map[int]bool{125: true, 132: true, 147: true, 149: true, 159: true, 161: true, len(lines) - 1: true, len(lines): true}
	refused, imported := 0, 0
	for n := 1; n < len(lines); n++ {
		piece := bytes.Join(lines[:n], nil)
		for _, cut := range [][]byte{piece, piece[:max(len(piece)-3, 0)]} {
			f, err := Parse("benchmark_report.yaml", bytes.NewReader(cut), Options{})
			if err != nil {
				if !strings.Contains(err.Error(), "cut off (truncated)") && !strings.Contains(err.Error(), "results: missing") && !strings.Contains(err.Error(), "not a recognised") && !strings.Contains(err.Error(), "requests: missing") {
					t.Errorf("after line %d (%d bytes): refused but not as cut off: %v", n, len(cut), err)
				}
				refused++
				continue
			}
			imported++
			if len(cut) != len(piece) || !whole[n] {
				t.Errorf("after line %d (%d bytes): imported a cut report", n, len(cut))
			}
			if r := f.Rows[0]; r.TTFT.P95 == nil || r.E2E.P95 == nil {
				t.Errorf("after line %d: a row without latencies", n)
			}
		}
	}
	t.Logf("%d pieces refused, %d imported (each a whole report)", refused, imported)
}

// TestYAMLStreamEndsInside: a report large enough to be converted as a
// stream is refused when its last line is a key with no value.
func TestYAMLStreamEndsInside(t *testing.T) {
	old := yamlStreamAll
	yamlStreamAll = true
	defer func() { yamlStreamAll = old }()
	data, err := os.ReadFile("testdata/llmd_br_v0.2.1_stage.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse("benchmark_report.yaml", bytes.NewReader(data), Options{}); err != nil {
		t.Fatalf("whole report: %v", err)
	}
	cut := data[:bytes.Index(data, []byte("      samples:\n      - ts: 2026-11-20T09:00:15Z\n        value: 0\n"))+len("      samples:\n")]
	if _, err := Parse("benchmark_report.yaml", bytes.NewReader(cut), Options{}); err == nil || !strings.Contains(err.Error(), "its last key, samples, has no value") {
		t.Errorf("cut after samples: %v", err)
	}
}
