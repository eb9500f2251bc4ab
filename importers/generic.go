package importers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
)

// jsonObj is one decoded JSON object with the keys kept raw.
type jsonObj map[string]json.RawMessage

// doc is one record of a small document: an object, where it sits (the
// prefix for paths) and its line.
type doc struct {
	obj    jsonObj
	prefix string // "" for a single object, "[2]." for an array element, "line 3: " for JSONL
}

// parseJSONDoc reads an in-memory JSON document: a single object, an array
// of objects (vLLM sweep summary) or one object per line (JSONL).
func parseJSONDoc(data []byte) (*File, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var vals []json.RawMessage
	var offs []int64
	for {
		off := dec.InputOffset()
		var v json.RawMessage
		err := dec.Decode(&v)
		if err == io.EOF {
			break
		}
		if err != nil {
			if len(vals) > 0 {
				return nil, tokenErr(fmt.Sprintf("line %d", lineAt(data, off)), err)
			}
			return nil, tokenErr("", err)
		}
		vals = append(vals, v)
		offs = append(offs, off)
	}
	if len(vals) == 0 {
		return nil, fmt.Errorf("no JSON value in the file")
	}
	var docs []doc
	switch {
	case vals[0][0] == '[':
		if len(vals) > 1 {
			return nil, fmt.Errorf("line %d: more data after the top-level array", lineAt(data, offs[1]))
		}
		var elems []json.RawMessage
		if err := json.Unmarshal(vals[0], &elems); err != nil {
			return nil, tokenErr("", err)
		}
		if len(elems) == 0 {
			return nil, fmt.Errorf("the file is an empty array: no results")
		}
		for i, e := range elems {
			o, err := toObj(e, fmt.Sprintf("[%d]", i))
			if err != nil {
				return nil, err
			}
			docs = append(docs, doc{obj: o, prefix: fmt.Sprintf("[%d].", i)})
		}
	case len(vals) == 1:
		o, err := toObj(vals[0], "")
		if err != nil {
			return nil, err
		}
		if _, ok := o["benchmarks"]; ok {
			return parseGuideLLM(bytes.NewReader(data))
		}
		docs = []doc{{obj: o}}
	default:
		for i, v := range vals {
			ln := lineAt(data, offs[i])
			o, err := toObj(v, fmt.Sprintf("line %d", ln))
			if err != nil {
				return nil, err
			}
			docs = append(docs, doc{obj: o, prefix: fmt.Sprintf("line %d: ", ln)})
		}
	}
	return parseDocs(docs)
}

// toObj decodes v as an object.
func toObj(v json.RawMessage, where string) (jsonObj, error) {
	var o jsonObj
	if len(v) == 0 || v[0] != '{' {
		return nil, fmt.Errorf("%s: expected an object, found %s", orRoot(where), clip(v))
	}
	if err := json.Unmarshal(v, &o); err != nil {
		return nil, tokenErr(where, err)
	}
	return o, nil
}

// lineAt returns the 1-based line of the first non-space byte at or after off.
func lineAt(data []byte, off int64) int {
	i := int(off)
	for i < len(data) && isSpace(data[i]) {
		i++
	}
	return bytes.Count(data[:i], []byte("\n")) + 1
}

// parseDocs classifies every record and builds the rows.
func parseDocs(docs []doc) (*File, error) {
	var f *File
	for _, d := range docs {
		kind, err := classify(d.obj, d.prefix)
		if err != nil {
			return nil, err
		}
		if f == nil {
			f = &File{}
		} else if f.Source.Format != formatName(kind) {
			return nil, fmt.Errorf("%smixes %s and %s records in one file", strings.TrimSuffix(d.prefix, " "), f.Source.Format, formatName(kind))
		}
		if err := kind.parse(f, d); err != nil {
			return nil, err
		}
	}
	if len(f.Rows) == 0 {
		return nil, fmt.Errorf("no load levels in the file")
	}
	return f, nil
}

// format is one of the small summary formats.
type format struct {
	name  string
	parse func(f *File, d doc) error
}

func formatName(k format) string { return k.name }

// classify picks the format of one record from its keys, or explains what
// the record is when it is not a client result.
func classify(o jsonObj, prefix string) (format, error) {
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
		return format{}, fmt.Errorf("%sthis is an AIPerf sweep aggregate (profile_export_aiperf_sweep.json); import each run's profile_export_aiperf.json instead", prefix)
	case (has("aiperf_version") || has("schema_version")) && has("request_count"):
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
			return format{}, fmt.Errorf("%sthis is inference-perf's server-side Prometheus summary (*_prometheus_metrics.json), not a client result; import stage_<N>_lifecycle_metrics.json (one per load level) instead", prefix)
		}
		return format{"inference-perf", parseInferencePerf}, nil
	case hasPrefix("results_") && has("num_concurrent_requests"):
		return format{"llmperf", parseLLMPerf}, nil
	case has("total_output_tokens_retokenized") || has("mean_e2e_latency_ms") || has("backend") && has("dataset_name") && has("concurrency") && !has("model_id"):
		return format{"sglang", parseSGLang}, nil
	case (has("mean_ttft_ms") || has("median_ttft_ms")) && (has("request_throughput") || has("request_inthroughput")) && (has("model_id") || has("tokenizer_id") || has("date")):
		return format{"vllm", parseVLLM}, nil
	case has("benchmark") && has("metric"):
		return format{}, fmt.Errorf("%sthis is vLLM's .pytorch.json side file; import the main result JSON written by --save-result instead", prefix)
	case has("benchmarks"):
		return format{}, fmt.Errorf("%sa GuideLLM report cannot be one record among others", prefix)
	}
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) > 8 {
		keys = append(keys[:8], "...")
	}
	return format{}, fmt.Errorf("%snot a recognised benchmark result (keys: %s); supported: GuideLLM, vllm bench serve, SGLang bench_serving, AIPerf, GenAI-Perf, LLMPerf, inference-perf", prefix, strings.Join(keys, ", "))
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
