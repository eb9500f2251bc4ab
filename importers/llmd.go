package importers

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"capplan/planner"
)

// An llm-d benchmark report (schema v0.2 and v0.2.1, YAML or JSON) holds
// one stage of a load test, converted by llm-d-benchmark from the tool's
// own output (GuideLLM, inference-perf, vllm bench, InferenceMAX): the
// stack under test (scenario.stack, one component per engine replica),
// the load (scenario.load.standardized), the aggregate results
// (results.request_performance.aggregate, each statistic with its units
// and percentiles p0p1 ... p99p9) and, optionally, metrics scraped from
// the stack (results.observability.metrics). It is read as a stream: the
// time series and the native configurations (which can carry an API key
// or a token) are skipped unread, and a metric's samples are folded into
// their peak one at a time.

// maxBRStack bounds the components of one stack.
const maxBRStack = 1000

// brStat is one statistic of the report.
type brStat struct {
	Units lstr `json:"units"`
	Mean  num  `json:"mean"`
	P50   num  `json:"p50"`
	P95   num  `json:"p95"`
	P99   num  `json:"p99"`
}

type brAggregate struct {
	Requests *struct {
		Total        num     `json:"total"`
		Failures     num     `json:"failures"`
		Incomplete   num     `json:"incomplete"`
		InputLength  *brStat `json:"input_length"`
		OutputLength *brStat `json:"output_length"`
	} `json:"requests"`
	Latency *struct {
		TTFT  *brStat `json:"time_to_first_token"`
		NTPOT *brStat `json:"normalized_time_per_output_token"`
		TPOT  *brStat `json:"time_per_output_token"`
		ITL   *brStat `json:"inter_token_latency"`
		E2E   *brStat `json:"request_latency"`
	} `json:"latency"`
	Throughput *struct {
		Output *brStat `json:"output_token_rate"`
		// request_rate in later revisions of v0.2, requests_rate in the first
		Requests    *brStat `json:"requests_rate"`
		RequestRate *brStat `json:"request_rate"`
	} `json:"throughput"`
}

type brComponent struct {
	Metadata struct {
		Kind  lstr `json:"kind"`
		Label lstr `json:"label"`
	} `json:"metadata"`
	Standardized struct {
		Tool        lstr `json:"tool"`
		ToolVersion lstr `json:"tool_version"`
		Role        lstr `json:"role"`
		Model       *struct {
			Name lstr `json:"name"`
		} `json:"model"`
		Accelerator *struct {
			Model       lstr `json:"model"`
			Count       num  `json:"count"`
			Parallelism *struct {
				DP num `json:"dp"`
				EP num `json:"ep"`
				PP num `json:"pp"`
				TP num `json:"tp"`
			} `json:"parallelism"`
		} `json:"accelerator"`
	} `json:"standardized"`
}

type brLoad struct {
	Standardized *struct {
		Tool        lstr `json:"tool"`
		ToolVersion lstr `json:"tool_version"`
		Stage       num  `json:"stage"`
		InputSeqLen *struct {
			Value num `json:"value"`
		} `json:"input_seq_len"`
		OutputSeqLen *struct {
			Value num `json:"value"`
		} `json:"output_seq_len"`
		RateQPS     num `json:"rate_qps"`
		Concurrency num `json:"concurrency"`
	} `json:"standardized"`
}

type brRun struct {
	Time *struct {
		Start    lstr `json:"start"`
		End      lstr `json:"end"`
		Duration lstr `json:"duration"`
	} `json:"time"`
}

// brMetric is what the report's observability metric yields: its name and
// unit, and the peak of its samples.
type brMetric struct {
	path, name, unit string
	peak             float64
	n                int
}

type brReport struct {
	version    string
	run        brRun
	stack      []brComponent
	load       brLoad
	agg        *brAggregate
	metrics    []brMetric
	hasResults bool
	yaml       bool // converted from YAML
	// secrets are where the native configurations record a credential
	// (none of which is read)
	secrets []string
	// cutSeries is set when a YAML report's time series or metric ends
	// short of what every series item holds (a cut at a line's end)
	cutSeries error
}

