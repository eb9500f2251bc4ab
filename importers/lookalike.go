package importers

import (
	"bytes"
	"fmt"
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
	case isInferenceXHead(t, line):
		return ErrInferenceXResult
	case isPrometheusText(t):
		return fmt.Errorf("this is a Prometheus metrics dump (the text a /metrics endpoint serves), not a load-test result; import the benchmark tool's result file here, and the GPU or server metrics on the report's evidence page (DCGM exporter scrapes are read there)")
	}
	return nil
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

// lookAlikeRecord recognises a look-alike from the keys of one record;
// where starts the message.
func lookAlikeRecord(has func(string) bool, where string) error {
	switch {
	case has("metadata") && has("metrics") && !has("benchmarks"):
		return fmt.Errorf("%s%s", where, errAIPerfPerRequest)
	case has("timeslices"):
		return fmt.Errorf("%s%s", where, errAIPerfTimeslices)
	case has("data") && has("input_config") || has("data") && !has("request_count") && !has("results"):
		return fmt.Errorf("%sthis is AIPerf's inputs.json (the request payloads it sent), not a result; import profile_export_aiperf.json from the same folder instead", where)
	}
	return nil
}
