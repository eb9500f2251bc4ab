package importers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"math"
	"slices"
	"strings"

	"capplan/planner"
)

// gReport is what the streaming pass collects from a GuideLLM report before
// the rows are built (the family is only known once the whole top level has
// been seen: YAML sorts metadata after benchmarks).
type gReport struct {
	meta    *gMetadata
	args    *gRunArgs
	hasArgs bool
	config  *gRunConfig
	benches []*gBench
	keys    []string // the top-level keys, in file order
}

// gBench is what one benchmarks[i] holds.
type gBench struct {
	path          string
	args          *gBenchArgs
	config        *gBenchConfig
	workerModel   string
	metrics       *gMetrics
	totals        *gCounts // family B: b.request_totals
	sched         *gSchedMetrics
	schedKey      string
	start, end    num
	duration      num
	listed        int // successful records listed in requests
	listedAll     int // records of every status
	minStart      float64
	hasStart      bool
	prompts       int
	firstPrompt   uint64
	promptsDiffer bool
	inner         []*aBench // family A
	innerArgs     *gBenchArgs
}

// parseGuideLLM reads a GuideLLM JSON report as a stream.
func parseGuideLLM(w *lexer) (*File, error) {
	rep := &gReport{}
	if err := w.object("", func(k string) error { return rep.key(w, k) }); err != nil {
		return nil, err
	}
	return rep.finishFrom(w)
}

// key reads the value of one top-level key of the report.
func (rep *gReport) key(w *lexer, k string) error {
	rep.keys = append(rep.keys, k)
	switch k {
	case "metadata", "args", "config":
		raw, err := w.capture(k)
		if err != nil {
			return err
		}
		return rep.decodeKey(k, raw)
	case "benchmarks":
		return w.array("benchmarks", func(i int) error {
			if i >= maxRows {
				return fmt.Errorf("benchmarks: more than %d load levels in one file: not a load-test result", maxRows)
			}
			b, err := readGBench(w, fmt.Sprintf("benchmarks[%d]", i))
			rep.benches = append(rep.benches, b)
			return err
		})
	}
	return w.skip(k)
}

// decodeKey decodes the raw value of metadata, args or config.
func (rep *gReport) decodeKey(k string, raw []byte) error {
	var v any
	switch k {
	case "metadata":
		rep.meta = &gMetadata{}
		v = rep.meta
	case "args":
		rep.args, rep.hasArgs = &gRunArgs{}, true
		v = rep.args
	case "config":
		rep.config = &gRunConfig{}
		v = rep.config
	}
	if bytes.IndexByte(raw, 'N') >= 0 || bytes.IndexByte(raw, 'I') >= 0 {
		raw = sanitizeAll(raw)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return tokenErr(k, err)
	}
	return nil
}

// finishFrom checks the end of the document and builds the rows.
func (rep *gReport) finishFrom(w *lexer) (*File, error) {
	if err := w.finish(); err != nil {
		return nil, err
	}
	if !slices.Contains(rep.keys, "benchmarks") {
		keys := rep.keys
		if len(keys) > 8 {
			keys = append(keys[:8], "...")
		}
		return nil, fmt.Errorf("not a recognised benchmark result: no top-level benchmarks list (keys: %s)", strings.Join(keys, ", "))
	}
	return rep.build()
}

// readGBench reads one element of benchmarks[], streaming its request lists.
func readGBench(w *lexer, p string) (*gBench, error) {
	b := &gBench{path: p, minStart: math.Inf(1)}
	err := w.object(p, func(k string) error {
		w.recognized = true
		kp := p + "." + k
		switch k {
		case "args":
			b.args = &gBenchArgs{}
			return w.decode(kp, b.args)
		case "config":
			b.config = &gBenchConfig{}
			return w.decode(kp, b.config)
		case "worker":
			var wk struct {
				BackendModel lstr `json:"backend_model"`
			}
			err := w.decode(kp, &wk)
			b.workerModel = string(wk.BackendModel)
			return err
		case "metrics":
			b.metrics = &gMetrics{}
			return w.decode(kp, b.metrics)
		case "request_totals":
			b.totals = &gCounts{}
			return w.decode(kp, b.totals)
		case "run_stats", "scheduler_metrics":
			b.sched, b.schedKey = &gSchedMetrics{}, k
			return w.decode(kp, b.sched)
		case "start_time":
			return w.decode(kp, &b.start)
		case "end_time":
			return w.decode(kp, &b.end)
		case "duration":
			return w.decode(kp, &b.duration)
		case "requests":
			return b.readRequests(w, kp)
		case "benchmarks": // family A: a report nested in the list
			return w.array(kp, func(i int) error {
				a, err := readABench(w, fmt.Sprintf("%s[%d]", kp, i))
				b.inner = append(b.inner, a)
				return err
			})
		}
		return w.skip(kp)
	})
	return b, err
}

