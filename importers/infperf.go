package importers

import (
	"fmt"

	"capplan/planner"
)

// ipDist is an inference-perf summary of one quantity (seconds for latency).
type ipDist struct {
	Mean   num `json:"mean"`
	Median num `json:"median"`
	P95    num `json:"p95"`
	P99    num `json:"p99"`
}

// parseInferencePerf reads an inference-perf *_lifecycle_metrics.json.
func parseInferencePerf(f *File, d doc) error {
	o, p := d.obj, d.prefix
	bd := newBuilder()
	r := bd.row
	f.Source.Format = "inference-perf"
	var ls struct {
		Count         num `json:"count"`
		RequestedRate num `json:"requested_rate"`
		AchievedRate  num `json:"achieved_rate"`
		Concurrency   num `json:"concurrency"`
	}
	var succ struct {
		Count   num `json:"count"`
		Latency *struct {
			RequestLatency     *ipDist `json:"request_latency"`
			TimePerOutputToken *ipDist `json:"time_per_output_token"`
			TimeToFirstToken   *ipDist `json:"time_to_first_token"`
			InterTokenLatency  *ipDist `json:"inter_token_latency"`
		} `json:"latency"`
		Throughput *struct {
			OutputTokensPerSec num `json:"output_tokens_per_sec"`
			RequestsPerSec     num `json:"requests_per_sec"`
		} `json:"throughput"`
		PromptLen *ipDist `json:"prompt_len"`
		OutputLen *ipDist `json:"output_len"`
	}
	var fail struct {
		Count num `json:"count"`
	}
	for _, g := range []struct {
		k string
		v any
	}{{"load_summary", &ls}, {"successes", &succ}, {"failures", &fail}} {
		if _, err := o.get(p, g.k, g.v); err != nil {
			return err
		}
	}
	lp := p + "load_summary."
	switch {
	case ls.Concurrency.set:
		f.Source.FormatVersion = "stage lifecycle report"
		r.LoadKind = planner.LoadConcurrency
		bd.fig(&r.Load, "load", lp+"concurrency", ls.Concurrency, 1)
	case ls.RequestedRate.set:
		f.Source.FormatVersion = "stage lifecycle report"
		r.LoadKind = planner.LoadRate
		bd.fig(&r.Load, "load", lp+"requested_rate", ls.RequestedRate, 1)
	default:
		f.Source.FormatVersion = "summary lifecycle report"
		r.LoadKind = planner.LoadRate
		bd.warn("load-unknown", "whole-run summary over every stage: there is no single load level; import the stage_<N>_lifecycle_metrics.json files for the matrix")
	}
	bd.fig(&r.SendRate, "send_rate", lp+"achieved_rate (the rate requests were sent)", ls.AchievedRate, 1)
	bd.count(&r.Successful, "successful", p+"successes.count", succ.Count)
	bd.count(&r.Errored, "errored", p+"failures.count", fail.Count)
	if r.Successful == nil && bd.err == nil {
		return fmt.Errorf("%ssuccesses.count: missing", p)
	}
	if !ls.Count.set || !bd.check("attempted", lp+"count", ls.Count.v) {
		if r.Errored != nil {
			bd.countInt(&r.Attempted, "attempted", "computed: successes.count + failures.count", *r.Successful+*r.Errored)
		}
	} else {
		bd.count(&r.Attempted, "attempted", lp+"count", ls.Count)
	}
	sp := p + "successes."
	if t := succ.Throughput; t != nil {
		bd.fig(&r.RequestRate, "request_rate", sp+"throughput.requests_per_sec", t.RequestsPerSec, 1)
		bd.fig(&r.OutputTokenRate, "output_token_rate", sp+"throughput.output_tokens_per_sec", t.OutputTokensPerSec, 1)
		if r.RequestRate != nil && *r.RequestRate > 0 && r.Successful != nil {
			bd.setF(&r.DurationS, "duration_s", "computed: successes.count / successes.throughput.requests_per_sec", float64(*r.Successful) / *r.RequestRate)
		}
	}
	if ok := intv(r.Successful); ok > 0 {
		if succ.PromptLen != nil {
			bd.fig(&r.PromptTokensMean, "prompt_tokens_mean", sp+"prompt_len.mean", succ.PromptLen.Mean, 1)
		}
		if succ.OutputLen != nil {
			bd.fig(&r.OutputTokensMean, "output_tokens_mean", sp+"output_len.mean", succ.OutputLen.Mean, 1)
		}
		if l := succ.Latency; l != nil {
			ipStat(bd, &r.TTFT, "ttft_s", l.TimeToFirstToken, sp+"latency.time_to_first_token", ok)
			ipStat(bd, &r.E2E, "e2e_s", l.RequestLatency, sp+"latency.request_latency", ok)
			ipStat(bd, &r.TPOT, "tpot_s", l.TimePerOutputToken, sp+"latency.time_per_output_token", ok)
			ipStat(bd, &r.ITL, "itl_s", l.InterTokenLatency, sp+"latency.inter_token_latency", 0)
			r.TPOT.Definition = "inference-perf time_per_output_token: mean gap between output tokens after the first (excludes TTFT)"
			r.ITL.Definition = "inference-perf inter_token_latency: every token gap, tokens inside one streamed chunk count as 0"
		}
	}
	row, err := bd.finish()
	if err != nil {
		return err
	}
	f.Rows = append(f.Rows, row)
	if f.Model == "" && len(f.Warnings) == 0 {
		f.Warnings = append(f.Warnings, planner.Warning{Code: "model-unknown", Message: "inference-perf reports do not name the model (it is in the run's config.yaml, server.model_name); enter it by hand"})
	}
	return nil
}

// ipStat fills a stat from an inference-perf distribution in seconds.
func ipStat(bd *builder, s *planner.Stat, key string, d *ipDist, p string, n int) {
	if d == nil {
		return
	}
	bd.stat(s, key, statSrc{mean: d.Mean, meanP: p + ".mean", p50: d.Median, p50P: p + ".median", p95: d.P95, p95P: p + ".p95", p99: d.P99, p99P: p + ".p99"}, 1)
	s.N = n
}
