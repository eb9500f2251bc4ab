package importers

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"capplan/planner"
)

// genai-bench (sgl-project/genai-bench) writes an experiment folder:
// experiment_metadata.json (the model, the engine, the GPUs, the time unit
// of every latency, the command line) and one JSON per run,
// "<scenario>_<task>_concurrency_<N>_time_<T>s.json", holding
// aggregated_metrics (the run's statistics) and individual_request_metrics
// (one entry per request, which makes goodput countable). A run file is a
// row on its own; the metadata file completes the rows of the same upload
// (ApplyExperiment) and is never kept: its command line can hold an API key
// (docs/formats in the repository's docs).

// Experiment is what a genai-bench experiment_metadata.json says about the
// runs beside it. Only the fields capplan uses are kept, each masked of
// anything that looks like a credential.
type Experiment struct {
	File          string // the metadata file's name
	SHA256        string // of the metadata file as uploaded
	Model         string // api_model_name, else model
	ModelPath     string // which of the two
	ToolVersion   string // benchmark_version
	Engine        string // server_engine and server_version
	GPU           string // server_gpu_count x server_gpu_type
	TimeUnit      string // metrics_time_unit: "s" (the default) or "ms"
	Masked        int    // credentials found in the file and left out
	CommandMasked string // cmd with its credentials masked
	// OpenLoop is set when the command ran genai-bench's open-loop runner
	// (--qps-level): each run's num_concurrency then holds its QPS level,
	// the rate requests were sent at, not a number of streams.
	OpenLoop bool
}

// gbStat is one genai-bench statistic (StatField).
type gbStat struct {
	Mean num `json:"mean"`
	P50  num `json:"p50"`
	P95  num `json:"p95"`
	P99  num `json:"p99"`
}

// gbAgg is a run's aggregated_metrics.
type gbAgg struct {
	Scenario          lstr              `json:"scenario"`
	NumConcurrency    num               `json:"num_concurrency"`
	BatchSize         num               `json:"batch_size"`
	IterationType     lstr              `json:"iteration_type"`
	RunDuration       num               `json:"run_duration"`
	MeanOutputTput    num               `json:"mean_output_throughput_tokens_per_s"`
	RequestsPerSecond num               `json:"requests_per_second"`
	ErrorCodes        map[string]num    `json:"error_codes_frequency"`
	NumErrorRequests  num               `json:"num_error_requests"`
	NumCompleted      num               `json:"num_completed_requests"`
	NumRequests       num               `json:"num_requests"`
	ArrivalRate       num               `json:"arrival_requests_per_second"`
	Stats             map[string]gbStat `json:"stats"`
}

// gbReq is one entry of individual_request_metrics.
type gbReq struct {
	TTFT      num `json:"ttft"`
	TPOT      num `json:"tpot"`
	E2E       num `json:"e2e_latency"`
	OutTokens num `json:"num_output_tokens"`
	ErrorCode num `json:"error_code"`
}

// isGenAIBenchRunKey tells the first key of a genai-bench run file.
func isGenAIBenchRunKey(k string) bool {
	return k == "aggregated_metrics" || k == "individual_request_metrics"
}

