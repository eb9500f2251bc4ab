package importers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"capplan/planner"
)

// errEnd is the clean end of the input between records.
var errEnd = errors.New("end of input")

// peekMore skips whitespace and returns the next byte, or errEnd at the end
// of the input.
func (l *lexer) peekMore() (byte, error) {
	for {
		if l.pos >= l.end && !l.fill() {
			if l.err == io.EOF {
				return 0, errEnd
			}
			return 0, l.eof("")
		}
		c := l.buf[l.pos]
		if !isSpace(c) {
			return c, nil
		}
		l.pos++
	}
}

// maxPerRequest bounds the entries of one per-request array: no load level
// of a load test sends a million requests.
const maxPerRequest = 1 << 20

// maxGaps bounds the pooled inter-token gaps kept for percentiles; beyond
// it only each request's sum and count are kept.
const maxGaps = 1 << 20

// perReq holds the per-request arrays of a vLLM or SGLang detailed result,
// one entry per request sent (successful or not), in file order. Missing
// values (null) are NaN.
type perReq struct {
	ttft, lat, out []float64
	itlSum         []float64
	itlN           []int32
	gaps           []float64
	gapsOver       bool
	failed         []bool // errors[i] is not empty
	has            map[string]bool
}

// perRequestKeys are the arrays read into perReq; skippedKeys are large
// per-request arrays no figure needs.
var (
	perRequestKeys = map[string]bool{"ttfts": true, "latencies": true, "e2els": true, "output_lens": true, "itls": true, "errors": true}
	skippedKeys    = map[string]bool{"generated_texts": true, "input_lens": true, "start_times": true, "queue_times": true}
)

// knownKeys are fields of the summary formats: a record that names one is
// recognised (the first-megabyte rule).
var knownKeys = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range strings.Fields(`completed duration request_throughput request_inthroughput mean_ttft_ms median_ttft_ms
		model_id tokenizer_id num_prompts max_concurrency request_rate backend dataset_name total_output_tokens_retokenized
		mean_e2e_latency_ms aiperf_version schema_version request_count time_to_first_token request_latency input_config
		error_summary benchmark_duration load_summary successes failures num_concurrent_requests results_num_completed_requests
		aggregation_type per_combination_metrics benchmark metric ttfts itls output_lens latencies`) {
		m[k] = true
	}
	return m
}()

