package importers

import (
	"fmt"
	"math"

	"capplan/planner"
)

// parseSGLang reads one line of SGLang bench_serving JSONL.
func parseSGLang(f *File, d doc) error {
	o, p := d.obj, d.prefix
	bd := newBuilder()
	r := bd.row
	f.Source.Format = "sglang"
	var info struct {
		ModelPath       lstr `json:"model_path"`
		ServedModelName lstr `json:"served_model_name"`
		Version         lstr `json:"version"`
		Decode          []struct {
			ModelPath lstr `json:"model_path"`
		} `json:"decode"`
	}
	hasInfo, err := o.getFields(p, "server_info", &info, "model_path", "served_model_name", "version", "decode")
	if err != nil {
		return err
	}
	_, hasMean := o["mean_ttft_ms"]
	switch {
	case hasInfo:
		f.Source.FormatVersion = "2025+ (server_info)"
	case hasMean:
		f.Source.FormatVersion = "2025 (no server_info)"
	default:
		f.Source.FormatVersion = "late 2024 (minimal keys)"
	}
	switch {
	case info.ModelPath != "":
		r.Model = string(info.ModelPath)
		r.Paths["model"] = p + "server_info.model_path"
	case info.ServedModelName != "":
		r.Model = string(info.ServedModelName)
	case len(info.Decode) > 0:
		r.Model = string(info.Decode[0].ModelPath)
	}
	if f.Model == "" {
		f.Model = r.Model
	}
	if info.Version != "" && f.Source.ToolVersion == "" {
		f.Source.ToolVersion = string(info.Version) // the server's version; the client ships with it
	}
	conc, err := o.n(p, "max_concurrency")
	if err != nil {
		return err
	}
	var rateStr lstr
	o.get(p, "request_rate", &rateStr)
	rate, rerr := o.n(p, "request_rate")
	switch {
	case conc.set:
		r.LoadKind = planner.LoadConcurrency
		bd.fig(&r.Load, "load", p+"max_concurrency", conc, 1)
	case rateStr == "trace":
		r.LoadKind = planner.LoadRate
		bd.warn("load-unknown", "trace replay: the requests follow a recorded schedule, there is no single load level")
	case rerr != nil:
		return rerr
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
		return fmt.Errorf("%scompleted: missing", p)
	}
	bd.ofig(o, p, "duration", &r.DurationS, "duration_s", 1)
	if d.req != nil && d.req.has["errors"] {
		n := d.req.failedCount()
		bd.countInt(&r.Errored, "errored", "computed: non-empty "+p+"errors", n)
		bd.countInt(&r.Attempted, "attempted", "computed: completed + errors", intv(r.Successful)+n)
	} else {
		bd.warn("errors-unknown", "SGLang does not record failed requests unless run with --output-details")
	}
	if !bd.ofig(o, p, "request_throughput", &r.RequestRate, "request_rate", 1) && r.Successful != nil && r.DurationS != nil && *r.DurationS > 0 {
		bd.setF(&r.RequestRate, "request_rate", "computed: "+p+"completed / duration", float64(*r.Successful) / *r.DurationS)
	}
	bd.ofig(o, p, "concurrency", &r.AchievedConcurrency, "achieved_concurrency", 1)
	bd.ofig(o, p, "output_throughput", &r.OutputTokenRate, "output_token_rate", 1)
	tokens := honestCounts(bd, o, d, "completed")
	if ok := intv(r.Successful); ok > 0 {
		tokenMean(bd, o, p, "total_input_tokens", &r.PromptTokensMean, "prompt_tokens_mean", ok)
		tokenMean(bd, o, p, "total_output_tokens", &r.OutputTokensMean, "output_tokens_mean", ok)
		if !tokens.recount {
			msStat(bd, o, p, "ttft", &r.TTFT, "ttft_s")
			msStat(bd, o, p, "e2e_latency", &r.E2E, "e2e_s")
			msStat(bd, o, p, "itl", &r.ITL, "itl_s")
			msStat(bd, o, p, "tpot", &r.TPOT, "tpot_s")
		}
		r.TPOT.Definition, r.ITL.Definition = defVLLMTPOT, defVLLMITL
		perRequestStats(bd, d, tokens)
		if r.E2E.N == 0 && (r.E2E.Mean != nil || r.E2E.P50 != nil) {
			r.E2E.N = ok
		}
	}
	perRequestSamples(bd, d, tokens)
	row, err := bd.finish()
	if err != nil {
		return err
	}
	f.Rows = append(f.Rows, row)
	return nil
}
