package importers

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"capplan/planner"
)

// aMetric is one AIPerf/GenAI-Perf metric object.
type aMetric struct {
	Unit  lstr `json:"unit"`
	Avg   num  `json:"avg"`
	P50   num  `json:"p50"`
	P95   num  `json:"p95"`
	P99   num  `json:"p99"`
	Count num  `json:"count"`
}

// unitScale converts a time unit to seconds.
func unitScale(u string) (float64, bool) {
	switch strings.ToLower(u) {
	case "s", "sec", "secs", "second", "seconds":
		return 1, true
	case "ms", "msec", "millisecond", "milliseconds":
		return 1e-3, true
	case "us", "µs", "usec", "microseconds":
		return 1e-6, true
	case "ns", "nsec", "nanoseconds":
		return 1e-9, true
	}
	return 0, false
}

// parseAIPerf reads an AIPerf profile_export_aiperf.json or a GenAI-Perf
// *_genai_perf.json summary (same shape; AIPerf adds counts and errors).
// AIPerf 0.1.x keeps the metric objects under "records" (keyed by the
// metric's tag, or a list of objects carrying it); later releases put them
// at the top level. Every time figure is scaled by its own "unit".
func parseAIPerf(f *File, d doc) error {
	o, p := d.obj, d.prefix
	bd := newBuilder()
	r := bd.row
	mo, mp, recs, err := aiperfMetrics(o, p)
	if err != nil {
		return err
	}
	// AIPerf writes aiperf_version and schema_version from 0.4 on; its
	// 0.1-0.3 files are told from GenAI-Perf by keys GenAI-Perf never wrote.
	isAI := recs
	for _, k := range aiperfOnlyKeys {
		if _, ok := o[k]; ok {
			isAI = true
		}
	}
	if isAI {
		var ver, schema lstr
		o.get(p, "aiperf_version", &ver)
		o.get(p, "schema_version", &schema)
		f.Source.Format, f.Source.ToolVersion = "aiperf", string(ver)
		var id lstr
		o.get(p, "benchmark_id", &id)
		f.BenchmarkID = strings.TrimSpace(string(id))
		switch {
		case schema != "":
			f.Source.FormatVersion = "schema " + string(schema)
		case recs:
			f.Source.FormatVersion = "0.1.x (metrics under records)"
		case ver != "":
			f.Source.FormatVersion = "before schema 1.1"
		default:
			f.Source.FormatVersion = "0.2-0.3 (no aiperf_version)"
		}
	} else {
		f.Source.Format, f.Source.FormatVersion = "genai-perf", "summary JSON"
	}
	// mkey is the key a metric has in this file: 0.1.x records use short
	// tags for some ("ttft" for time_to_first_token).
	mkey := func(key string) string {
		if _, ok := mo[key]; !ok && recs {
			if s, ok := aiperfShortTags[key]; ok {
				if _, ok := mo[s]; ok {
					return s
				}
			}
		}
		return key
	}
	metric := func(key string) (*aMetric, error) {
		var m aMetric
		ok, err := mo.get(mp, mkey(key), &m)
		if !ok || err != nil {
			return nil, err
		}
		return &m, nil
	}
	var firstErr error
	get := func(key string) *aMetric {
		m, err := metric(key)
		if err != nil && firstErr == nil {
			firstErr = err
		}
		return m
	}
	// the load and the model from input_config
	var ic json.RawMessage
	if _, err := o.get(p, "input_config", &ic); err != nil {
		return err
	}
	model, kind, load, lpath := aiperfConfig(ic)
	r.Model = model
	if f.Model == "" {
		f.Model = model
	}
	r.LoadKind = kind
	if load != nil {
		bd.setF(&r.Load, "load", p+lpath, *load)
	} else {
		if r.LoadKind == "" {
			r.LoadKind = planner.LoadConcurrency
		}
		bd.warn("load-unknown", "the load level is not in input_config; enter it by hand")
	}
	avg := func(dst **float64, name, key string, scale float64) *aMetric {
		m := get(key)
		if m != nil {
			bd.fig(dst, name, mp+mkey(key)+".avg", m.Avg, scale)
		}
		return m
	}
	var okF *float64
	if avg(&okF, "successful", "request_count", 1) == nil || okF == nil {
		if bd.err != nil {
			return bd.err // given but not a count: named, not taken for absent
		}
		if firstErr != nil {
			return firstErr
		}
		// AIPerf leaves request_count out when no request succeeded: a
		// failed run is a row of 0 successes with its errors, not a
		// refusal (docs/method.md, "Rows that count").
		if !isAI {
			return fmt.Errorf("%srequest_count: missing", mp)
		}
		bd.countInt(&r.Successful, "successful", mp+"request_count (absent: no request succeeded)", 0)
	} else {
		bd.count(&r.Successful, "successful", mp+mkey("request_count")+".avg", num{v: *okF, set: true})
	}
	if isAI {
		var errF *float64
		if avg(&errF, "errored", "error_request_count", 1) != nil && bd.err != nil {
			return bd.err
		} else if errF != nil {
			bd.count(&r.Errored, "errored", mp+mkey("error_request_count")+".avg", num{v: *errF, set: true})
		} else if n, ok := errorSummary(o, p, bd); ok {
			bd.countInt(&r.Errored, "errored", p+"error_summary (sum of count)", n)
		} else if intv(r.Successful) == 0 {
			return fmt.Errorf("%sno request succeeded (request_count absent) and the file records no errors (error_request_count, error_summary): not a result", p)
		} else {
			bd.countInt(&r.Errored, "errored", mp+"error_request_count (absent: 0)", 0)
		}
		if r.Successful != nil && r.Errored != nil {
			bd.countInt(&r.Attempted, "attempted", "computed: request_count + error_request_count", *r.Successful+*r.Errored)
		}
	} else {
		bd.warn("errors-unknown", "GenAI-Perf does not record failed requests")
	}
	avg(&r.RequestRate, "request_rate", "request_throughput", 1)
	avg(&r.OutputTokenRate, "output_token_rate", "output_token_throughput", 1)
	if m := get("benchmark_duration"); m != nil {
		scale := 1.0
		if s, ok := unitScale(string(m.Unit)); ok {
			scale = s
		}
		bd.fig(&r.DurationS, "duration_s", mp+mkey("benchmark_duration")+".avg", m.Avg, scale)
	} else if d, ok := isoSpan(o, p); ok {
		bd.setF(&r.DurationS, "duration_s", "computed: "+p+"end_time - "+p+"start_time", d)
	}
	if r.DurationS == nil && r.RequestRate != nil && *r.RequestRate > 0 && r.Successful != nil {
		bd.setF(&r.DurationS, "duration_s", "computed: request_count / request_throughput", float64(*r.Successful) / *r.RequestRate)
	}
	if intv(r.Successful) > 0 {
		avg(&r.PromptTokensMean, "prompt_tokens_mean", "input_sequence_length", 1)
		avg(&r.OutputTokensMean, "output_tokens_mean", "output_sequence_length", 1)
		for _, s := range []struct {
			key  string
			st   *planner.Stat
			name string
		}{{"time_to_first_token", &r.TTFT, "ttft_s"}, {"time_to_first_output_token", &r.TTFOT, "ttfot_s"}, {"request_latency", &r.E2E, "e2e_s"}, {"inter_token_latency", &r.TPOT, "tpot_s"}, {"inter_chunk_latency", &r.ITL, "itl_s"}} {
			m := get(s.key)
			if m == nil {
				continue
			}
			scale, ok := unitScale(string(m.Unit))
			if !ok {
				return fmt.Errorf("%s%s.unit: unknown time unit %q", mp, s.key, m.Unit)
			}
			kp := mp + mkey(s.key)
			bd.stat(s.st, s.name, statSrc{mean: m.Avg, meanP: kp + ".avg", p50: m.P50, p50P: kp + ".p50", p95: m.P95, p95P: kp + ".p95", p99: m.P99, p99P: kp + ".p99"}, scale)
			if m.Count.set && m.Count.v >= 0 && m.Count.v < maxFigure {
				s.st.N = int(m.Count.v)
			} else if s.key != "inter_chunk_latency" {
				s.st.N = *r.Successful
			}
		}
		r.TPOT.Definition = "AIPerf/GenAI-Perf inter_token_latency: per request (latency - TTFT)/(output tokens - 1), request-weighted"
		if r.ITL.Mean != nil || r.ITL.P50 != nil {
			r.ITL.Definition = "AIPerf inter_chunk_latency: every gap between streamed chunks, pooled"
		}
	}
	if firstErr != nil {
		return firstErr
	}
	aiperfValidity(o, p, mo, mp, bd)
	row, err := bd.finish()
	if err != nil {
		return err
	}
	f.Rows = append(f.Rows, row)
	return nil
}