// readRequests streams benchmarks[i].requests.{successful,errored,incomplete}
// one record at a time, keeping only a hash of the prompt and the start time.
func (b *gBench) readRequests(w *lexer, p string) error {
	var h maphash.Hash
	h.SetSeed(promptSeed)
	return w.object(p, func(status string) error {
		sp := p + "." + status
		if status != "successful" && status != "errored" && status != "incomplete" {
			return w.skip(sp)
		}
		return w.array(sp, func(i int) error {
			var start num
			var prompt uint64
			hasPrompt, fromArgs := false, false
			err := w.object(sp, func(k string) error {
				switch k {
				case "request_args", "prompt":
					c, err := w.peek(sp)
					if err != nil {
						return err
					}
					if c != '"' || (k == "prompt" && fromArgs) {
						return w.skip(sp)
					}
					h.Reset()
					if err := w.skipString(sp, func(seg []byte) { h.Write(seg) }); err != nil {
						return err
					}
					prompt, hasPrompt, fromArgs = h.Sum64(), true, k == "request_args"
					return nil
				case "start_time", "request_start_time":
					n, err := w.num(sp + "." + k)
					if err == nil && !start.set {
						start = n
					}
					return err
				case "info":
					return w.object(sp+".info", func(k string) error {
						if k != "timings" {
							return w.skip(sp)
						}
						return w.object(sp+".info.timings", func(k string) error {
							if k != "request_start" {
								return w.skip(sp)
							}
							n, err := w.num(sp + ".info.timings.request_start")
							if err == nil && n.set {
								start = n
							}
							return err
						})
					})
				}
				return w.skip(sp)
			})
			if err != nil {
				return err
			}
			b.listedAll++
			if status == "successful" {
				b.listed++
			}
			if start.set && start.v > 0 && start.v < b.minStart {
				b.minStart, b.hasStart = start.v, true
			}
			if hasPrompt {
				if b.prompts == 0 {
					b.firstPrompt = prompt
				} else if prompt != b.firstPrompt {
					b.promptsDiffer = true
				}
				b.prompts++
			}
			return nil
		})
	})
}

// promptSeed makes prompt hashes comparable within one process.
var promptSeed = maphash.MakeSeed()

// family returns the report generation and its label.
func (rep *gReport) family() (string, error) {
	if rep.meta != nil && rep.meta.Version.set {
		switch rep.meta.Version.v {
		case 1:
			return "D", nil
		case 2:
			return "E", nil
		}
		return "", fmt.Errorf("metadata.version: GuideLLM report version %g is not supported (known: 1 for GuideLLM 0.5-0.6, 2 for 0.7+)", rep.meta.Version.v)
	}
	if len(rep.benches) == 0 {
		return "", fmt.Errorf("benchmarks: the report holds no benchmarks (zero load levels)")
	}
	b := rep.benches[0]
	switch {
	case b.inner != nil:
		return "A", nil
	case b.config != nil || (rep.hasArgs && b.metrics != nil && b.metrics.RequestTotals != nil):
		return "C", nil
	case b.args != nil && b.args.Strategy != nil || b.totals != nil:
		return "B", nil
	}
	return "", fmt.Errorf("benchmarks[0]: not a GuideLLM benchmark (no config, args.strategy or request_totals)")
}

var gFamilyLabel = map[string]string{
	"A": "A (0.1)", "C": "C (0.4)", "D": "D (0.5-0.6)", "E": "E (0.7+)",
}