// decodeNoting decodes the value at path into v and notes where the
// value records a credential: a key named like one with a value, or a
// string that holds one (an --api-key in a command line).
func (br *brReport) decodeNoting(w *lexer, path string, v any) error {
	raw, err := w.capture(path)
	if err != nil {
		return err
	}
	if bytes.IndexByte(raw, 'N') >= 0 || bytes.IndexByte(raw, 'I') >= 0 {
		raw = sanitizeAll(raw)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return tokenErr(path, err)
	}
	var tree any
	if json.Unmarshal(raw, &tree) == nil {
		br.noteSecrets(path, tree)
	}
	return nil
}

func (br *brReport) noteSecrets(path string, x any) {
	if len(br.secrets) >= 8 {
		return
	}
	switch t := x.(type) {
	case map[string]any:
		for k, v := range t {
			kp := path + "." + k
			if s, ok := v.(string); ok && isSecretKey(strings.TrimLeft(k, "-")) && s != "" && s != Masked {
				br.secrets = append(br.secrets, kp)
				continue
			}
			br.noteSecrets(kp, v)
		}
	case []any:
		for i, v := range t {
			br.noteSecrets(fmt.Sprintf("%s[%d]", path, i), v)
		}
	case string:
		if _, n := MaskSecrets(t); n > 0 {
			br.secrets = append(br.secrets, path)
		}
	}
}

// isLLMDHead tells an llm-d benchmark report from the start of a JSON
// document: its first key is version, and run, scenario or results follow;
// or, with its keys sorted (jq -S, a dict sorted before dumping), it
// starts with results or run and shows the report's request_performance or
// its scenario's stack of components early.
func isLLMDHead(t []byte) bool {
	switch firstKey(t) {
	case "version":
		return bytes.Contains(t, []byte(`"results"`)) || bytes.Contains(t, []byte(`"scenario"`)) || bytes.Contains(t, []byte(`"run"`))
	case "results", "run", "scenario":
		return bytes.Contains(t, []byte(`"request_performance"`)) || bytes.Contains(t, []byte(`"stack"`)) && bytes.Contains(t, []byte(`"standardized"`))
	}
	return false
}

// parseLLMD reads an llm-d benchmark report in JSON.
func parseLLMD(w *lexer) (*File, error) { return readLLMD(w, false) }

// parseLLMDYAML reads an llm-d benchmark report converted from YAML.
func parseLLMDYAML(w *lexer) (*File, error) { return readLLMD(w, true) }

// isLLMDYAML tells an llm-d benchmark report from the start of a YAML
// document: top-level version and results, scenario or run.
func isLLMDYAML(head []byte) bool {
	top := func(key string) bool {
		return bytes.HasPrefix(head, []byte(key+":")) || bytes.Contains(head, []byte("\n"+key+":"))
	}
	return top("version") && (top("results") || top("scenario") || top("run")) && !top("benchmarks")
}

