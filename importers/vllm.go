package importers

import (
	"fmt"
	"math"
	"time"

	"capplan/planner"
)

// vLLM's per-request TPOT and pooled ITL, as its benchmark defines them.
const (
	defVLLMTPOT = "per request (latency - TTFT)/(output tokens - 1), request-weighted"
	defVLLMITL  = "every gap between streamed chunks, pooled over all requests (a chunk may hold several tokens)"
)

// parseVLLM reads one `vllm bench serve` / benchmark_serving.py result object.
func parseVLLM(f *File, d doc) error {
	o, p := d.obj, d.prefix
	bd := newBuilder()
	bd.linear = true // vLLM reports its percentiles with numpy's interpolation
	r := bd.row
	f.Source.Format = "vllm"
	f.Source.FormatVersion = vllmGeneration(o)
	var model, version lstr
	o.get(p, "model_id", &model)
	for _, k := range []string{"vllm_version", "version"} {
		if ok, _ := o.get(p, k, &version); ok && version != "" {
			f.Source.ToolVersion = string(version)
			break
		}
	}
	r.Model = string(model)
	if f.Model == "" {
		f.Model = r.Model
	}
	// load: a concurrency cap wins over the request rate
	var conc num
	if v, err := o.n(p, "max_concurrency"); err != nil {
		return err
	} else {
		conc = v
	}
	rate, err := o.n(p, "request_rate")
	if err != nil {
		return err
	}
	switch {
	case conc.set:
		r.LoadKind = planner.LoadConcurrency
		bd.fig(&r.Load, "load", p+"max_concurrency", conc, 1)
	case rate.set && math.IsInf(rate.v, 1):
		r.LoadKind = planner.LoadThroughput
		r.Paths["load"] = p + "request_rate"
	case rate.set:
		r.LoadKind = planner.LoadRate
		bd.fig(&r.Load, "load", p+"request_rate", rate, 1)
	default:
		return fmt.Errorf("%sneither max_concurrency nor request_rate: cannot tell the load level", p)
	}
	bd.ocount(o, p, "completed", &r.Successful, "successful")
	if r.Successful == nil && bd.err == nil {
		return fmt.Errorf("%scompleted: missing: a vllm bench serve result always counts its completed requests", p)
	}
	bd.ofig(o, p, "duration", &r.DurationS, "duration_s", 1)
	if !bd.ocount(o, p, "failed", &r.Errored, "errored") {
		if d.req != nil && d.req.has["errors"] {
			bd.countInt(&r.Errored, "errored", "computed: non-empty "+p+"errors", d.req.failedCount())
		} else if np, _ := o.n(p, "num_prompts"); np.set && r.Successful != nil && int(np.v) >= *r.Successful {
			bd.countInt(&r.Errored, "errored", "computed: "+p+"num_prompts - completed", int(np.v)-*r.Successful)
		} else {
			bd.warn("errors-unknown", "the file does not record failed requests")
		}
	}
	if r.Successful != nil && r.Errored != nil {
		bd.countInt(&r.Attempted, "attempted", "computed: completed + failed", *r.Successful+*r.Errored)
		if r.DurationS != nil && *r.DurationS > 0 {
			bd.setF(&r.SendRate, "send_rate", "computed: (completed + failed) / "+p+"duration", float64(*r.Attempted) / *r.DurationS)
		}
	}
	if !bd.ofig(o, p, "request_throughput", &r.RequestRate, "request_rate", 1) {
		bd.ofig(o, p, "request_inthroughput", &r.RequestRate, "request_rate", 1)
	}
	bd.ofig(o, p, "output_throughput", &r.OutputTokenRate, "output_token_rate", 1)
	tokens := honestCounts(bd, o, d, "completed")
	if ok := intv(r.Successful); ok > 0 {
		tokenMean(bd, o, p, "total_input_tokens", &r.PromptTokensMean, "prompt_tokens_mean", ok)
		tokenMean(bd, o, p, "total_output_tokens", &r.OutputTokensMean, "output_tokens_mean", ok)
		if !tokens.recount {
			msStat(bd, o, p, "ttft", &r.TTFT, "ttft_s")
			if !msStat(bd, o, p, "e2el", &r.E2E, "e2e_s") {
				msStat(bd, o, p, "latency", &r.E2E, "e2e_s")
			}
			msStat(bd, o, p, "itl", &r.ITL, "itl_s")
			msStat(bd, o, p, "tpot", &r.TPOT, "tpot_s")
		}
		r.TPOT.Definition, r.ITL.Definition = defVLLMTPOT, defVLLMITL
		perRequestStats(bd, d, tokens)
	}
	perRequestSamples(bd, d, tokens)
	row, err := bd.finish()
	if err != nil {
		return err
	}
	f.Rows = append(f.Rows, row)
	return nil
}

// vllmGeneration names the key generation of a vLLM result and, from the
// file's own date field, when it was written: the keys say which writer,
// the date says when (a fork keeps old keys long after).
func vllmGeneration(o jsonObj) string {
	has := func(k string) bool { _, ok := o[k]; return ok }
	gen := "unknown keys"
	switch {
	case has("request_inthroughput"):
		gen = "request_inthroughput keys"
	case has("failed"):
		gen = "failed and e2el keys"
	case has("endpoint_type"):
		gen = "endpoint_type keys, no failed"
	case has("burstiness") || has("max_concurrency"):
		gen = "burstiness keys, no endpoint_type"
	case has("best_of") || has("use_beam_search"):
		gen = "best_of keys"
	}
	var date lstr
	o.get("", "date", &date)
	if t, err := time.Parse("20060102-150405", string(date)); err == nil {
		return gen + ", dated " + t.Format("2006-01-02")
	}
	return gen + ", undated"
}

// tokenMean sets a mean token count from a total over the successful requests.
func tokenMean(bd *builder, o jsonObj, p, key string, dst **float64, name string, ok int) {
	t, err := o.n(p, key)
	if err != nil {
		bd.err = err
		return
	}
	if t.set && bd.check(name, p+key, t.v) {
		bd.setF(dst, name, "computed: "+p+key+" / completed", t.v/float64(ok))
	}
}

// msStat reads mean/median/pNN_<m>_ms keys; it reports whether any existed.
func msStat(bd *builder, o jsonObj, p, m string, s *planner.Stat, key string) bool {
	any := false
	for _, part := range []struct {
		dst  **float64
		keys []string
		name string
	}{
		{&s.Mean, []string{"mean_" + m + "_ms"}, "mean"},
		{&s.P50, []string{"p50_" + m + "_ms", "median_" + m + "_ms"}, "p50"},
		{&s.P95, []string{"p95_" + m + "_ms"}, "p95"},
		{&s.P99, []string{"p99_" + m + "_ms"}, "p99"},
	} {
		for _, k := range part.keys {
			if bd.ofig(o, p, k, part.dst, key+"."+part.name, 1e-3) {
				any = true
				break
			}
		}
	}
	return any
}