// build turns the collected report into rows.
func (rep *gReport) build() (*File, error) {
	fam, err := rep.family()
	if err != nil {
		return nil, err
	}
	if len(rep.benches) == 0 {
		return nil, fmt.Errorf("benchmarks: the report holds no benchmarks (zero load levels)")
	}
	f := &File{Source: planner.Source{Format: "guidellm", FormatVersion: gFamilyLabel[fam]}}
	if rep.meta != nil {
		f.Source.ToolVersion = string(rep.meta.GuidellmVersion)
	}
	switch {
	case rep.config != nil && rep.config.Spec != nil && rep.config.Spec.Backend != nil:
		f.Model = string(rep.config.Spec.Backend.Model)
	case rep.args != nil && rep.args.Model != "":
		f.Model = string(rep.args.Model)
	case rep.args != nil && rep.args.BackendKwargs != nil:
		f.Model = string(rep.args.BackendKwargs.Model)
	}
	if fam == "A" {
		return rep.buildA(f)
	}
	if fam == "B" {
		f.Source.FormatVersion = "B (0.2)"
		if m := rep.benches[0].metrics; m != nil && m.TimeToFirstToken != nil && m.TimeToFirstToken.Successful != nil && m.TimeToFirstToken.Successful.Percentiles.P50.set {
			f.Source.FormatVersion = "B (0.3)"
		}
	}
	for _, b := range rep.benches {
		row, err := b.row(fam)
		if err != nil {
			return nil, err
		}
		if f.Model == "" {
			f.Model = row.Model
		}
		f.Rows = append(f.Rows, row)
	}
	if f.Model == "" {
		f.Warnings = append(f.Warnings, planner.Warning{Code: "model-unknown", Message: "the report does not name the model (GuideLLM was run without --model); enter it by hand"})
	}
	return f, nil
}

// row builds the row of one benchmark of families B-E.
func (b *gBench) row(fam string) (planner.Row, error) {
	bd := newBuilder()
	r := bd.row
	p := b.path
	var strat *gStrategy
	var stratPath string
	if fam == "B" {
		if b.args != nil {
			strat, stratPath = b.args.Strategy, p+".args.strategy"
		}
		r.Model = b.workerModel
	} else if b.config != nil {
		strat, stratPath = b.config.Strategy, p+".config.strategy"
		if b.config.Backend != nil {
			r.Model = string(b.config.Backend.Model)
		}
	}
	if strat == nil {
		return planner.Row{}, fmt.Errorf("%s: no strategy: cannot tell the load level", p)
	}
	if err := setGLoad(bd, strat, stratPath); err != nil {
		return planner.Row{}, err
	}
	m := b.metrics
	if m == nil {
		return planner.Row{}, fmt.Errorf("%s.metrics: missing", p)
	}
	mp := p + ".metrics"
	totals, tp := b.totals, p+".request_totals"
	if fam != "B" {
		totals, tp = m.RequestTotals, mp+".request_totals"
	}
	if totals == nil {
		return planner.Row{}, fmt.Errorf("%s: missing request counts", tp)
	}
	bd.count(&r.Successful, "successful", tp+".successful", totals.Successful)
	bd.count(&r.Errored, "errored", tp+".errored", totals.Errored)
	bd.count(&r.Incomplete, "incomplete", tp+".incomplete", totals.Incomplete)
	bd.count(&r.Attempted, "attempted", tp+".total", totals.Total)
	if r.Attempted == nil && r.Successful != nil && r.Errored != nil && r.Incomplete != nil {
		bd.countInt(&r.Attempted, "attempted", tp+".successful+errored+incomplete", *r.Successful+*r.Errored+*r.Incomplete)
	}
	if r.Successful == nil {
		return planner.Row{}, fmt.Errorf("%s.successful: missing", tp)
	}
	bd.fig(&r.DurationS, "duration_s", p+".duration", b.duration, 1)
	mean := func(dst **float64, name string, sd *gStatusDist, key, status string) {
		if sd == nil {
			return
		}
		d := map[string]*gDist{"successful": sd.Successful, "total": sd.Total}[status]
		if d != nil {
			bd.fig(dst, name, mp+"."+key+"."+status+".mean", d.Mean, 1)
		}
	}
	mean(&r.RequestRate, "request_rate", m.RequestsPerSecond, "requests_per_second", "successful")
	mean(&r.AchievedRate, "achieved_rate", m.RequestsPerSecond, "requests_per_second", "total")
	mean(&r.AchievedConcurrency, "achieved_concurrency", m.RequestConcurrency, "request_concurrency", "total")
	mean(&r.OutputTokenRate, "output_token_rate", m.OutputTokensPerSecond, "output_tokens_per_second", "successful")
	if *r.Successful > 0 {
		mean(&r.PromptTokensMean, "prompt_tokens_mean", m.PromptTokenCount, "prompt_token_count", "successful")
		mean(&r.OutputTokensMean, "output_tokens_mean", m.OutputTokenCount, "output_token_count", "successful")
		gStat(bd, &r.TTFT, "ttft_s", m.TimeToFirstToken, mp+".time_to_first_token_ms", 1e-3)
		gStat(bd, &r.TTFOT, "ttfot_s", m.TimeToFirstOutput, mp+".time_to_first_output_token_ms", 1e-3)
		gStat(bd, &r.E2E, "e2e_s", m.RequestLatency, mp+".request_latency", 1)
		gStat(bd, &r.ITL, "itl_s", m.InterTokenLatency, mp+".inter_token_latency_ms", 1e-3)
		gStat(bd, &r.TPOT, "tpot_s", m.TimePerOutputToken, mp+".time_per_output_token_ms", 1e-3)
		r.ITL.Definition = "GuideLLM ITL: each request's average gap (last token - first token)/(output tokens - 1), distribution weighted by output tokens - 1"
		if fam == "B" {
			r.TPOT.Definition = "GuideLLM 0.2-0.3 TPOT: (last token - first token)/output tokens, weighted by output tokens"
		} else {
			r.TPOT.Definition = "GuideLLM 0.4+ TPOT: (last token - request start)/output tokens, includes TTFT, weighted by output tokens"
		}
	}
	b.requestWarnings(bd, fam)
	return bd.finish()
}