// parseGenAIBench reads one genai-bench run file as a stream: the
// aggregate whole (it is small), the per-request list one entry at a time
// into compact samples.
func parseGenAIBench(l *lexer) (*File, error) {
	var agg *gbAgg
	var unit lstr
	var samples []planner.Sample
	var outTok float64
	nReq := 0
	err := l.object("", func(k string) error {
		if isGenAIBenchRunKey(k) {
			l.recognized = true
		}
		switch k {
		case "aggregated_metrics":
			agg = &gbAgg{}
			return l.decode(k, agg)
		case "_time_unit":
			return l.decode(k, &unit)
		case "individual_request_metrics":
			samples = samples[:0]
			return l.array(k, func(i int) error {
				if i >= maxPerRequest {
					return fmt.Errorf("%s: more than %d requests in one run: not a load-test result", k, maxPerRequest)
				}
				var q gbReq
				if err := l.decode(fmt.Sprintf("%s[%d]", k, i), &q); err != nil {
					return err
				}
				nReq++
				s := planner.Sample{TTFT: sec32(q.TTFT), E2E: sec32(q.E2E), ITL: sec32(q.TPOT), OutputTokens: planner.NoFigure, OK: !q.ErrorCode.set}
				if q.OutTokens.set && q.OutTokens.v >= 0 && q.OutTokens.v < 1e9 {
					s.OutputTokens = int32(q.OutTokens.v)
					if s.OK {
						outTok += q.OutTokens.v
					}
				}
				samples = append(samples, s)
				return nil
			})
		}
		return l.skip(k)
	})
	if err != nil {
		return nil, err
	}
	if err := l.finish(); err != nil {
		return nil, err
	}
	if agg == nil {
		return nil, fmt.Errorf("aggregated_metrics: missing: a genai-bench run file always has it")
	}
	// the run's own _time_unit is authoritative; files before it are in
	// seconds unless their experiment says otherwise (ApplyExperiment)
	scale := 1.0
	switch unit {
	case "", "s":
	case "ms":
		scale = 1e-3
	default:
		return nil, fmt.Errorf("_time_unit: unknown unit %q (genai-bench writes s or ms)", unit)
	}
	if scale != 1 {
		for i := range samples {
			s := &samples[i]
			for _, v := range []*float32{&s.TTFT, &s.E2E, &s.ITL} {
				if planner.Has(*v) {
					*v *= float32(scale)
				}
			}
		}
	}
	f := &File{Source: planner.Source{Format: "genai-bench", FormatVersion: "run JSON (aggregated and per-request metrics)"}}
	bd := newBuilder()
	r := bd.row
	const ap = "aggregated_metrics."
	switch it := string(agg.IterationType); it {
	case "", "num_concurrency":
		// The kind of load is the iteration's, never the presence of an
		// arrival rate: both of genai-bench's runners write
		// arrival_requests_per_second (arrivals over the run), the
		// closed-loop one too. An open-loop run stores its QPS level in
		// num_concurrency; its experiment's command says --qps-level
		// (ApplyExperiment), and a level that is not a whole number
		// cannot be a number of streams.
		r.LoadKind = planner.LoadConcurrency
		loadPath := ap + "num_concurrency"
		if v := agg.NumConcurrency; v.set && v.v > 0 && v.v != math.Trunc(v.v) {
			r.LoadKind = planner.LoadRate
			loadPath += " (not a whole number of streams: genai-bench's QPS level of an open-loop run)"
		}
		bd.fig(&r.Load, "load", loadPath, agg.NumConcurrency, 1)
		if agg.ArrivalRate.set {
			bd.fig(&r.SendRate, "send_rate", ap+"arrival_requests_per_second (requests sent over the run)", agg.ArrivalRate, 1)
		}
	case "batch_size":
		return nil, fmt.Errorf("%siteration_type: batch_size: an embedding batch-size run, not a serving load level", ap)
	default:
		return nil, fmt.Errorf("%siteration_type: unknown iteration %q", ap, it)
	}
	bd.count(&r.Successful, "successful", ap+"num_completed_requests", agg.NumCompleted)
	bd.count(&r.Errored, "errored", ap+"num_error_requests", agg.NumErrorRequests)
	failed := 0
	for _, s := range samples {
		if !s.OK {
			failed++
		}
	}
	// error_rate and num_error_requests have been seen at 0 beside failed
	// requests: the requests themselves count
	if nReq > 0 && r.Errored != nil && failed > *r.Errored {
		bd.countInt(&r.Errored, "errored", "computed: individual_request_metrics with an error_code", failed)
		if r.Successful != nil && *r.Successful+failed > nReq {
			bd.countInt(&r.Successful, "successful", "computed: individual_request_metrics without an error_code", nReq-failed)
		}
	}
	if agg.NumRequests.set && r.Successful != nil && r.Errored != nil && int(agg.NumRequests.v) == *r.Successful+*r.Errored {
		bd.count(&r.Attempted, "attempted", ap+"num_requests", agg.NumRequests)
	} else if r.Successful != nil && r.Errored != nil {
		bd.countInt(&r.Attempted, "attempted", "computed: num_completed_requests + num_error_requests", *r.Successful+*r.Errored)
	}
	if r.Successful == nil && bd.err == nil {
		return nil, fmt.Errorf("%snum_completed_requests: missing", ap)
	}
	bd.fig(&r.DurationS, "duration_s", ap+"run_duration", agg.RunDuration, 1)
	bd.fig(&r.RequestRate, "request_rate", ap+"requests_per_second", agg.RequestsPerSecond, 1)
	if nReq > 0 && r.DurationS != nil && *r.DurationS > 0 {
		bd.setF(&r.OutputTokenRate, "output_token_rate", "computed: num_output_tokens of the successful individual_request_metrics / run_duration", outTok / *r.DurationS)
	} else {
		bd.fig(&r.OutputTokenRate, "output_token_rate", ap+"mean_output_throughput_tokens_per_s", agg.MeanOutputTput, 1)
	}
	if ok := intv(r.Successful); ok > 0 {
		st := func(k string) *gbStat {
			if s, ok := agg.Stats[k]; ok {
				return &s
			}
			return nil
		}
		if s := st("num_input_tokens"); s != nil {
			bd.fig(&r.PromptTokensMean, "prompt_tokens_mean", ap+"stats.num_input_tokens.mean", s.Mean, 1)
		}
		if s := st("num_output_tokens"); s != nil {
			bd.fig(&r.OutputTokensMean, "output_tokens_mean", ap+"stats.num_output_tokens.mean", s.Mean, 1)
		}
		for _, m := range []struct {
			key, name string
			dst       *planner.Stat
		}{{"ttft", "ttft_s", &r.TTFT}, {"e2e_latency", "e2e_s", &r.E2E}, {"tpot", "tpot_s", &r.TPOT}} {
			s := st(m.key)
			if s == nil {
				continue
			}
			kp := ap + "stats." + m.key
			bd.stat(m.dst, m.name, statSrc{mean: s.Mean, meanP: kp + ".mean", p50: s.P50, p50P: kp + ".p50", p95: s.P95, p95P: kp + ".p95", p99: s.P99, p99P: kp + ".p99"}, scale)
			m.dst.N = ok
		}
		r.TPOT.Definition = "genai-bench tpot: per request (latency - TTFT)/(output tokens - 1)"
		if placeholderTTFT(samples) {
			r.TTFT = planner.Stat{}
			for k := range r.Paths {
				if strings.HasPrefix(k, "ttft_s") {
					delete(r.Paths, k)
				}
			}
			for i := range samples {
				samples[i].TTFT = planner.NoFigure
			}
			bd.warn("ttft-placeholder", "every request has the same TTFT of 0.001 s, genai-bench's placeholder for a run without streaming: it is not a measurement and is left out")
		}
	}
	if len(agg.ErrorCodes) > 0 {
		codes := make([]string, 0, len(agg.ErrorCodes))
		for c, n := range agg.ErrorCodes {
			if n.set && n.v > 0 {
				codes = append(codes, fmt.Sprintf("%s x%d", c, int(n.v)))
			}
		}
		sort.Strings(codes)
		if len(codes) > 0 {
			bd.warn("error-codes", "error codes: %s", strings.Join(codes, ", "))
		}
	}
	if unit == "" {
		bd.warn("time-unit", "genai-bench writes latencies in the experiment's metrics_time_unit; without its experiment_metadata.json in the same upload they are read as seconds, its default")
	}
	row, err := bd.finish()
	if err != nil {
		return nil, err
	}
	row.Samples = samples
	f.Rows = append(f.Rows, row)
	return f, nil
}