func readLLMD(w *lexer, yaml bool) (*File, error) {
	br := &brReport{yaml: yaml}
	err := w.object("", func(k string) error {
		w.recognized = true
		switch k {
		case "version": // a string, or a number when YAML left 0.2 unquoted
			raw, err := w.capture(k)
			br.version = strings.Trim(strings.TrimSpace(string(raw)), `"`)
			return err
		case "run":
			return w.decode(k, &br.run)
		case "scenario":
			return w.object(k, func(k2 string) error {
				p := k + "." + k2
				switch k2 {
				case "stack":
					return w.array(p, func(i int) error {
						if i >= maxBRStack {
							return fmt.Errorf("%s: more than %d components: not one stack", p, maxBRStack)
						}
						var c brComponent
						cp := fmt.Sprintf("%s[%d]", p, i)
						err := br.decodeNoting(w, cp, &c)
						br.stack = append(br.stack, c)
						return err
					})
				case "load":
					return br.decodeNoting(w, p, &br.load)
				}
				return w.skip(p)
			})
		case "results":
			br.hasResults = true
			return w.object(k, func(k2 string) error {
				p := k + "." + k2
				switch k2 {
				case "request_performance":
					return w.object(p, func(k3 string) error {
						if k3 == "aggregate" {
							br.agg = &brAggregate{}
							return w.decode(p+".aggregate", br.agg)
						}
						if k3 == "time_series" && br.yaml {
							return br.checkSeries(w, p+"."+k3)
						}
						return w.skip(p + "." + k3) // time_series: not a row's figure
					})
				case "observability":
					metrics := false
					err := w.object(p, func(k3 string) error {
						if k3 == "metrics" {
							metrics = true
							return br.readMetrics(w, p+".metrics")
						}
						return w.skip(p + "." + k3)
					})
					if err == nil && !metrics && br.yaml && br.cutSeries == nil {
						br.cutSeries = yamlCut(p, "it has no metrics, which are what observability holds")
					}
					return err
				}
				return w.skip(p)
			})
		}
		return w.skip(k)
	})
	if err != nil {
		return nil, err
	}
	if err := w.finish(); err != nil {
		return nil, err
	}
	return br.build()
}

// checkSeries reads a YAML report's time_series only to see that it is
// whole: each statistic's series items give their time and a figure. A
// series too large to hold is skipped unchecked.
func (br *brReport) checkSeries(w *lexer, p string) error {
	raw, over, err := w.captureOrSkip(p)
	if err != nil || over {
		return err
	}
	var groups map[string]map[string]struct {
		Series *[]map[string]any `json:"series"`
	}
	if json.Unmarshal(raw, &groups) != nil {
		return nil // not the shape read here: nothing to check
	}
	for g, stats := range groups {
		for name, st := range stats {
			sp := p + "." + g + "." + name
			if st.Series == nil {
				br.cutSeries = cmp.Or(br.cutSeries, yamlCut(sp, "the statistic has no series"))
				continue
			}
			for i, item := range *st.Series {
				if _, ok := item["ts"]; !ok || len(item) < 2 {
					br.cutSeries = cmp.Or(br.cutSeries, yamlCut(fmt.Sprintf("%s.series[%d]", sp, i), "the item has no time or no figure"))
				}
			}
		}
	}
	return nil
}

// readMetrics reads observability.metrics: each metric's name, id and
// unit, and the peak of its samples, read one at a time.
func (br *brReport) readMetrics(w *lexer, p string) error {
	return w.array(p, func(i int) error {
		if i >= maxBRStack*64 {
			return fmt.Errorf("%s: more than %d metrics", p, maxBRStack*64)
		}
		mp := fmt.Sprintf("%s[%d]", p, i)
		m := brMetric{path: mp, peak: math.Inf(-1)}
		var id lstr
		sampled := false
		err := w.object(mp, func(k string) error {
			kp := mp + "." + k
			switch k {
			case "name", "unit":
				var s lstr
				err := w.decode(kp, &s)
				if k == "name" {
					m.name = string(s)
				} else {
					m.unit = string(s)
				}
				return err
			case "metric_ref":
				var ref struct {
					ID lstr `json:"id"`
				}
				err := w.decode(kp, &ref)
				id = ref.ID
				return err
			case "samples":
				sampled = true
				return w.array(kp, func(j int) error {
					var s struct {
						Value num `json:"value"`
					}
					sp := fmt.Sprintf("%s[%d]", kp, j)
					if err := w.decode(sp, &s); err != nil {
						return err
					}
					if !s.Value.set && br.yaml && br.cutSeries == nil {
						br.cutSeries = yamlCut(sp, "the sample has no value")
					}
					if !s.Value.set || math.IsNaN(s.Value.v) || math.IsInf(s.Value.v, 0) {
						return nil // a scrape may hold NaN; it is no peak
					}
					if s.Value.v < 0 {
						return fmt.Errorf("%s.value: negative: %g", sp, s.Value.v)
					}
					m.peak = math.Max(m.peak, s.Value.v)
					m.n++
					return nil
				})
			}
			return w.skip(kp)
		})
		if id != "" {
			m.name = string(id) + " " + m.name
		}
		if err == nil && !sampled && br.yaml && br.cutSeries == nil {
			br.cutSeries = yamlCut(mp, "the metric has no samples")
		}
		if err == nil && m.n > 0 {
			br.metrics = append(br.metrics, m)
		}
		return err
	})
}