// setGLoad fills the load kind and level from a strategy.
func setGLoad(bd *builder, s *gStrategy, sp string) error {
	r := bd.row
	switch t := strings.ToLower(string(s.Type)); t {
	case "synchronous":
		r.LoadKind = planner.LoadSynchronous
		bd.setF(&r.Load, "load", sp+".type_", 1)
	case "concurrent":
		r.LoadKind = planner.LoadConcurrency
		bd.fig(&r.Load, "load", sp+".streams", s.Streams, 1)
	case "constant", "poisson", "async":
		r.LoadKind = planner.LoadRate
		bd.fig(&r.Load, "load", sp+".rate", s.Rate, 1)
	case "throughput":
		r.LoadKind = planner.LoadThroughput
		r.Paths["load"] = sp + ".type_"
	case "trace":
		r.LoadKind = planner.LoadRate
		bd.warn("load-unknown", "trace replay: the requests follow a recorded schedule, there is no single load level")
	default:
		return fmt.Errorf("%s.type_: unknown strategy %q", sp, t)
	}
	return nil
}

// gStat fills a latency summary from the successful group of a distribution.
func gStat(bd *builder, s *planner.Stat, key string, sd *gStatusDist, p string, scale float64) {
	if sd == nil || sd.Successful == nil {
		return
	}
	d := sd.Successful
	p += ".successful"
	src := statSrc{mean: d.Mean, meanP: p + ".mean", p95: d.Percentiles.P95, p95P: p + ".percentiles.p95", p99: d.Percentiles.P99, p99P: p + ".percentiles.p99"}
	if d.Percentiles.P50.set {
		src.p50, src.p50P = d.Percentiles.P50, p+".percentiles.p50"
	} else {
		src.p50, src.p50P = d.Median, p+".median"
	}
	bd.stat(s, key, src, scale)
	if d.Count.set && d.Count.v >= 0 && d.Count.v < maxFigure {
		s.N = int(d.Count.v)
	}
}

// requestWarnings adds what the per-request lists reveal: warmup or cooldown
// requests listed beside the measured ones, and identical prompts.
func (b *gBench) requestWarnings(bd *builder, fam string) {
	r := bd.row
	if r.Successful != nil && b.listed > *r.Successful {
		bd.warn("warmup-included", "%s.requests lists %d successful requests but only %d were counted in the measured window: the lists include warmup or cooldown requests", b.path, b.listed, *r.Successful)
	} else if fam != "B" && b.hasStart && b.start.set && b.minStart < b.start.v-0.001 {
		bd.warn("warmup-included", "%s.requests lists requests that started before the measured window (%.3f s early): warmup requests are included in the lists", b.path, b.start.v-b.minStart)
	}
	if b.prompts >= 2 {
		r.IdenticalPrompts = boolp(!b.promptsDiffer)
		r.Paths["identical_prompts"] = b.path + ".requests[*]." + map[bool]string{true: "prompt", false: "request_args"}[fam == "B"]
	}
}
