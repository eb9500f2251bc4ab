package guidellmgen

import "strconv"

// metrics appends the metrics object body (after request_totals) for reqs.
// ITL and TPOT are summarized per request, not weighted by tokens (a
// simplification of what GuideLLM does).
func (g *gen) metrics(b []byte, reqs []request, dur float64) []byte {
	type metric struct {
		name string
		f    func(r request) (float64, bool)
	}
	lat := func(r request) (float64, bool) { return r.end - r.start, true }
	ok := func(f func(r request) float64) func(r request) (float64, bool) {
		return func(r request) (float64, bool) {
			if r.status != statusOK {
				return 0, false
			}
			return f(r), true
		}
	}
	ms := []metric{
		{"request_latency", lat},
		{"prompt_token_count", func(r request) (float64, bool) { return float64(r.promptTok), true }},
		{"output_token_count", func(r request) (float64, bool) { return float64(r.outTok), r.status == statusOK }},
		{"time_to_first_token_ms", ok(func(r request) float64 { return (r.first - r.start) * 1000 })},
		{"time_per_output_token_ms", ok(func(r request) float64 { return (r.end - r.start) / float64(r.outTok) * 1000 })},
		{"inter_token_latency_ms", ok(func(r request) float64 { return (r.end - r.first) / float64(r.outTok-1) * 1000 })},
	}
	groups := []struct {
		name string
		in   func(r request) bool
	}{
		{"successful", func(r request) bool { return r.status == statusOK }},
		{"errored", func(r request) bool { return r.status == statusErr }},
		{"incomplete", func(r request) bool { return r.status == statusIncomplete }},
		{"total", func(request) bool { return true }},
	}
	// rates and concurrency: one figure per group, written as a flat distribution
	rate := func(name string, val func(sel []request) float64) {
		b = append(b, `, "`+name+`": {`...)
		for gi, gr := range groups {
			var sel []request
			for _, r := range reqs {
				if gr.in(r) {
					sel = append(sel, r)
				}
			}
			if gi > 0 {
				b = append(b, ", "...)
			}
			b = append(b, `"`+gr.name+`": `...)
			v := 0.0
			if len(sel) > 0 && dur > 0 {
				v = val(sel)
			}
			d := dist{mean: v, median: v, mode: v, min: v, max: v, count: len(sel), sum: v * float64(len(sel))}
			for i := range d.pct {
				d.pct[i] = v
			}
			b = appendDist(b, d)
		}
		b = append(b, '}')
	}
	rate("requests_per_second", func(sel []request) float64 { return float64(len(sel)) / dur })
	rate("request_concurrency", func(sel []request) float64 {
		s := 0.0
		for _, r := range sel {
			s += r.end - r.start
		}
		return s / dur
	})
	for _, m := range ms {
		b = append(b, `, "`+m.name+`": {`...)
		for gi, gr := range groups {
			var vals []float64
			for _, r := range reqs {
				if !gr.in(r) {
					continue
				}
				v, has := m.f(r)
				if !has {
					v = 0 // GuideLLM records a missing metric as 0.0 in its group
				}
				vals = append(vals, v)
			}
			if gi > 0 {
				b = append(b, ", "...)
			}
			b = append(b, `"`+gr.name+`": `...)
			b = appendDist(b, summarize(vals))
		}
		b = append(b, '}')
	}
	rate("output_tokens_per_second", func(sel []request) float64 {
		s := 0
		for _, r := range sel {
			s += r.outTok
		}
		return float64(s) / dur
	})
	return b
}

func appendDist(b []byte, d dist) []byte {
	f := func(k string, v float64) {
		b = append(b, `"`+k+`": `...)
		b = fnum(b, v)
		b = append(b, ", "...)
	}
	b = append(b, '{')
	f("mean", d.mean)
	f("median", d.median)
	f("mode", d.mode)
	f("variance", d.variance)
	f("std_dev", d.std)
	f("min", d.min)
	f("max", d.max)
	b = append(b, `"count": `...)
	b = strconv.AppendInt(b, int64(d.count), 10)
	b = append(b, ", "...)
	f("total_sum", d.sum)
	b = append(b, `"percentiles": {`...)
	for i, k := range pctK {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, `"`+k+`": `...)
		b = fnum(b, d.pct[i])
	}
	return append(b, `}, "pdf": null}`...)
}