// isAIPerf tells an AIPerf summary by its keys: the metric objects at the
// top level with a key only AIPerf writes, the 0.1.x "records" object, or
// a failed run that has errors but no request_count.
func isAIPerf(o jsonObj) bool {
	has := func(k string) bool { _, ok := o[k]; return ok }
	only := false
	for _, k := range aiperfOnlyKeys {
		only = only || has(k)
	}
	if only && has("request_count") && isMetricObj(o, "request_count") {
		return true
	}
	if raw, ok := o["records"]; ok && (has("input_config") || only) {
		if m, _, _, err := aiperfMetrics(jsonObj{"records": raw}, ""); err == nil {
			for _, k := range []string{"request_count", "time_to_first_token", "ttft", "request_latency", "error_request_count"} {
				if isMetricObj(m, k) {
					return true
				}
			}
		}
	}
	return only && has("input_config") && (has("error_request_count") && isMetricObj(o, "error_request_count") || has("error_summary"))
}

// isMetricObj tells whether o[k] is an object with a "unit".
func isMetricObj(o jsonObj, k string) bool {
	var m struct {
		Unit *string `json:"unit"`
	}
	return json.Unmarshal(o[k], &m) == nil && m.Unit != nil
}

// aiperfShortTags are the short tags AIPerf 0.1.x keys some metrics by
// under records.
var aiperfShortTags = map[string]string{
	"time_to_first_token": "ttft", "time_to_second_token": "ttst", "inter_token_latency": "itl",
	"input_sequence_length": "isl", "output_sequence_length": "osl", "time_to_first_output_token": "ttfot",
	"inter_chunk_latency": "icl",
}