// placeholderTTFT tells a run whose successful requests all carry the
// fixed TTFT genai-bench writes without streaming.
func placeholderTTFT(samples []planner.Sample) bool {
	n := 0
	for _, s := range samples {
		if !s.OK {
			continue
		}
		if s.TTFT != 0.001 {
			return false
		}
		n++
	}
	return n > 0
}

// sec32 is a per-request figure as a sample's float32, NoFigure when absent.
func sec32(n num) float32 {
	if !n.set || n.v < 0 || n.v > maxFigure {
		return planner.NoFigure
	}
	return float32(n.v)
}

// isGenAIBenchMeta tells an experiment_metadata.json by its keys.
func isGenAIBenchMeta(has func(string) bool) bool {
	return has("benchmark_version") && has("api_backend") && (has("traffic_scenario") || has("experiment_folder_name") || has("metrics_time_unit"))
}

// parseGenAIBenchMeta reads an experiment_metadata.json into f.Experiment;
// the file holds no rows.
func parseGenAIBenchMeta(f *File, d doc) error {
	o, p := d.obj, d.prefix
	f.Source.Format, f.Source.FormatVersion = "genai-bench", "experiment metadata"
	e := &Experiment{TimeUnit: "s"}
	str := func(k string) string {
		var v lstr
		o.get(p, k, &v)
		s, n := MaskSecrets(string(v))
		e.Masked += n
		return strings.TrimSpace(s)
	}
	e.Model, e.ModelPath = str("api_model_name"), p+"api_model_name"
	if e.Model == "" {
		e.Model, e.ModelPath = str("model"), p+"model"
	}
	e.ToolVersion = str("benchmark_version")
	e.Engine = strings.TrimSpace(str("server_engine") + " " + str("server_version"))
	var gpus num
	o.get(p, "server_gpu_count", &gpus)
	if t := str("server_gpu_type"); t != "" {
		e.GPU = t
		if gpus.set && gpus.v > 0 {
			e.GPU = strconv.Itoa(int(gpus.v)) + " x " + t
		}
	}
	switch u := str("metrics_time_unit"); u {
	case "", "s":
	case "ms":
		e.TimeUnit = "ms"
	default:
		return fmt.Errorf("%smetrics_time_unit: unknown unit %q (genai-bench writes s or ms)", p, u)
	}
	e.CommandMasked, _ = MaskSecrets(str("cmd"))
	e.OpenLoop = qpsLevelFlag.MatchString(e.CommandMasked)
	// the credentials of auth_config and any other key named like one
	// are not read at all; count them for the warning.
	for k := range o {
		if isSecretKey(k) {
			e.Masked++
		}
	}
	if e.Model == "" {
		e.ModelPath = ""
	}
	f.Experiment = e
	return nil
}