// aggregateComplete refuses an aggregate that a cut at a line's end left
// short (valid YAML still): every llm-d benchmark report v0.2 gives the
// time to first token and the request latency, each statistic its units
// and mean, and a latency's p50, p95 and p99 come together.
func (br *brReport) aggregateComplete() error {
	const ap = "results.request_performance.aggregate"
	lat := br.agg.Latency
	if lat.TTFT == nil || lat.E2E == nil {
		return yamlCut(ap+".latency", "it lacks time_to_first_token or request_latency, which every llm-d benchmark report v0.2 holds")
	}
	for _, x := range []struct {
		p  string
		st *brStat
	}{{ap + ".latency.time_to_first_token", lat.TTFT}, {ap + ".latency.request_latency", lat.E2E}} {
		if !x.st.P95.set {
			return yamlCut(x.p, "it has no percentiles, which every llm-d benchmark report gives for this latency")
		}
	}
	check := func(p string, st *brStat) error {
		if st == nil {
			return nil
		}
		if st.Units == "" || !st.Mean.set {
			return yamlCut(p, "the statistic has no units or no mean")
		}
		if strings.Contains(p, ".latency.") && (st.P50.set || st.P95.set || st.P99.set) && !(st.P50.set && st.P95.set && st.P99.set) {
			return yamlCut(p, "the statistic gives some of p50, p95 and p99 but not all")
		}
		return nil
	}
	stats := []struct {
		p  string
		st *brStat
	}{
		{ap + ".latency.time_to_first_token", lat.TTFT}, {ap + ".latency.normalized_time_per_output_token", lat.NTPOT},
		{ap + ".latency.time_per_output_token", lat.TPOT}, {ap + ".latency.inter_token_latency", lat.ITL},
		{ap + ".latency.request_latency", lat.E2E}, {ap + ".throughput.output_token_rate", br.agg.Throughput.Output},
		{ap + ".throughput.requests_rate", br.agg.Throughput.Requests}, {ap + ".throughput.request_rate", br.agg.Throughput.RequestRate},
	}
	if rq := br.agg.Requests; rq != nil {
		stats = append(stats, struct {
			p  string
			st *brStat
		}{ap + ".requests.input_length", rq.InputLength}, struct {
			p  string
			st *brStat
		}{ap + ".requests.output_length", rq.OutputLength})
	}
	for _, x := range stats {
		if err := check(x.p, x.st); err != nil {
			return err
		}
	}
	return br.cutSeries
}

// brVersions are the schema versions read.
var brVersions = map[string]bool{"0.2": true, "0.2.1": true}

