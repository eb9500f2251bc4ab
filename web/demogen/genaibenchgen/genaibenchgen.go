// Package genaibenchgen writes genai-bench experiment folders in the shape
// genai-bench writes them (experiment_metadata.json and one run file per
// concurrency), for tests and benchmarks.
package genaibenchgen

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"fmt"
	"sort"
	"strings"
)

// Run writes a genai-bench run file in the shape the tool writes:
// aggregated_metrics and one individual_request_metrics entry per request,
// latencies in unit ("s" or "ms"); failed requests carry an error code.
func Run(conc, ok, failed int, unit string) string {
	scale := 1.0
	if unit == "ms" {
		scale = 1000
	}
	var reqs []string
	for i := 0; i < ok; i++ {
		ttft := (0.1 + 0.01*float64(i%10)) * scale
		e2e := (1.0 + 0.1*float64(i%10)) * scale
		reqs = append(reqs, fmt.Sprintf(`{"ttft": %g, "tpot": %g, "e2e_latency": %g, "output_latency": %g, "output_inference_speed": 50, "num_input_tokens": 100, "num_output_tokens": 50, "total_tokens": 150, "input_throughput": 1000, "output_throughput": 50, "error_code": null, "error_message": null}`, ttft, 0.018*scale, e2e, e2e-ttft))
	}
	for i := 0; i < failed; i++ {
		reqs = append(reqs, `{"ttft": null, "tpot": null, "e2e_latency": null, "output_latency": null, "output_inference_speed": null, "num_input_tokens": null, "num_output_tokens": null, "total_tokens": null, "input_throughput": null, "output_throughput": null, "error_code": 503, "error_message": "Service Unavailable"}`)
	}
	stat := func(mean, p50, p95, p99 float64) string {
		return fmt.Sprintf(`{"min": %g, "max": %g, "mean": %g, "stddev": 0.1, "sum": 1, "p25": %g, "p50": %g, "p75": %g, "p90": %g, "p95": %g, "p99": %g}`, mean*0.5*scale, p99*1.1*scale, mean*scale, p50*scale, p50*scale, p95*scale, p95*scale, p95*scale, p99*scale)
	}
	errs := "{}"
	if failed > 0 {
		errs = fmt.Sprintf(`{"503": %d}`, failed)
	}
	return fmt.Sprintf(`{"aggregated_metrics": {"scenario": "D(100,50)", "num_concurrency": %d, "batch_size": 1, "iteration_type": "num_concurrency",
		"run_duration": 60.0, "mean_output_throughput_tokens_per_s": 99, "mean_input_throughput_tokens_per_s": 1, "mean_total_tokens_throughput_tokens_per_s": 1, "mean_total_chars_per_hour": 1,
		"requests_per_second": %g, "error_codes_frequency": %s, "error_rate": %g, "num_error_requests": %d, "num_completed_requests": %d, "num_requests": %d,
		"total_arrivals": null, "arrival_requests_per_second": null,
		"stats": {"ttft": %s, "tpot": %s, "e2e_latency": %s, "num_input_tokens": {"mean": 100, "p50": 100}, "num_output_tokens": {"mean": 50, "p50": 50}}},
		"individual_request_metrics": [%s]}`,
		conc, float64(ok)/60, errs, float64(failed)/float64(ok+failed), failed, ok, ok+failed,
		stat(0.145, 0.14, 0.19, 0.19), stat(0.018, 0.018, 0.018, 0.018), stat(1.45, 1.4, 1.9, 1.9), strings.Join(reqs, ", "))
}

// Meta writes an experiment_metadata.json whose command line
// carries key.
func Meta(unit, key string) string {
	return fmt.Sprintf(`{"cmd": "genai-bench benchmark --api-backend openai --api-base http://gpu-box:8000 --api-key %s --api-model-name Qwen/Qwen3-8B --task text-to-text",
		"benchmark_version": "0.0.2", "api_backend": "openai", "auth_config": {"api_key": "%s"}, "api_model_name": "Qwen/Qwen3-8B",
		"server_model_tokenizer": "Qwen/Qwen3-8B", "model": "Qwen3-8B", "task": "text-to-text", "num_concurrency": [1, 4], "batch_size": null,
		"iteration_type": "num_concurrency", "traffic_scenario": ["D(100,50)"], "additional_request_params": {}, "server_engine": "SGLang",
		"server_version": "v0.5.2", "server_gpu_type": "H100", "server_gpu_count": 1, "max_time_per_run_s": 60, "max_requests_per_run": 100,
		"experiment_folder_name": "openai_SGLang_text-to-text", "dataset_path": null, "character_token_ratio": 4.1, "metrics_time_unit": "%s"}`, key, key, unit)
}

// RunName is the file name genai-bench gives the run at concurrency conc.
func RunName(conc int) string {
	return fmt.Sprintf("D(100,50)_text-to-text_concurrency_%d_time_60s.json", conc)
}

// Folder is an experiment folder: its metadata (whose command line holds
// key) and one run per concurrency, ok requests succeeded each and the
// given failures, latencies in unit.
func Folder(unit, key string, ok, failed int, concs ...int) map[string][]byte {
	files := map[string][]byte{"experiment_metadata.json": []byte(Meta(unit, key))}
	for _, c := range concs {
		files[RunName(c)] = []byte(Run(c, ok, failed, unit))
	}
	return files
}

// Names returns the folder's file names, sorted.
func Names(files map[string][]byte) []string {
	out := make([]string, 0, len(files))
	for n := range files {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Zip packs the folder under dir/ as a zip archive.
func Zip(dir string, files map[string][]byte) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, n := range Names(files) {
		w, _ := zw.Create(dir + "/" + n)
		w.Write(files[n])
	}
	zw.Close()
	return b.Bytes()
}

// Tar packs the folder under dir/ as a tar archive.
func Tar(dir string, files map[string][]byte) []byte {
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	tw.WriteHeader(&tar.Header{Name: dir + "/", Typeflag: tar.TypeDir, Mode: 0o755})
	for _, n := range Names(files) {
		tw.WriteHeader(&tar.Header{Name: dir + "/" + n, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(files[n]))})
		tw.Write(files[n])
	}
	tw.Close()
	return b.Bytes()
}
