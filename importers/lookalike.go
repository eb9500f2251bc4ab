package importers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Look-alikes: files the benchmark tools write beside their results, that
// people pick by mistake. Each is refused with what it is and which file to
// import instead (docs/formats in the repository's docs), never with a
// parser's complaint about a byte offset.

// lookAlikeHead recognises a look-alike from the first bytes of the file
// (t, with leading whitespace and BOM removed), before any format reads it.
func lookAlikeHead(t []byte) error {
	line := t
	if i := bytes.IndexAny(line, "\r\n"); i >= 0 {
		line = line[:i]
	}
	switch {
	case t[0] == '{' && isAIPerfPerRequest(line):
		return errAIPerfPerRequest
	case t[0] == '{' && isAIPerfGPUTelemetry(line):
		return errAIPerfGPUTelemetry
	case bytes.HasPrefix(line, []byte("Timeslice,Metric,")):
		return errAIPerfTimeslices
	case t[0] == '{' && bytes.Contains(t, []byte(`"metrics"`)) && (bytes.Contains(t, []byte(`_metrics.log"`)) || bytes.Contains(t, []byte(`"_aggregated"`))):
		// llm-d-benchmark's metrics summary, or one pod of it: its
		// metadata lists the raw *_metrics.log scrapes
		return errLLMDMetricsSummary
	case (t[0] == '{' || t[0] == '[') && isInferenceXAgenticHead(t):
		return errInferenceXAgentic
	case isInferenceXHead(t, line):
		return ErrInferenceXResult
	case isMLPerfLog(t):
		return errMLPerfLog(t)
	case isPrometheusText(t):
		return fmt.Errorf("this is a Prometheus metrics dump (the text a /metrics endpoint serves), not a load-test result; import the benchmark tool's result file here, and the GPU or server metrics on the report's evidence page (DCGM exporter scrapes are read there)")
	}
	return nil
}

// isMLPerfLog tells MLPerf LoadGen's logs from their first bytes: the
// summary (mlperf_log_summary.txt) opens with a rule and "MLPerf Results
// Summary", the detail log (mlperf_log_detail.txt) with ":::MLLOG" lines.
func isMLPerfLog(t []byte) bool {
	head := t[:min(len(t), 512)]
	return bytes.HasPrefix(t, []byte(":::MLLOG")) || bytes.Contains(head, []byte("MLPerf Results Summary"))
}

// errMLPerfLog says which MLPerf LoadGen log the file is, and what to
// import instead.
func errMLPerfLog(t []byte) error {
	what := "MLPerf LoadGen's summary (mlperf_log_summary.txt: samples per second and latency percentiles of one scenario)"
	if bytes.HasPrefix(t, []byte(":::MLLOG")) {
		what = "MLPerf LoadGen's detail log (mlperf_log_detail.txt: one :::MLLOG event a line)"
	}
	return fmt.Errorf("this is %s, not a result of a load-test tool read here: its one load level is LoadGen's scenario, not a tested load of your contract; run the load with one of the tools read here (%s) and import its result file instead", what, FormatLabels())
}

// isAIPerfPerRequest tells AIPerf's per-request profile_export.jsonl from
// the first line: an object with metadata and metrics, whose metadata
// carries the request's identity and timing.
func isAIPerfPerRequest(line []byte) bool {
	if !bytes.Contains(line, []byte(`"metadata"`)) || !bytes.Contains(line, []byte(`"metrics"`)) {
		return false
	}
	for _, k := range []string{`"x_request_id"`, `"benchmark_phase"`, `"request_start_ns"`, `"record_processor_id"`, `"session_num"`} {
		if bytes.Contains(line, []byte(k)) {
			return true
		}
	}
	return false
}

// isAIPerfGPUTelemetry tells AIPerf's gpu_telemetry_export.jsonl from its
// first line: a GPU's identity, a scrape time and its readings.
func isAIPerfGPUTelemetry(line []byte) bool {
	return bytes.Contains(line, []byte(`"telemetry_data"`)) && bytes.Contains(line, []byte(`"timestamp_ns"`))
}

// isInferenceXHead tells InferenceX's public frontier rows (agg_bmk.json,
// the API's array, the dashboard's CSV) from their first bytes: an array
// whose first object has hw and intvty, or a CSV header naming both.
func isInferenceXHead(t, line []byte) bool {
	if t[0] == '[' {
		end := bytes.IndexByte(t, '}')
		if end < 0 {
			end = len(t)
		}
		first := t[:end]
		return bytes.Contains(first, []byte(`"hw"`)) && bytes.Contains(first, []byte(`"intvty"`))
	}
	cols := map[string]bool{}
	for _, c := range bytes.Split(line, []byte(",")) {
		cols[string(bytes.ToLower(bytes.Trim(bytes.TrimSpace(c), `"`)))] = true
	}
	return cols["hw"] && cols["intvty"]
}

// ErrInferenceXResult refuses InferenceX rows given as a result.
var ErrInferenceXResult = fmt.Errorf("this is an InferenceX file of public frontier rows (hw, intvty, output_tput_per_gpu), not a result of your box: import it under Reference rows on the report, where it is drawn beside your results and never counted as evidence")