// build makes the report's row.
func (br *brReport) build() (*File, error) {
	v := br.version
	if !brVersions[v] {
		if strings.HasPrefix(v, "0.1") {
			return nil, fmt.Errorf("version: llm-d benchmark report %s is not read (known: 0.2, 0.2.1); convert it again with a current llm-d-benchmark", v)
		}
		return nil, fmt.Errorf("version: llm-d benchmark report version %q is not supported (known: 0.2, 0.2.1)", v)
	}
	if !br.hasResults {
		return nil, fmt.Errorf("results: missing: an llm-d benchmark report always holds its results")
	}
	if br.agg == nil || br.agg.Requests == nil {
		return nil, fmt.Errorf("results.request_performance.aggregate.requests: missing: the report holds no request counts")
	}
	if br.yaml && (br.agg.Latency == nil || br.agg.Throughput == nil) {
		// YAML cut at a line's end is still valid YAML; llm-d-benchmark
		// writes requests, latency and throughput in every aggregate
		return nil, yamlCut("results.request_performance.aggregate", "it lacks latency or throughput, which every llm-d benchmark report's aggregate holds")
	}
	if br.yaml {
		if err := br.aggregateComplete(); err != nil {
			return nil, err
		}
	}
	f := &File{Source: planner.Source{Format: "llm-d", FormatVersion: "benchmark report v" + v}}
	bd := newBuilder()
	r := bd.row
	const ap = "results.request_performance.aggregate."
	reqs := br.agg.Requests
	bd.count(&r.Attempted, "attempted", ap+"requests.total", reqs.Total)
	bd.count(&r.Errored, "errored", ap+"requests.failures", reqs.Failures)
	bd.count(&r.Incomplete, "incomplete", ap+"requests.incomplete", reqs.Incomplete)
	if bd.err != nil {
		return nil, bd.err
	}
	if r.Attempted == nil {
		return nil, fmt.Errorf("%srequests.total: missing", ap)
	}
	ok := *r.Attempted - intv(r.Errored) - intv(r.Incomplete)
	if ok < 0 {
		return nil, fmt.Errorf("%srequests: %d failures and %d incomplete of %d requests: the request counts contradict each other", ap, intv(r.Errored), intv(r.Incomplete), *r.Attempted)
	}
	bd.countInt(&r.Successful, "successful", "computed: "+ap+"requests.total - failures - incomplete", ok)
	if r.Errored == nil {
		bd.countInt(&r.Errored, "errored", ap+"requests.failures (absent: 0)", 0)
	}

	// the load
	lp := "scenario.load.standardized."
	fromVLLM := false // converted from vLLM's bench serve result (or InferenceMAX's fork of it)
	var vllmCap *float64
	if ls := br.load.Standardized; ls != nil {
		f.Source.ToolVersion = strings.TrimSpace(string(ls.Tool) + " " + string(ls.ToolVersion))
		fromVLLM = brFromVLLM(string(ls.Tool))
		conc := ls.Concurrency
		rate := ls.RateQPS
		switch {
		case fromVLLM && rate.set && rate.v > 0 && !math.IsInf(rate.v, 1):
			// vLLM's request_rate drives the run; its max_concurrency,
			// the report's concurrency, only caps what is in flight
			r.LoadKind = planner.LoadRate
			bd.fig(&r.Load, "load", lp+"rate_qps (vLLM's --request-rate)", rate, 1)
			if conc.set && conc.v > 0 && !math.IsInf(conc.v, 1) {
				vllmCap = planner.F(conc.v)
				r.Paths["max_concurrency"] = lp + "concurrency (vLLM's --max-concurrency)"
			}
		case conc.set && !math.IsInf(conc.v, 1) && (!ls.RateQPS.set || conc.v > 0):
			r.LoadKind = planner.LoadConcurrency
			bd.fig(&r.Load, "load", lp+"concurrency", conc, 1)
		case ls.RateQPS.set:
			r.LoadKind = planner.LoadRate
			bd.fig(&r.Load, "load", lp+"rate_qps", ls.RateQPS, 1)
		default:
			r.LoadKind = planner.LoadRate
			bd.warn("load-unknown", "the report gives neither rate_qps nor a finite concurrency in %s: enter the load level by hand", strings.TrimSuffix(lp, "."))
		}
		if ls.Stage.set && ls.Stage.v > 0 {
			f.Source.FormatVersion += fmt.Sprintf(", stage %g", ls.Stage.v)
		}
	} else {
		r.LoadKind = planner.LoadRate
		bd.warn("load-unknown", "the report has no scenario.load: enter the load level by hand")
	}

	// the duration: ISO-8601 duration, else end - start
	if t := br.run.Time; t != nil {
		if d, ok := isoDuration(string(t.Duration)); ok {
			bd.setF(&r.DurationS, "duration_s", "run.time.duration", d)
		} else if s, err1 := time.Parse(time.RFC3339, string(t.Start)); err1 == nil {
			if e, err2 := time.Parse(time.RFC3339, string(t.End)); err2 == nil && e.After(s) {
				bd.setF(&r.DurationS, "duration_s", "computed: run.time.end - run.time.start", e.Sub(s).Seconds())
			}
		}
	}

	// rates: the report's request rate is what the tool measured, which
	// for some tools counts failed requests too; with failures it is kept
	// as the send rate and the achieved rate is successes over the duration
	if tp := br.agg.Throughput; tp != nil {
		if s := tp.Output; s != nil {
			bd.fig(&r.OutputTokenRate, "output_token_rate", ap+"throughput.output_token_rate.mean", s.Mean, 1)
		}
		s, key := tp.RequestRate, "request_rate"
		if s == nil {
			s, key = tp.Requests, "requests_rate"
		}
		if s != nil {
			if fromVLLM {
				// vLLM's converter files its request_throughput here:
				// completed requests over the run, the achieved rate
				bd.fig(&r.RequestRate, "request_rate", ap+"throughput."+key+".mean (vLLM's request_throughput: completed / duration)", s.Mean, 1)
			} else if intv(r.Errored)+intv(r.Incomplete) == 0 {
				bd.fig(&r.RequestRate, "request_rate", ap+"throughput."+key+".mean", s.Mean, 1)
			} else {
				bd.fig(&r.SendRate, "send_rate", ap+"throughput."+key+".mean (failed requests may be counted)", s.Mean, 1)
				if r.DurationS != nil && *r.DurationS > 0 {
					bd.setF(&r.RequestRate, "request_rate", "computed: successful / duration_s", float64(ok) / *r.DurationS)
				}
			}
		}
	}

	if ok > 0 {
		if s := reqs.InputLength; s != nil {
			bd.fig(&r.PromptTokensMean, "prompt_tokens_mean", ap+"requests.input_length.mean", s.Mean, 1)
		}
		if s := reqs.OutputLength; s != nil {
			bd.fig(&r.OutputTokensMean, "output_tokens_mean", ap+"requests.output_length.mean", s.Mean, 1)
		}
		if lat := br.agg.Latency; lat != nil {
			for _, m := range []struct {
				s     *brStat
				key   string
				st    *planner.Stat
				name  string
				token bool
			}{
				{lat.TTFT, "time_to_first_token", &r.TTFT, "ttft_s", false},
				{lat.E2E, "request_latency", &r.E2E, "e2e_s", false},
				{lat.TPOT, "time_per_output_token", &r.TPOT, "tpot_s", true},
				{lat.ITL, "inter_token_latency", &r.ITL, "itl_s", true},
			} {
				if m.s == nil {
					continue
				}
				kp := ap + "latency." + m.key
				scale, known := brTimeScale(string(m.s.Units), m.token)
				if !known {
					return nil, fmt.Errorf("%s.units: %q is not a unit of %s (s, ms%s)", kp, m.s.Units, m.key, map[bool]string{true: ", s/token, ms/token"}[m.token])
				}
				bd.stat(m.st, m.name, statSrc{mean: m.s.Mean, meanP: kp + ".mean", p50: m.s.P50, p50P: kp + ".p50", p95: m.s.P95, p95P: kp + ".p95", p99: m.s.P99, p99P: kp + ".p99"}, scale)
				m.st.N = ok
			}
			r.TPOT.Definition = "llm-d benchmark report time_per_output_token: as the converted tool defines it (the report names the tool in scenario.load)"
		}
	}

	if len(br.secrets) > 0 {
		slices.Sort(br.secrets)
		f.Warnings = append(f.Warnings, planner.Warning{Code: "credential-in-file", Message: fmt.Sprintf(
			"the file records a credential in its native configuration (%s): none is imported or shown, but the raw file is kept as uploaded and the report's readers can download it; remove the credential from the file and import it again",
			strings.Join(br.secrets, ", "))})
	}
	br.stack2Row(f, bd)
	br.observed(bd)
	if vllmCap != nil && r.Load != nil {
		msg := fmt.Sprintf("vLLM was driven at %s req/s with at most %s requests in flight (--max-concurrency)", fmtRate(*r.Load), strconv.FormatFloat(*vllmCap, 'f', -1, 64))
		if r.RequestRate != nil && r.E2E.Mean != nil {
			inFlight := *r.RequestRate * *r.E2E.Mean
			if inFlight < *vllmCap {
				msg += fmt.Sprintf("; about %s were in flight on average (achieved rate × mean latency), so the cap did not bind", strconv.FormatFloat(inFlight, 'f', 1, 64))
			} else {
				msg += fmt.Sprintf("; about %s were in flight on average (achieved rate × mean latency): the cap bound, and the load was set by it as much as by the rate", strconv.FormatFloat(inFlight, 'f', 1, 64))
			}
		}
		bd.warn("rate-and-cap", "%s", msg)
	}
	row, err := bd.finish()
	if err != nil {
		return nil, err
	}
	f.Model = row.Model
	f.Rows = append(f.Rows, row)
	return f, nil
}

