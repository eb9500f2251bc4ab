package guidellmgen

import (
	"strconv"
)

// words is the vocabulary of the synthetic prompts and outputs.
var words = []string{"the", "capacity", "of", "a", "serving", "box", "depends", "on", "prompt", "length",
	"and", "output", "tokens", "queue", "latency", "grows", "when", "load", "approaches", "saturation",
	"memory", "headroom", "batch", "decode", "prefill", "cache", "request", "stream", "model", "weights",
	"cost", "per", "thousand", "successful", "answers", "objective", "percentile", "window", "rate", "limit"}

// text appends about n tokens of words (one word per token).
func (g *gen) text(b []byte, n int, fixed bool) []byte {
	if fixed {
		for i := 0; i < n; i++ {
			if i > 0 {
				b = append(b, ' ')
			}
			b = append(b, words[i%len(words)]...)
		}
		return b
	}
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, words[g.rng.Intn(len(words))]...)
	}
	return b
}

// requestID appends a deterministic identifier in UUID form.
func (g *gen) requestID(b []byte) []byte {
	g.id++
	x := g.id*0x9E3779B97F4A7C15 ^ uint64(g.c.Seed)
	s := strconv.FormatUint(x|1<<63, 16)
	return append(b, s[:8]+"-"+s[8:12]+"-4"+s[13:16]+"-8"+s[1:4]+"-"+s[4:16]...)
}

// requestRecord appends one per-request record (family C-E shape).
func (g *gen) requestRecord(b []byte, r request, run int) []byte {
	status := [...]string{"completed", "errored", "cancelled"}[r.status]
	b = append(b, `{"type_": "generative_request_stats", "request_id": "`...)
	idStart := len(b)
	b = g.requestID(b)
	id := string(b[idStart:])
	b = append(b, `", "request_type": "text_completions", "response_id": "cmpl-`...)
	b = append(b, id...)
	b = append(b, `", "request_args": "{\"method\":null,\"stream\":true,\"body\":{\"model\":\"`...)
	b = append(b, g.c.Model...)
	b = append(b, `\",\"stream\":true,\"max_tokens\":`...)
	b = strconv.AppendInt(b, int64(g.c.OutputTokens), 10)
	b = append(b, `,\"prompt\":\"`...)
	b = g.text(b, r.promptTok, g.c.IdenticalPrompts)
	b = append(b, `\"}}", "output": `...)
	if r.status == statusOK {
		b = append(b, '"')
		b = g.text(b, r.outTok, false)
		b = append(b, '"')
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `, "info": {"request_id": "`...)
	b = append(b, id...)
	b = append(b, `", "status": "`+status+`", "scheduler_node_id": -1, "scheduler_process_id": `...)
	b = strconv.AppendInt(b, int64(run%2), 10)
	b = append(b, `, "timings": {"targeted_start": `...)
	b = fnum(b, r.start)
	b = append(b, `, "queued": `...)
	b = fnum(b, r.start-0.0005)
	b = append(b, `, "request_start": `...)
	b = fnum(b, r.start)
	b = append(b, `, "first_token_iteration": `...)
	if r.status == statusOK {
		b = fnum(b, r.first)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `, "last_token_iteration": `...)
	b = fnum(b, r.end)
	b = append(b, `, "token_iterations": `...)
	b = strconv.AppendInt(b, int64(r.outTok), 10)
	b = append(b, `, "request_end": `...)
	b = fnum(b, r.end)
	b = append(b, `}, "error": `...)
	if r.status == statusErr {
		b = append(b, `"HTTP 503: server overloaded"`...)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `, "started_at": `...)
	b = fnum(b, r.start)
	b = append(b, `, "completed_at": `...)
	b = fnum(b, r.end)
	b = append(b, `}, "input_metrics": {"text_tokens": `...)
	b = strconv.AppendInt(b, int64(r.promptTok), 10)
	b = append(b, `, "total_tokens": `...)
	b = strconv.AppendInt(b, int64(r.promptTok), 10)
	b = append(b, `}, "output_metrics": {"text_tokens": `...)
	b = strconv.AppendInt(b, int64(r.outTok), 10)
	b = append(b, `, "total_tokens": `...)
	b = strconv.AppendInt(b, int64(r.outTok), 10)
	b = append(b, `}, "request_start_time": `...)
	b = fnum(b, r.start)
	b = append(b, `, "request_end_time": `...)
	b = fnum(b, r.end)
	b = append(b, `, "request_latency": `...)
	b = fnum(b, r.end-r.start)
	b = append(b, `, "prompt_tokens": `...)
	b = strconv.AppendInt(b, int64(r.promptTok), 10)
	b = append(b, `, "output_tokens": `...)
	b = strconv.AppendInt(b, int64(r.outTok), 10)
	if r.status == statusOK {
		b = append(b, `, "time_to_first_token_ms": `...)
		b = fnum(b, (r.first-r.start)*1000)
		b = append(b, `, "time_per_output_token_ms": `...)
		b = fnum(b, (r.end-r.start)/float64(r.outTok)*1000)
		b = append(b, `, "inter_token_latency_ms": `...)
		b = fnum(b, (r.end-r.first)/float64(r.outTok-1)*1000)
	}
	return append(b, '}')
}
