package importers

import (
	"fmt"

	"capplan/planner"
)

// parseLLMPerf reads a Ray LLMPerf *_summary.json (values in seconds).
func parseLLMPerf(f *File, d doc) error {
	o, p := d.obj, d.prefix
	bd := newBuilder()
	r := bd.row
	var model, version lstr
	o.get(p, "model", &model)
	o.get(p, "version", &version)
	f.Source.Format = "llmperf"
	f.Source.FormatVersion = "results schema " + string(version)
	if version == "" {
		f.Source.FormatVersion = "unknown"
	}
	r.Model = string(model)
	if f.Model == "" {
		f.Model = r.Model
	}
	r.LoadKind = planner.LoadConcurrency
	if !bd.ofig(o, p, "num_concurrent_requests", &r.Load, "load", 1) && bd.err == nil {
		return fmt.Errorf("%snum_concurrent_requests: missing", p)
	}
	bd.ocount(o, p, "results_num_completed_requests", &r.Successful, "successful")
	if r.Successful == nil && bd.err == nil {
		return fmt.Errorf("%sresults_num_completed_requests: missing", p)
	}
	bd.ocount(o, p, "results_number_errors", &r.Errored, "errored")
	bd.ocount(o, p, "results_num_requests_started", &r.Attempted, "attempted")
	perMin, err := o.n(p, "results_num_completed_requests_per_min")
	if err != nil {
		return err
	}
	if perMin.set && bd.check("request_rate", p+"results_num_completed_requests_per_min", perMin.v) && perMin.v > 0 {
		bd.setF(&r.RequestRate, "request_rate", "computed: "+p+"results_num_completed_requests_per_min / 60", perMin.v/60)
		if r.Successful != nil {
			bd.setF(&r.DurationS, "duration_s", "computed: results_num_completed_requests / results_num_completed_requests_per_min x 60", float64(*r.Successful)/perMin.v*60)
		}
	}
	bd.ofig(o, p, "results_mean_output_throughput_token_per_s", &r.OutputTokenRate, "output_token_rate", 1)
	if intv(r.Successful) > 0 {
		if !bd.ofig(o, p, "results_number_input_tokens_mean", &r.PromptTokensMean, "prompt_tokens_mean", 1) {
			bd.ofig(o, p, "mean_input_tokens", &r.PromptTokensMean, "prompt_tokens_mean", 1)
		}
		if !bd.ofig(o, p, "results_number_output_tokens_mean", &r.OutputTokensMean, "output_tokens_mean", 1) {
			bd.ofig(o, p, "mean_output_tokens", &r.OutputTokensMean, "output_tokens_mean", 1)
		}
		llmperfStat(bd, o, p, "ttft_s", &r.TTFT, "ttft_s")
		llmperfStat(bd, o, p, "end_to_end_latency_s", &r.E2E, "e2e_s")
		llmperfStat(bd, o, p, "inter_token_latency_s", &r.TPOT, "tpot_s")
		r.TPOT.Definition = "LLMPerf inter_token_latency_s: per request (latency including TTFT)/output tokens, request-weighted"
		r.TTFT.N, r.E2E.N, r.TPOT.N = *r.Successful, *r.Successful, *r.Successful
	}
	row, err := bd.finish()
	if err != nil {
		return err
	}
	f.Rows = append(f.Rows, row)
	return nil
}

// llmperfStat reads results_<m>_{mean,quantiles_p50,p95,p99} (seconds).
func llmperfStat(bd *builder, o jsonObj, p, m string, s *planner.Stat, key string) {
	pre := "results_" + m + "_"
	bd.ofig(o, p, pre+"mean", &s.Mean, key+".mean", 1)
	bd.ofig(o, p, pre+"quantiles_p50", &s.P50, key+".p50", 1)
	bd.ofig(o, p, pre+"quantiles_p95", &s.P95, key+".p95", 1)
	bd.ofig(o, p, pre+"quantiles_p99", &s.P99, key+".p99", 1)
}