// brFromVLLM tells the load tools whose report llm-d-benchmark converts
// from vLLM's bench serve result: vLLM's own and InferenceMAX's fork.
func brFromVLLM(tool string) bool {
	t := strings.ToLower(strings.TrimSpace(tool))
	return t == "vllm-benchmark" || t == "vllm_benchmark" || t == "inferencemax"
}

// stack2Row names the model and says what the stack is: one row is one
// stage of the whole stack, which may be several replicas or a prefill
// and decode split, not one box.
func (br *brReport) stack2Row(f *File, bd *builder) {
	r := bd.row
	var engines, accel int
	roles := map[string]int{}
	var gpu string
	var tp, dp, ep float64
	for i, c := range br.stack {
		if string(c.Metadata.Kind) != "inference_engine" {
			continue
		}
		engines++
		st := c.Standardized
		if r.Model == "" && st.Model != nil && st.Model.Name != "" {
			r.Model = masked(string(st.Model.Name))
			r.Paths["model"] = fmt.Sprintf("scenario.stack[%d].standardized.model.name", i)
		}
		if role := string(st.Role); role != "" {
			roles[role]++
		}
		if a := st.Accelerator; a != nil {
			if gpu == "" {
				gpu = masked(string(a.Model))
			}
			if a.Count.set && a.Count.v > 0 && a.Count.v < 1e6 {
				accel += int(a.Count.v)
			}
			if p := a.Parallelism; p != nil {
				tp, dp, ep = max(tp, p.TP.v), max(dp, p.DP.v), max(ep, p.EP.v)
			}
		}
	}
	if engines == 0 {
		return
	}
	desc := fmt.Sprintf("%d inference engine %s", engines, plural(engines, "replica", "replicas"))
	if accel > 0 {
		desc += fmt.Sprintf(" on %d × %s", accel, gpu)
	}
	if tp > 0 {
		desc += fmt.Sprintf(" (TP %g, DP %g, EP %g)", tp, max(dp, 1), max(ep, 1))
	}
	var rs []string
	for _, role := range []string{"replica", "aggregate", "prefill", "decode"} {
		if n := roles[role]; n > 0 {
			rs = append(rs, fmt.Sprintf("%d %s", n, role))
		}
	}
	if len(rs) > 0 {
		desc += ", roles " + strings.Join(rs, ", ")
	}
	f.Warnings = append(f.Warnings, planner.Warning{Code: "stack", Message: "the stack under test: " + desc})
	if split := roles["prefill"] > 0 || roles["decode"] > 0; engines > 1 && !split {
		// k replicas of one engine: a fleet's scaling factor is measured
		// against a one-replica row at the same load (docs/method.md,
		// "Fleets and the reserve").
		r.Replicas = planner.I(engines)
		r.Paths["replicas"] = "scenario.stack"
	}
	if engines > 1 || roles["prefill"] > 0 || roles["decode"] > 0 {
		bd.warn("multi-replica-stack", "the figures are for the whole stack (%s), not for one box: judge them against a contract for that stack", desc)
	}
}