// aiperfOnlyKeys are top-level keys AIPerf writes and GenAI-Perf never did.
var aiperfOnlyKeys = []string{"aiperf_version", "schema_version", "error_summary", "was_cancelled", "benchmark_duration"}

// aiperfMetrics returns the object that holds the metric objects and its
// path prefix: the top level, or AIPerf 0.1.x's "records" (an object keyed
// by metric tag, or a list of metric objects each naming its "tag").
func aiperfMetrics(o jsonObj, p string) (jsonObj, string, bool, error) {
	raw, ok := o["records"]
	if !ok {
		return o, p, false, nil
	}
	rp := p + "records"
	switch {
	case len(raw) > 0 && raw[0] == '{':
		m, err := toObj(raw, rp)
		return m, rp + ".", true, err
	case len(raw) > 0 && raw[0] == '[':
		var list []json.RawMessage
		if err := json.Unmarshal(sanitizeAll(raw), &list); err != nil {
			return nil, "", true, tokenErr(rp, err)
		}
		m := jsonObj{}
		for i, e := range list {
			var t struct {
				Tag lstr `json:"tag"`
			}
			if json.Unmarshal(e, &t) != nil || t.Tag == "" {
				return nil, "", true, fmt.Errorf("%s[%d]: a metric record without its tag", rp, i)
			}
			m[string(t.Tag)] = e
		}
		return m, rp + ".", true, nil
	}
	return nil, "", true, fmt.Errorf("%s: expected an object of metrics, found %s", rp, clip(raw))
}

// aiperfValidity turns what an AIPerf run says about itself into row
// warnings: cancelled, an invalid submission, context overflows.
func aiperfValidity(o jsonObj, p string, mo jsonObj, mp string, bd *builder) {
	var cancelled bool
	if o.get(p, "was_cancelled", &cancelled); cancelled {
		bd.warn("cancelled", "the run was cancelled before it finished (%swas_cancelled)", p)
	}
	// submission_valid at the top level or, from 0.8, in metadata, with
	// the reasons beside it
	var md struct {
		Valid   *bool  `json:"submission_valid"`
		Reasons []lstr `json:"submission_invalid_reasons"`
	}
	where := p
	if o.get(p, "metadata", &md); md.Valid == nil {
		o.get(p, "submission_valid", &md.Valid)
		o.get(p, "submission_invalid_reasons", &md.Reasons)
	} else {
		where = p + "metadata."
	}
	if md.Valid != nil && !*md.Valid {
		why := ""
		var rs []string
		for _, r := range md.Reasons {
			if s, _ := MaskSecrets(string(r)); strings.TrimSpace(s) != "" {
				rs = append(rs, s)
			}
		}
		if len(rs) > 0 {
			why = ": " + strings.Join(rs, "; ")
		}
		bd.warn("submission-invalid", "AIPerf marks this run as not valid for submission (%ssubmission_valid: false)%s", where, why)
	}
	for _, src := range []struct {
		o jsonObj
		p string
	}{{o, p}, {mo, mp}} {
		raw, ok := src.o["context_overflow_count"]
		if !ok {
			continue
		}
		var n num
		if len(raw) > 0 && raw[0] == '{' {
			var m aMetric
			_ = json.Unmarshal(raw, &m)
			n = m.Avg
		} else {
			_ = json.Unmarshal(raw, &n)
		}
		if n.set && n.v > 0 && n.v < maxFigure {
			bd.warn("context-overflow", "%d requests did not fit the model's context window (%scontext_overflow_count)", int(n.v), src.p)
		}
		break
	}
}

