package importers

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
)

// jsonObj is one decoded JSON object with the keys kept raw.
type jsonObj map[string]json.RawMessage

// doc is one record of a summary file: an object, where it sits (the
// prefix for paths) and what its per-request arrays held.
type doc struct {
	obj    jsonObj
	prefix string   // "" for a single object, "[2]." for an array element, "line 3: " for JSONL
	req    *perReq  // the per-request arrays, streamed; nil when there were none
	big    []string // keys whose values were too large to keep (skipped)
}

// where is the prefix as the start of a message: "[2]: ", "line 3: " or "".
func (d doc) where() string { return where(d.prefix) }

func where(prefix string) string {
	if strings.HasSuffix(prefix, ".") {
		return strings.TrimSuffix(prefix, ".") + ": "
	}
	return prefix
}

// maxRows bounds the load levels of one file: a load test has a handful,
// a sweep a few dozen; a file with more is not one.
const maxRows = 10000

// summaryReader reads the summary formats (every format but GuideLLM) as
// a stream of records: a single object, an array of objects (vLLM sweep
// summary) or one object per line (JSONL). Each record is read with its
// small values kept raw and its per-request arrays streamed into compact
// columns; it is classified and turned into its row before the next one is
// read, so memory holds one record at a time whatever the file size.
type summaryReader struct {
	w    *lexer
	f    *File
	dups []string // duplicate-key warnings, in file order
}

// parseSummaries reads the records of a summary file.
func parseSummaries(w *lexer) (*File, error) {
	w.countLines = true
	s := &summaryReader{w: w}
	c, err := w.peek("")
	if err != nil {
		return nil, err
	}
	if c == '[' {
		n := 0
		err = w.array("", func(i int) error {
			n++
			p := fmt.Sprintf("[%d]", i)
			if c, err := w.peek(p); err != nil {
				return err
			} else if c != '{' {
				return w.unexpected(p, "an object")
			}
			d, g, err := s.readRecord(p, p+".", false)
			if err != nil || g != nil {
				return err
			}
			return s.add(d)
		})
		if err == nil && n == 0 {
			return nil, fmt.Errorf("the file is an empty array: no results")
		}
		if err == nil {
			if err = w.finish(); err != nil {
				err = fmt.Errorf("after the top-level array: %w", err)
			}
		}
		if err != nil {
			return nil, err
		}
		return s.done()
	}
	// one object, or one object per line
	var first *doc
	for i := 0; ; i++ {
		c, err := w.peekMore()
		if err == errEnd {
			break
		}
		if err != nil {
			return nil, err
		}
		ln := w.line()
		lp := fmt.Sprintf("line %d", ln)
		if c != '{' {
			if i == 0 {
				return nil, w.unexpected("", "an object")
			}
			return nil, w.unexpected(lp, "an object")
		}
		path, prefix := lp, lp+": "
		if i == 0 {
			path, prefix = "", ""
		}
		d, g, err := s.readRecord(path, prefix, i == 0)
		if err != nil {
			return nil, err
		}
		if g != nil { // a GuideLLM report whose first key is not one of its own
			return g.finishFrom(w)
		}
		if i == 0 {
			// a single object, or the first line of JSONL: known once the next one starts
			first = d
			if _, err := w.peekMore(); err == errEnd {
				return s.addDone(first)
			} else if err != nil {
				return nil, err
			}
			first.prefix = fmt.Sprintf("line %d: ", ln)
			if err := s.add(first); err != nil {
				return nil, err
			}
			continue
		}
		if err := s.add(d); err != nil {
			return nil, err
		}
	}
	return s.done()
}

// addDone adds the one record of a single-object file.
func (s *summaryReader) addDone(d *doc) (*File, error) {
	if err := s.add(d); err != nil {
		return nil, err
	}
	return s.done()
}

// add classifies one record and builds its row.
func (s *summaryReader) add(d *doc) error {
	kind, err := classify(d.obj, d.where())
	if err != nil {
		// a wrapper object holding several results keyed by a name
		if recs := unwrap(d); recs != nil {
			for _, r := range recs {
				if err := s.add(r); err != nil {
					return err
				}
			}
			return nil
		}
		return err
	}
	s.w.recognized = true
	if s.f == nil {
		s.f = &File{}
	} else if s.f.Source.Format != kind.name {
		return fmt.Errorf("%smixes %s and %s records in one file", d.where(), s.f.Source.Format, kind.name)
	}
	for _, k := range d.big {
		if kind.uses(k) {
			return tooBigError(d.prefix + k)
		}
	}
	if err := kind.parse(s.f, *d); err != nil {
		return err
	}
	if len(s.f.Rows) > maxRows {
		return fmt.Errorf("more than %d load levels in one file: not a load-test result", maxRows)
	}
	return nil
}