// observed folds the stack's scraped metrics into the row: GPU memory in
// use (bytes, or a share of the device) as the peak memory or the
// headroom; the KV cache's peak and the requests left waiting as the
// engine's figures (planner.EngineMetrics), which the planner warns on. Metrics are told by their id or name, as vLLM and DCGM name
// them.
func (br *brReport) observed(bd *builder) {
	r := bd.row
	var memPeak, memShare, kvPeak, waitPeak float64 = -1, -1, -1, -1
	var memPath, sharePath, kvPath, waitPath string
	for _, m := range br.metrics {
		name := strings.ToLower(m.name)
		unit := strings.ToLower(m.unit)
		switch {
		case strings.Contains(name, "kv_cache_usage") || strings.Contains(name, "gpu_cache_usage") || strings.Contains(name, "kv_cache_utilization"):
			share := m.peak
			if unit == "percent" || share > 1 {
				share /= 100
			}
			if share > kvPeak {
				kvPeak, kvPath = share, m.path
			}
		case strings.Contains(name, "num_requests_waiting") || strings.Contains(name, "requests_waiting") || strings.Contains(name, "waiting_requests"):
			if m.peak > waitPeak {
				waitPeak, waitPath = m.peak, m.path
			}
		case strings.Contains(name, "vram") || strings.Contains(name, "gpu_memory") || strings.Contains(name, "fb_used") || strings.Contains(name, "memory_used"):
			switch unit {
			case "byte", "bytes":
				if gib := m.peak / (1 << 30); gib > memPeak {
					memPeak, memPath = gib, m.path
				}
			case "mib", "mb":
				if gib := m.peak / 1024; gib > memPeak {
					memPeak, memPath = gib, m.path
				}
			case "gib", "gb":
				if m.peak > memPeak {
					memPeak, memPath = m.peak, m.path
				}
			case "percent", "fraction":
				share := m.peak
				if unit == "percent" {
					share /= 100
				}
				if share > memShare {
					memShare, sharePath = share, m.path
				}
			}
		}
	}
	if memPeak >= 0 {
		bd.setF(&r.Observed.PeakMemoryGiB, "peak_memory_gib", "peak of "+memPath+".samples", memPeak)
	}
	if memShare >= 0 && memShare <= 1 {
		bd.setF(&r.Observed.Headroom, "headroom", "computed: 1 - peak of "+sharePath+".samples", 1-memShare)
	}
	// the engine's own figures: the planner says what they mean for the
	// row (a KV cache past planner.KVCacheFull, requests left waiting)
	if kvPeak >= 0 || waitPeak >= 0 {
		e := &planner.EngineMetrics{} // Parse names the file
		if r.Paths == nil {
			r.Paths = map[string]string{}
		}
		if kvPeak >= 0 {
			e.KVCacheMax = planner.F(kvPeak)
			r.Paths["engine.kv_cache_max"] = "peak of " + kvPath + ".samples"
		}
		if waitPeak >= 0 {
			e.WaitingMax = planner.F(waitPeak)
			r.Paths["engine.waiting_max"] = "peak of " + waitPath + ".samples"
		}
		r.Engine = e
	}
}

// masked is s with any credential in it masked.
func masked(s string) string {
	m, _ := MaskSecrets(s)
	return m
}

// brTimeScale is the factor to seconds of a latency's units: s or ms, and
// for a per-token latency s/token or ms/token.
func brTimeScale(u string, perToken bool) (float64, bool) {
	if perToken {
		u = strings.TrimSuffix(strings.TrimSuffix(u, "/token"), " per token")
	}
	switch u {
	case "s":
		return 1, true
	case "ms":
		return 1e-3, true
	}
	return 0, false
}

var isoDurationRE = regexp.MustCompile(`^P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$`)

// isoDuration reads an ISO-8601 duration ("PT49.97S", "PT1H2M") in
// seconds.
func isoDuration(s string) (float64, bool) {
	m := isoDurationRE.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil || s == "P" || s == "PT" {
		return 0, false
	}
	total := 0.0
	for i, unit := range []float64{86400, 3600, 60, 1} {
		if m[i+1] == "" {
			continue
		}
		v, err := strconv.ParseFloat(m[i+1], 64)
		if err != nil {
			return 0, false
		}
		total += v * unit
	}
	return total, total > 0
}
