package importers

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestLookAlikesSayWhatTheyAre: each file people pick by mistake is
// refused naming what it is and what to import instead.
func TestLookAlikesSayWhatTheyAre(t *testing.T) {
	for _, c := range []struct {
		file string
		want []string
	}{
		{"testdata/mlperf_log_summary.txt", []string{"MLPerf LoadGen's summary (mlperf_log_summary.txt", "import its result file instead"}},
		{"testdata/llmd_metrics_summary.json", []string{"llm-d-benchmark's metrics summary (metrics_summary.json", "import the stage's llm-d benchmark report instead"}},
		{"testdata/inferencex_agentic_row.json", []string{"InferenceX agentic-coding summary row", "fixed-sequence rows (agg_bmk.json"}},
	} {
		t.Run(c.file, func(t *testing.T) {
			_, err := ParseFile(c.file, Options{})
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "AIPerf's per-request") || strings.Contains(err.Error(), "YAML") {
				t.Errorf("named as something else: %q", err)
			}
		})
	}
	// MLPerf's detail log, and one pod of llm-d's metrics summary alone
	detail := `:::MLLOG {"key": "loadgen_version", "value": "5.0.4", "time_ms": 0.006, "namespace": "mlperf::logging", "event_type": "POINT_IN_TIME", "metadata": {"is_error": false}}` + "\n"
	if _, err := Parse("mlperf_log_detail.txt", strings.NewReader(detail), Options{}); err == nil || !strings.Contains(err.Error(), "MLPerf LoadGen's detail log") {
		t.Errorf("detail log: %v", err)
	}
	raw, _ := os.ReadFile("testdata/llmd_metrics_summary.json")
	var pods map[string]json.RawMessage
	json.Unmarshal(raw, &pods)
	if _, err := Parse("pod.json", bytes.NewReader(pods["llmd-decode-0-7f9c"]), Options{}); err == nil || !strings.Contains(err.Error(), "llm-d-benchmark's metrics summary") {
		t.Errorf("one pod: %v", err)
	}
	// an agentic row given as reference rows, alone or in an array
	for _, in := range []string{string(raw), "[" + string(mustRead(t, "testdata/inferencex_agentic_row.json")) + "]"} {
		if in == string(raw) {
			in = string(mustRead(t, "testdata/inferencex_agentic_row.json"))
		}
		_, _, err := ParseInferenceX("agg_dsr1.json", strings.NewReader(in), ReferenceOptions{Date: "2026-11-20"})
		if err == nil || !strings.Contains(err.Error(), "agentic-coding summary row") {
			t.Errorf("agentic row as reference: %v", err)
		}
	}
}

// TestServerMetricsAlone: AIPerf's server metrics without their run are
// refused in words, naming the run's file to upload with them.
func TestServerMetricsAlone(t *testing.T) {
	f, err := Parse("server_metrics_export.json", strings.NewReader(serverMetricsExport("run-8", 0.5, 0, 0)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if hasCode(f.Warnings, "model-unknown") {
		t.Errorf("server metrics, which hold no rows, warn of no model")
	}
	rows, err := CompleteUpload([]*File{f})
	if err == nil || len(rows) != 0 || !strings.Contains(err.Error(), "server_metrics_export.json: AIPerf's server-metrics export holds no results") || !strings.Contains(err.Error(), "profile_export_aiperf.json") {
		t.Errorf("%d rows, %v", len(rows), err)
	}
}