// ApplyExperiments completes the files of one upload with the genai-bench
// experiments among them (ApplyExperiment). An upload holds one
// experiment at most, and an experiment comes with its runs: otherwise
// the error says what to upload instead.
func ApplyExperiments(files []*File, es []*Experiment) error {
	if len(es) == 0 {
		return nil
	}
	if len(es) > 1 {
		var names []string
		for _, e := range es {
			names = append(names, e.File)
		}
		return &Error{File: names[1], Msg: fmt.Sprintf("a second genai-bench experiment in one upload (%s): upload one experiment folder at a time", strings.Join(names, ", "))}
	}
	n := 0
	for _, f := range files {
		if f.Source.Format == "genai-bench" && f.Experiment == nil {
			n++
		}
	}
	if n == 0 {
		return &Error{File: es[0].File, Msg: "genai-bench's experiment_metadata.json holds no results, only what the runs were: upload it together with the run files of its folder (*_concurrency_<N>_time_<T>s.json), or the folder as a zip or tar"}
	}
	ApplyExperiment(files, es[0])
	return nil
}

// CompleteUpload puts together the files of one upload as the web upload
// does: a genai-bench experiment_metadata.json completes its runs and an
// AIPerf server_metrics_export.json its run, each refused in words when
// its runs are not there. It returns the files that hold rows, also
// beside an error.
func CompleteUpload(files []*File) ([]*File, error) {
	var es []*Experiment
	var sms []*ServerMetrics
	var rows []*File
	for _, f := range files {
		switch {
		case f.Experiment != nil:
			es = append(es, f.Experiment)
		case f.ServerMetrics != nil:
			sms = append(sms, f.ServerMetrics)
		default:
			rows = append(rows, f)
		}
	}
	if err := ApplyExperiments(rows, es); err != nil {
		return rows, err
	}
	if len(sms) > 0 {
		return rows, ApplyServerMetrics(rows, sms)
	}
	return rows, nil
}

// qpsLevelFlag finds genai-bench's open-loop option in a command line.
var qpsLevelFlag = regexp.MustCompile(`(^|\s)--qps-level(=|\s|$)`)

// ApplyExperiment completes the genai-bench run files of one upload with
// their experiment's metadata: the model, the tool version, and the time
// unit of their latencies (milliseconds scaled to seconds), and the kind of
// load when the command ran the open-loop runner. Files of other
// formats are left as they are.
func ApplyExperiment(files []*File, e *Experiment) {
	for _, f := range files {
		if f.Source.Format != "genai-bench" || f.Experiment != nil {
			continue
		}
		ownUnit := true
		for _, r := range f.Rows {
			for _, w := range r.Warnings {
				ownUnit = ownUnit && w.Code != "time-unit"
			}
		}
		f.Source.ToolVersion = e.ToolVersion
		if f.Model == "" && e.Model != "" {
			f.Model = e.Model
			f.Warnings = dropWarning(f.Warnings, "model-unknown")
		}
		scale := 1.0
		if e.TimeUnit == "ms" && !ownUnit { // a run's own _time_unit wins
			scale = 1e-3
		}
		for i := range f.Rows {
			r := &f.Rows[i]
			r.Source.ToolVersion = f.Source.ToolVersion
			if r.Model == "" && e.Model != "" {
				r.Model = e.Model
				r.Paths["model"] = e.File + ": " + e.ModelPath
			}
			r.Warnings = dropWarning(r.Warnings, "time-unit")
			if e.OpenLoop && r.LoadKind == planner.LoadConcurrency {
				r.LoadKind = planner.LoadRate
				r.Paths["load"] += " (the QPS level: " + e.File + ": cmd runs the open-loop runner, --qps-level)"
				if w := rateMismatch(r); w != nil {
					r.Warnings = append(r.Warnings, *w)
				}
			}
			if scale != 1 {
				for _, s := range []*planner.Stat{&r.TTFT, &r.E2E, &r.TPOT} {
					for _, v := range []*float64{s.Mean, s.P50, s.P95, s.P99} {
						if v != nil {
							*v *= scale
						}
					}
				}
				for j := range r.Samples {
					s := &r.Samples[j]
					for _, v := range []*float32{&s.TTFT, &s.E2E, &s.ITL} {
						if planner.Has(*v) {
							*v *= float32(scale)
						}
					}
				}
			}
			if !ownUnit {
				r.Paths["time_unit"] = e.File + ": metrics_time_unit = " + e.TimeUnit
			}
		}
	}
}

func dropWarning(ws []planner.Warning, code string) []planner.Warning {
	out := ws[:0]
	for _, w := range ws {
		if w.Code != code {
			out = append(out, w)
		}
	}
	return out
}