// isoSpan returns end_time - start_time in seconds when both are ISO
// timestamps (AIPerf writes them local, without a zone: the difference
// holds all the same).
func isoSpan(o jsonObj, p string) (float64, bool) {
	var a, b lstr
	o.get(p, "start_time", &a)
	o.get(p, "end_time", &b)
	ta, ok1 := parseISO(string(a))
	tb, ok2 := parseISO(string(b))
	if !ok1 || !ok2 || !tb.After(ta) {
		return 0, false
	}
	return tb.Sub(ta).Seconds(), true
}

// parseISO reads the ISO-8601 forms the tools write, with or without a
// zone and fractional seconds.
func parseISO(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// errorSummary sums the counts of AIPerf's error_summary (a list of error
// kinds with their counts); an empty list is 0 errors.
func errorSummary(o jsonObj, p string, bd *builder) (int, bool) {
	var es []struct {
		Count num `json:"count"`
	}
	if has, err := o.get(p, "error_summary", &es); !has || err != nil {
		return 0, false
	}
	n := 0
	for i, e := range es {
		if !e.Count.set || !bd.check("errored", fmt.Sprintf("%serror_summary[%d].count", p, i), e.Count.v) {
			return 0, false
		}
		n += int(e.Count.v)
	}
	return n, true
}

// aiperfConfig finds the model and load level in the input_config of any
// known AIPerf or GenAI-Perf generation. Each part is read on its own, so
// that a part of an unexpected shape (endpoint as a string in the flat
// GenAI-Perf layout) loses only itself.
func aiperfConfig(raw json.RawMessage) (model string, kind planner.LoadKind, load *float64, path string) {
	var parts map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &parts) != nil {
		return "", "", nil, ""
	}
	part := func(key string, v any) { _ = json.Unmarshal(parts[key], v) }
	var c struct {
		Model       []lstr
		ModelNames  []lstr
		Concurrency num
		RequestRate num
		Endpoint    struct {
			ModelNames []lstr `json:"model_names"`
		}
		Models struct {
			Items []struct {
				Name lstr `json:"name"`
			} `json:"items"`
		}
		Loadgen struct {
			Concurrency num `json:"concurrency"`
			RequestRate num `json:"request_rate"`
		}
		PerfAnalyzer struct {
			Stimulus struct {
				Concurrency num `json:"concurrency"`
				RequestRate num `json:"request_rate"`
			} `json:"stimulus"`
		}
		Phases []struct {
			Name        lstr `json:"name"`
			Type        lstr `json:"type"`
			Exclude     bool `json:"exclude_from_results"`
			Concurrency num  `json:"concurrency"`
			RequestRate num  `json:"request_rate"`
			Rate        num  `json:"rate"`
		}
	}
	var one lstr
	part("model", &c.Model)
	if len(c.Model) == 0 {
		if part("model", &one); one != "" {
			c.Model = []lstr{one}
		}
	}
	part("model_names", &c.ModelNames)
	part("concurrency", &c.Concurrency)
	part("request_rate", &c.RequestRate)
	part("endpoint", &c.Endpoint)
	part("models", &c.Models)
	part("loadgen", &c.Loadgen)
	part("perf_analyzer", &c.PerfAnalyzer)
	part("phases", &c.Phases)
	for _, m := range [][]lstr{c.Model, c.ModelNames, c.Endpoint.ModelNames} {
		if len(m) > 0 && model == "" {
			model = string(m[0])
		}
	}
	if model == "" && len(c.Models.Items) > 0 {
		model = string(c.Models.Items[0].Name)
	}
	pick := func(conc, rate num, where string) bool {
		switch {
		case rate.set && rate.v > 0:
			kind, load, path = planner.LoadRate, &rate.v, where+"request_rate"
		case conc.set && conc.v > 0:
			kind, load, path = planner.LoadConcurrency, &conc.v, where+"concurrency"
		default:
			return false
		}
		return true
	}
	for i, ph := range c.Phases {
		if ph.Exclude {
			continue
		}
		w := fmt.Sprintf("input_config.phases[%d].", i)
		if string(ph.Type) == "concurrency" {
			if ph.Concurrency.set {
				kind, load, path = planner.LoadConcurrency, &ph.Concurrency.v, w+"concurrency"
				return
			}
		}
		if ph.Rate.set {
			kind, load, path = planner.LoadRate, &ph.Rate.v, w+"rate"
			return
		}
		if pick(ph.Concurrency, ph.RequestRate, w) {
			return
		}
	}
	if pick(c.Loadgen.Concurrency, c.Loadgen.RequestRate, "input_config.loadgen.") ||
		pick(c.PerfAnalyzer.Stimulus.Concurrency, c.PerfAnalyzer.Stimulus.RequestRate, "input_config.perf_analyzer.stimulus.") ||
		pick(c.Concurrency, c.RequestRate, "input_config.") {
		return
	}
	return model, "", nil, ""
}