// readRecord reads one object of a summary file at the current position.
// path names it in errors ("" for the first object of a file), prefix in
// figure paths. With allowGuideLLM (the first object of a file), a
// benchmarks key hands the rest of the object to the GuideLLM reader: g is
// then that report and d is nil.
func (s *summaryReader) readRecord(path, prefix string, allowGuideLLM bool) (d *doc, g *gReport, err error) {
	w := s.w
	d = &doc{obj: jsonObj{}, prefix: prefix}
	kp := func(k string) string {
		if path == "" {
			return k
		}
		return path + "." + k
	}
	err = w.object(path, func(k string) error {
		if g != nil {
			return g.key(w, k)
		}
		if allowGuideLLM && k == "benchmarks" {
			g = &gReport{dups: s.dups} // what was noted of the keys before
			s.dups = nil
			for _, gk := range []string{"metadata", "args", "config"} {
				if raw, ok := d.obj[gk]; ok {
					if err := g.decodeKey(gk, raw); err != nil {
						return err
					}
				}
			}
			for ok := range d.obj {
				g.keys = append(g.keys, ok)
			}
			return g.key(w, k)
		}
		if knownKeys[k] || strings.HasPrefix(k, "results_") {
			w.recognized = true
		}
		if skippedKeys[k] {
			return w.skip(kp(k))
		}
		if perRequestKeys[k] {
			if d.req == nil {
				d.req = &perReq{has: map[string]bool{}}
			}
			if d.req.has[k] {
				s.dups = append(s.dups, fmt.Sprintf("%s%s appears twice; the last array is used, as Python's json module reads it", prefix, k))
			}
			d.req.has[k] = true
			return d.req.read(w, kp(k), k)
		}
		raw, over, err := w.captureOrSkip(kp(k))
		if err != nil {
			return err
		}
		if over {
			d.big = append(d.big, k)
			return nil
		}
		if bytes.IndexByte(raw, 'N') >= 0 || bytes.IndexByte(raw, 'I') >= 0 {
			raw = sanitizeAll(raw)
		} else {
			raw = bytes.Clone(raw)
		}
		if old, ok := d.obj[k]; ok {
			s.dups = append(s.dups, fmt.Sprintf("%s%s appears twice (%s, then %s); the last value is used, as Python's json module reads it", prefix, k, clip(old), clip(raw)))
		}
		if raw[0] == '{' && k != "server_info" && k != "input_config" && !strings.HasPrefix(k, "telemetry") {
			dupScan(raw, prefix+k, func(msg string) { s.dups = append(s.dups, msg) })
		}
		d.obj[k] = raw
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if g != nil {
		return nil, g, nil
	}
	return d, nil, nil
}

// read streams one per-request array.
func (r *perReq) read(w *lexer, path, key string) error {
	grow := func(i int) error {
		if i >= maxPerRequest {
			return fmt.Errorf("%s: more than %d entries, more requests than one load level of a load test sends: not read", path, maxPerRequest)
		}
		return nil
	}
	nums := func(dst *[]float64) error {
		*dst = (*dst)[:0]
		return w.array(path, func(i int) error {
			if err := grow(i); err != nil {
				return err
			}
			n, err := w.num(path)
			if err != nil {
				return err
			}
			v := math.NaN()
			if n.set {
				v = n.v
			}
			*dst = append(*dst, v)
			return nil
		})
	}
	switch key {
	case "ttfts":
		return nums(&r.ttft)
	case "latencies", "e2els":
		return nums(&r.lat)
	case "output_lens":
		return nums(&r.out)
	case "errors":
		r.failed = r.failed[:0]
		return w.array(path, func(i int) error {
			if err := grow(i); err != nil {
				return err
			}
			c, err := w.peek(path)
			if err != nil {
				return err
			}
			failed := false
			switch c {
			case '"':
				empty := true
				if err := w.skipString(path, func(seg []byte) {
					if len(seg) > 0 {
						empty = false
					}
				}); err != nil {
					return err
				}
				failed = !empty
			case 'n':
				if _, err := w.null(path); err != nil {
					return err
				}
			default:
				// a non-string error record counts as an error
				if err := w.skip(path); err != nil {
					return err
				}
				failed = true
			}
			r.failed = append(r.failed, failed)
			return nil
		})
	case "itls":
		r.itlSum, r.itlN, r.gaps, r.gapsOver = r.itlSum[:0], r.itlN[:0], r.gaps[:0], false
		return w.array(path, func(i int) error {
			if err := grow(i); err != nil {
				return err
			}
			sum, n := 0.0, int32(0)
			err := w.array(path, func(int) error {
				v, err := w.num(path)
				if err != nil {
					return err
				}
				if !v.set {
					return nil
				}
				sum += v.v
				n++
				if len(r.gaps) < maxGaps {
					r.gaps = append(r.gaps, v.v)
				} else {
					r.gapsOver = true
				}
				return nil
			})
			r.itlSum = append(r.itlSum, sum)
			r.itlN = append(r.itlN, n)
			return err
		})
	}
	return w.skip(path)
}

// dupScan reports every key that appears twice in one object inside raw
// (a small captured value), with both values.
func dupScan(raw []byte, path string, report func(string)) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var walk func(p string, depth int) (string, bool)
	walk = func(p string, depth int) (string, bool) {
		t, err := dec.Token()
		if err != nil || depth > 64 {
			return "", false
		}
		switch t {
		case json.Delim('{'):
			seen := map[string]string{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return "", false
				}
				k, _ := kt.(string)
				v, ok := walk(p+"."+k, depth+1)
				if !ok {
					return "", false
				}
				if old, dup := seen[k]; dup {
					report(fmt.Sprintf("%s.%s appears twice (%s, then %s); the last value is used, as Python's json module reads it", p, k, old, v))
				}
				seen[k] = v
			}
			_, err := dec.Token()
			return "{...}", err == nil
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				if _, ok := walk(fmt.Sprintf("%s[%d]", p, i), depth+1); !ok {
					return "", false
				}
			}
			_, err := dec.Token()
			return "[...]", err == nil
		case nil:
			return "null", true
		}
		if s, ok := t.(string); ok {
			return clip([]byte(fmt.Sprintf("%q", s))), true
		}
		return fmt.Sprint(t), true
	}
	walk(path, 0)
}

// dupWarnings turns duplicate-key notes into one file warning each.
func dupWarnings(dups []string) []planner.Warning {
	const most = 20
	out := make([]planner.Warning, 0, min(len(dups), most+1))
	for i, d := range dups {
		if i == most {
			out = append(out, planner.Warning{Code: "duplicate-key", Message: fmt.Sprintf("and %d more keys that appear twice", len(dups)-most)})
			break
		}
		out = append(out, planner.Warning{Code: "duplicate-key", Message: d})
	}
	return out
}
