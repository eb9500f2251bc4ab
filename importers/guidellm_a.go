package importers

import (
	"crypto/sha256"
	"fmt"
	"math"
	"strings"

	"capplan/planner"
)

// aBench is one inner benchmark of a GuideLLM 0.1 report: raw records only,
// every figure is computed here. Latency samples are kept (a few float64 per
// request) because percentiles need them.
type aBench struct {
	path        string
	mode        lstr
	rate        num
	ttft, e2e   []float64
	itl, tpot   []float64
	promptTok   float64
	outputTok   float64
	ok, errored int
	first, last float64
	conc        float64
	concN       int
	prompts     int
	firstPrompt [32]byte
	differ      bool
	samples     []planner.Sample
}

// aResult is one record of results[] (or errors[]) in family A.
type aResult struct {
	Prompt           rawOrNull `json:"prompt"`
	PromptTokenCount num       `json:"prompt_token_count"`
	OutputTokenCount num       `json:"output_token_count"`
	StartTime        num       `json:"start_time"`
	EndTime          num       `json:"end_time"`
	FirstTokenTime   num       `json:"first_token_time"`
	DecodeTimes      struct {
		Data []float64 `json:"data"`
	} `json:"decode_times"`
}

// readABench streams one inner benchmark of family A.
func readABench(w *lexer, p string) (*aBench, error) {
	a := &aBench{path: p, first: math.Inf(1), last: math.Inf(-1)}
	var rec aResult
	err := w.object(p, func(k string) error {
		kp := p + "." + k
		switch k {
		case "mode":
			return w.decode(kp, &a.mode)
		case "rate":
			return w.decode(kp, &a.rate)
		case "results", "errors":
			return w.array(kp, func(i int) error {
				rec = aResult{Prompt: rec.Prompt[:0], DecodeTimes: struct {
					Data []float64 `json:"data"`
				}{rec.DecodeTimes.Data[:0]}}
				ip := fmt.Sprintf("%s[%d]", kp, i)
				if err := w.decode(ip, &rec); err != nil {
					return err
				}
				return a.add(ip, &rec, k == "results")
			})
		case "concurrencies":
			var c struct {
				Processing num `json:"processing"`
			}
			return w.array(kp, func(i int) error {
				c.Processing = num{}
				if err := w.decode(fmt.Sprintf("%s[%d]", kp, i), &c); err != nil {
					return err
				}
				if c.Processing.set && !math.IsNaN(c.Processing.v) {
					a.conc += c.Processing.v
					a.concN++
				}
				return nil
			})
		}
		return w.skip(kp)
	})
	return a, err
}

// add accounts one record.
func (a *aBench) add(p string, r *aResult, ok bool) error {
	if r.StartTime.set && r.StartTime.v < a.first {
		a.first = r.StartTime.v
	}
	if r.EndTime.set && r.EndTime.v > a.last {
		a.last = r.EndTime.v
	}
	if len(r.Prompt) > 0 {
		h := sha256.Sum256(r.Prompt)
		if a.prompts == 0 {
			a.firstPrompt = h
		} else if h != a.firstPrompt {
			a.differ = true
		}
		a.prompts++
	}
	if !ok {
		a.errored++
		if len(a.samples) < maxPerRequest {
			a.samples = append(a.samples, planner.Sample{TTFT: planner.NoFigure, E2E: planner.NoFigure, ITL: planner.NoFigure, OutputTokens: -1})
		}
		return nil
	}
	a.ok++
	if !r.StartTime.set || !r.EndTime.set {
		return fmt.Errorf("%s: a result without start_time or end_time", p)
	}
	e2e := r.EndTime.v - r.StartTime.v
	if len(a.samples) < maxPerRequest {
		a.samples = append(a.samples, planner.Sample{TTFT: sampleFig(r.FirstTokenTime, 1), E2E: sampleFig(num{v: e2e, set: true}, 1),
			ITL: planner.NoFigure, OutputTokens: sampleTokens(r.OutputTokenCount), OK: true})
	}
	a.e2e = append(a.e2e, e2e)
	if r.FirstTokenTime.set {
		a.ttft = append(a.ttft, r.FirstTokenTime.v) // a duration in 0.1, not a timestamp
		if out := r.OutputTokenCount.v; r.OutputTokenCount.set && out > 1 {
			a.tpot = append(a.tpot, (e2e-r.FirstTokenTime.v)/(out-1))
		}
	}
	if d := r.DecodeTimes.Data; len(d) > 0 {
		s := 0.0
		for _, v := range d {
			s += v
		}
		a.itl = append(a.itl, s/float64(len(d)))
	}
	a.promptTok += r.PromptTokenCount.v
	a.outputTok += r.OutputTokenCount.v
	return nil
}