// done finishes the file.
func (s *summaryReader) done() (*File, error) {
	if s.f != nil && (s.f.Experiment != nil || s.f.ServerMetrics != nil) && len(s.f.Rows) == 0 {
		return s.f, nil
	}
	if s.f == nil || len(s.f.Rows) == 0 {
		return nil, fmt.Errorf("no load levels in the file")
	}
	s.f.Warnings = append(s.f.Warnings, dupWarnings(s.dups)...)
	return s.f, nil
}

// unwrap returns the records of an object that holds several results under
// names of its own (LLMPerf summaries keyed by concurrency, say), or nil.
func unwrap(d *doc) []*doc {
	if len(d.obj) == 0 || d.req != nil {
		return nil
	}
	keys := make([]string, 0, len(d.obj))
	for k, v := range d.obj {
		if len(v) == 0 || v[0] != '{' {
			return nil
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []*doc
	kind := ""
	for _, k := range keys {
		o, err := toObj(d.obj[k], d.prefix+k)
		if err != nil {
			return nil
		}
		c, err := classify(o, "")
		if err != nil || kind != "" && c.name != kind {
			return nil
		}
		kind = c.name
		out = append(out, &doc{obj: o, prefix: d.prefix + k + "."})
	}
	return out
}

// toObj decodes v as an object.
func toObj(v json.RawMessage, where string) (jsonObj, error) {
	var o jsonObj
	if len(v) == 0 || v[0] != '{' {
		return nil, fmt.Errorf("%s: expected an object, found %s", orRoot(where), clip(v))
	}
	if err := json.Unmarshal(sanitizeAll(v), &o); err != nil {
		return nil, tokenErr(where, err)
	}
	return o, nil
}

// format is one of the small summary formats.
type format struct {
	name  string
	parse func(f *File, d doc) error
}

// uses tells whether the format reads key; a value too large to keep is
// refused only when the format needs it.
func (k format) uses(key string) bool {
	switch key {
	case "generated_texts", "server_info", "telemetry_stats", "telemetry_data", "input_config", "run_info", "sessions":
		return key == "input_config" || key == "server_info" && k.name == "sglang"
	}
	return true
}

// classify picks the format of one record from its keys, or explains what
// the record is when it is not a client result. where starts messages.
func classify(o jsonObj, where string) (format, error) {
	has := func(k string) bool { _, ok := o[k]; return ok }
	hasPrefix := func(p string) bool {
		for k := range o {
			if strings.HasPrefix(k, p) {
				return true
			}
		}
		return false
	}
	isMetricObj := func(k string) bool {
		var m struct {
			Unit *string `json:"unit"`
		}
		return json.Unmarshal(o[k], &m) == nil && m.Unit != nil
	}
	switch {
	case has("aggregation_type") && has("per_combination_metrics"):
		return format{}, fmt.Errorf("%sthis is an AIPerf sweep aggregate (profile_export_aiperf_sweep.json); import each run's profile_export_aiperf.json instead", where)
	case isAIPerfServerMetrics(o):
		return format{"aiperf", parseAIPerfServerMetrics}, nil
	case isAIPerf(o):
		return format{"aiperf", parseAIPerf}, nil
	case has("input_config") && (has("time_to_first_token") && isMetricObj("time_to_first_token") || has("request_latency") && isMetricObj("request_latency")):
		return format{"genai-perf", parseAIPerf}, nil
	case has("load_summary") && has("successes") && has("failures"):
		var s struct {
			Rate    json.RawMessage `json:"rate"`
			KV      json.RawMessage `json:"kv_cache_usage_percentage"`
			Latency json.RawMessage `json:"latency"`
		}
		_ = json.Unmarshal(o["successes"], &s)
		if s.Rate != nil || s.KV != nil {
			return format{}, fmt.Errorf("%sthis is inference-perf's server-side Prometheus summary (*_prometheus_metrics.json), not a client result; import stage_<N>_lifecycle_metrics.json (one per load level) instead", where)
		}
		return format{"inference-perf", parseInferencePerf}, nil
	case hasPrefix("results_") && has("num_concurrent_requests"):
		return format{"llmperf", parseLLMPerf}, nil
	case has("total_output_tokens_retokenized") || has("mean_e2e_latency_ms") || has("backend") && has("dataset_name") && has("concurrency") && !has("model_id"):
		return format{"sglang", parseSGLang}, nil
	case (has("mean_ttft_ms") || has("median_ttft_ms")) && (has("request_throughput") || has("request_inthroughput")) && (has("model_id") || has("tokenizer_id") || has("date")):
		return format{"vllm", parseVLLM}, nil
	case isGenAIBenchMeta(has):
		return format{"genai-bench", parseGenAIBenchMeta}, nil
	case has("benchmark") && has("metric"):
		return format{}, fmt.Errorf("%sthis is vLLM's .pytorch.json side file; import the main result JSON written by --save-result instead", where)
	case has("benchmarks"):
		return format{}, fmt.Errorf("%sa GuideLLM report cannot be one record among others", where)
	}
	if err := lookAlikeRecord(o, where); err != nil {
		return format{}, err
	}
	if msg := nearMiss(has); msg != "" {
		return format{}, fmt.Errorf("%s%s", where, msg)
	}
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) > 8 {
		keys = append(keys[:8], "...")
	}
	what := "keys: " + strings.Join(keys, ", ")
	if len(keys) == 0 {
		what = "an empty object"
	}
	return format{}, fmt.Errorf("%snot a recognised benchmark result (%s); supported: %s", where, what, FormatLabels())
}

// nearMiss names what is missing from a record that has some of the keys
// of a known format but not enough of them to be read as one.
func nearMiss(has func(string) bool) string {
	missing := func(groups ...[]string) []string {
		var out []string
		for _, g := range groups {
			ok := false
			for _, k := range g {
				ok = ok || has(k)
			}
			if !ok {
				out = append(out, strings.Join(g, " or "))
			}
		}
		return out
	}
	var seen []string
	for _, k := range []string{"model_id", "tokenizer_id", "backend", "num_prompts", "completed", "duration", "mean_ttft_ms", "median_ttft_ms", "request_throughput", "ttfts"} {
		if has(k) {
			seen = append(seen, k)
		}
	}
	if len(seen) >= 2 {
		m := missing([]string{"completed"}, []string{"duration"}, []string{"mean_ttft_ms", "median_ttft_ms"}, []string{"request_throughput", "request_inthroughput"}, []string{"model_id", "tokenizer_id", "date"})
		if len(m) > 0 {
			return fmt.Sprintf("looks like a vllm bench serve or SGLang bench_serving result (it has %s) but lacks %s: not a complete result", strings.Join(seen, ", "), strings.Join(m, "; "))
		}
	}
	seen = seen[:0]
	for _, k := range []string{"num_concurrent_requests", "results_num_completed_requests", "model"} {
		if has(k) {
			seen = append(seen, k)
		}
	}
	if has("num_concurrent_requests") || has("results_num_completed_requests") {
		if m := missing([]string{"num_concurrent_requests"}, []string{"results_num_completed_requests"}); len(m) > 0 {
			return fmt.Sprintf("looks like an LLMPerf summary (it has %s) but lacks %s", strings.Join(seen, ", "), strings.Join(m, "; "))
		}
	}
	if has("request_count") || has("time_to_first_token") || has("aiperf_version") {
		if m := missing([]string{"request_count"}, []string{"time_to_first_token", "request_latency"}); len(m) > 0 {
			return fmt.Sprintf("looks like an AIPerf or GenAI-Perf summary but lacks %s", strings.Join(m, "; "))
		}
	}
	return ""
}

// get decodes o[key] into v when present; it reports whether it was.
func (o jsonObj) get(prefix, key string, v any) (bool, error) {
	raw, ok := o[key]
	if !ok {
		return false, nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return true, fmt.Errorf("%s%s: %w", prefix, key, unwrapTypeErr(err))
	}
	return true, nil
}

// getFields is get for an object of which only the given keys are used:
// the values of the others (a server_info of many KB) are skipped by the
// lexer, checked for structure only, instead of decoded.
func (o jsonObj) getFields(prefix, key string, v any, keys ...string) (bool, error) {
	raw, ok := o[key]
	if !ok {
		return false, nil
	}
	if err := json.Unmarshal(onlyKeys(raw, keys), v); err != nil {
		return true, fmt.Errorf("%s%s: %w", prefix, key, unwrapTypeErr(err))
	}
	return true, nil
}

// onlyKeys returns the object raw with only the given top-level keys; raw
// itself when it is small, not an object, or not well formed (the decoding
// then says what is wrong).
func onlyKeys(raw []byte, keys []string) []byte {
	if len(raw) < 1024 || raw[0] != '{' {
		return raw
	}
	l := &lexer{buf: raw, end: len(raw), err: io.EOF, keys: map[string]string{}}
	out := []byte{'{'}
	err := l.object("", func(k string) error {
		if !slices.Contains(keys, k) {
			return l.skip("")
		}
		v, err := l.capture("")
		if err != nil {
			return err
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		kj, _ := json.Marshal(k)
		out = append(append(append(out, kj...), ':'), v...)
		return nil
	})
	if err != nil || l.finish() != nil {
		return raw
	}
	return append(out, '}')
}

// n returns o[key] as a number (unset when absent or null).
func (o jsonObj) n(prefix, key string) (num, error) {
	var v num
	_, err := o.get(prefix, key, &v)
	return v, err
}

// unwrapTypeErr makes json type errors readable.
func unwrapTypeErr(err error) error {
	if te, ok := err.(*json.UnmarshalTypeError); ok {
		return fmt.Errorf("wrong type: expected %s, found JSON %s", te.Type, te.Value)
	}
	return err
}