var (
	errAIPerfGPUTelemetry = fmt.Errorf("this is AIPerf's GPU telemetry export (gpu_telemetry_export.jsonl, the GPU samples of the run), not a result; import profile_export_aiperf.json here, and this file as the report's GPU log on the evidence page, where it gives each row its power and memory")
	errAIPerfPerRequest   = fmt.Errorf("this is AIPerf's per-request export (profile_export.jsonl, one line per request), not a summary; import profile_export_aiperf.json from the same folder instead")
	errAIPerfTimeslices   = fmt.Errorf("this is AIPerf's time-slice export (profile_export_aiperf_timeslices, the run cut into windows), not a load level; import profile_export_aiperf.json from the same folder instead")
)

// isPrometheusText tells the Prometheus text exposition format: its first
// line is a # HELP or # TYPE comment, or a sample "name{labels} value".
func isPrometheusText(t []byte) bool {
	line := t
	if i := bytes.IndexAny(line, "\r\n"); i >= 0 {
		line = line[:i]
	}
	if bytes.HasPrefix(line, []byte("# HELP ")) || bytes.HasPrefix(line, []byte("# TYPE ")) {
		return true
	}
	// name{label="v",...} value
	i := bytes.IndexByte(line, '{')
	j := bytes.LastIndexByte(line, '}')
	if i <= 0 || j < i || !bytes.Contains(line[i:j], []byte(`="`)) {
		return false
	}
	for _, c := range line[:i] {
		if !(c == '_' || c == ':' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	rest := bytes.TrimSpace(line[j+1:])
	return len(rest) > 0 && (rest[0] >= '0' && rest[0] <= '9' || rest[0] == '-' || rest[0] == '+' || rest[0] == 'N' || rest[0] == 'I')
}

// lookAlikeRecord recognises a look-alike from one record; where starts
// the message.
func lookAlikeRecord(o jsonObj, where string) error {
	has := func(k string) bool { _, ok := o[k]; return ok }
	switch {
	case isLLMDMetricsSummary(o):
		return fmt.Errorf("%s%s", where, errLLMDMetricsSummary)
	case has("metadata") && has("metrics") && !has("benchmarks") && isAIPerfRequestRecord(o):
		return fmt.Errorf("%s%s", where, errAIPerfPerRequest)
	case has("timeslices"):
		return fmt.Errorf("%s%s", where, errAIPerfTimeslices)
	case has("data") && has("input_config") || has("data") && !has("request_count") && !has("results"):
		return fmt.Errorf("%sthis is AIPerf's inputs.json (the request payloads it sent), not a result; import profile_export_aiperf.json from the same folder instead", where)
	}
	return nil
}

// errLLMDMetricsSummary refuses llm-d-benchmark's metrics summary.
var errLLMDMetricsSummary = fmt.Errorf("this is llm-d-benchmark's metrics summary (metrics_summary.json: the engine's Prometheus metrics per pod, scraped during the run), not a result; import the stage's llm-d benchmark report instead (benchmark_report*.yaml or .json), whose results.observability carries these metrics beside the load level")

// isLLMDMetricsSummary tells llm-d-benchmark's metrics_summary.json (an
// object of pods, each with metadata {namespace, files} and metrics of
// Prometheus names, beside "_aggregated"; "_info" when nothing was
// collected), or one pod's record of it.
func isLLMDMetricsSummary(o jsonObj) bool {
	if _, ok := o["_aggregated"]; ok {
		return true
	}
	if raw, ok := o["_info"]; ok && bytes.Contains(raw, []byte("metrics")) {
		return true
	}
	var rec struct {
		Metadata map[string]json.RawMessage `json:"metadata"`
		Metrics  map[string]json.RawMessage `json:"metrics"`
	}
	if json.Unmarshal(o["metadata"], &rec.Metadata) != nil || json.Unmarshal(o["metrics"], &rec.Metrics) != nil {
		return false
	}
	_, ns := rec.Metadata["namespace"]
	_, files := rec.Metadata["files"]
	if ns && files {
		return true
	}
	for k := range rec.Metrics {
		if strings.HasPrefix(k, "vllm:") || strings.HasPrefix(k, "sglang:") {
			return true
		}
	}
	return false
}

// isAIPerfRequestRecord tells one record of AIPerf's per-request export:
// its error (null when it succeeded) beside them, its metadata naming the
// request (x_request_id, benchmark_phase, ...), or its metrics as {value,
// unit} pairs.
func isAIPerfRequestRecord(o jsonObj) bool {
	if _, ok := o["error"]; ok { // every record has one, null when it succeeded
		return true
	}
	meta := o["metadata"]
	for _, k := range []string{`"x_request_id"`, `"benchmark_phase"`, `"request_start_ns"`, `"record_processor_id"`, `"session_num"`, `"conversation_id"`} {
		if bytes.Contains(meta, []byte(k)) {
			return true
		}
	}
	var ms map[string]struct {
		Value json.RawMessage `json:"value"`
		Unit  *string         `json:"unit"`
	}
	if json.Unmarshal(o["metrics"], &ms) != nil || len(ms) == 0 {
		return false
	}
	for _, m := range ms {
		if m.Value == nil || m.Unit == nil {
			return false
		}
	}
	return true
}