// buildA makes one row per inner benchmark of a family A report.
func (rep *gReport) buildA(f *File) (*File, error) {
	for _, outer := range rep.benches {
		for _, a := range outer.inner {
			row, err := a.row()
			if err != nil {
				return nil, err
			}
			f.Rows = append(f.Rows, row)
		}
		if outer.args != nil && f.Model == "" {
			f.Model = string(outer.args.Model)
		}
	}
	if len(f.Rows) == 0 {
		return nil, fmt.Errorf("benchmarks[0].benchmarks: the report holds no benchmarks (zero load levels)")
	}
	if f.Model == "" {
		f.Warnings = append(f.Warnings, planner.Warning{Code: "model-unknown", Message: "the report does not name the model; enter it by hand"})
	}
	return f, nil
}

// row computes the row of one family A benchmark from its raw records.
func (a *aBench) row() (planner.Row, error) {
	bd := newBuilder()
	r := bd.row
	p := a.path
	switch strings.ToLower(string(a.mode)) {
	case "synchronous":
		r.LoadKind = planner.LoadSynchronous
		bd.setF(&r.Load, "load", p+".mode", 1)
	case "throughput":
		r.LoadKind = planner.LoadThroughput
		r.Paths["load"] = p + ".mode"
	case "asynchronous", "constant", "poisson":
		r.LoadKind = planner.LoadRate
		bd.fig(&r.Load, "load", p+".rate", a.rate, 1)
	default:
		return planner.Row{}, fmt.Errorf("%s.mode: unknown mode %q", p, a.mode)
	}
	bd.countInt(&r.Successful, "successful", "count of "+p+".results", a.ok)
	bd.countInt(&r.Errored, "errored", "count of "+p+".errors", a.errored)
	bd.countInt(&r.Attempted, "attempted", "count of "+p+".results and .errors", a.ok+a.errored)
	if a.last > a.first {
		d := a.last - a.first
		bd.setF(&r.DurationS, "duration_s", "computed: last end_time - first start_time in "+p, d)
		bd.setF(&r.RequestRate, "request_rate", "computed: results / duration in "+p, float64(a.ok)/d)
		bd.setF(&r.SendRate, "send_rate", "computed: (results + errors) / duration in "+p, float64(a.ok+a.errored)/d)
		bd.setF(&r.OutputTokenRate, "output_token_rate", "computed: output tokens / duration in "+p, a.outputTok/d)
	}
	if a.concN > 0 {
		bd.setF(&r.AchievedConcurrency, "achieved_concurrency", "computed: mean processing in "+p+".concurrencies", a.conc/float64(a.concN))
	}
	if a.ok > 0 {
		bd.setF(&r.PromptTokensMean, "prompt_tokens_mean", "computed from "+p+".results[*].prompt_token_count", a.promptTok/float64(a.ok))
		bd.setF(&r.OutputTokensMean, "output_tokens_mean", "computed from "+p+".results[*].output_token_count", a.outputTok/float64(a.ok))
	}
	bd.computeStat(&r.TTFT, "ttft_s", p+".results[*].first_token_time", a.ttft)
	bd.computeStat(&r.E2E, "e2e_s", p+".results[*].end_time-start_time", a.e2e)
	bd.computeStat(&r.ITL, "itl_s", p+".results[*].decode_times.data", a.itl)
	bd.computeStat(&r.TPOT, "tpot_s", p+".results[*]", a.tpot)
	r.ITL.Definition = "computed per request as the mean of decode_times.data, request-weighted"
	r.TPOT.Definition = "computed per request as (latency - TTFT)/(output tokens - 1), request-weighted"
	r.Samples = a.samples
	if a.prompts >= 2 {
		r.IdenticalPrompts = boolp(!a.differ)
		r.Paths["identical_prompts"] = p + ".results[*].prompt"
	}
	return bd.finish()
}
