package guidellmgen

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"math/rand"
	"strconv"
)

// Write writes one GuideLLM family D report for cfg to w.
func Write(w io.Writer, cfg Config) error {
	c := cfg.withDefaults()
	for _, l := range c.Loads {
		if !(l > 0) || math.IsInf(l, 0) {
			return fmt.Errorf("guidellmgen: load levels must be positive, got %v", l)
		}
	}
	if c.TargetBytes > 0 {
		per := estimateRequestBytes(c)
		n := c.TargetBytes / int64(len(c.Loads)) / per
		if n < 1 {
			n = 1
		}
		c.RequestsPerRow = int(n)
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	g := &gen{w: bw, c: c, rng: rand.New(rand.NewSource(c.Seed))}
	g.report()
	if g.err != nil {
		return g.err
	}
	return bw.Flush()
}

// estimateRequestBytes is the size of one request record in the output.
func estimateRequestBytes(c Config) int64 {
	g := &gen{c: c, rng: rand.New(rand.NewSource(1))}
	b := g.requestRecord(nil, request{start: epoch, first: epoch + 0.1, end: epoch + 5, promptTok: c.PromptTokens, outTok: c.OutputTokens}, 0)
	return int64(len(b)) + 1
}

type gen struct {
	w   *bufio.Writer
	c   Config
	rng *rand.Rand
	buf []byte
	err error
	id  uint64
}

func (g *gen) raw(s string) {
	if g.err == nil {
		_, g.err = g.w.WriteString(s)
	}
}

func (g *gen) bytes(b []byte) {
	if g.err == nil {
		_, g.err = g.w.Write(b)
	}
}

func (g *gen) report() {
	c := g.c
	profile, strat := "concurrent", "concurrent"
	if c.Kind == Rate {
		profile, strat = "constant", "constant"
	}
	b := g.buf[:0]
	b = append(b, `{"metadata": {"version": 1, "guidellm_version": `...)
	b = strconv.AppendQuote(b, c.Version)
	b = append(b, `, "python_version": "3.12.3", "platform": "Linux-6.8.0-x86_64-with-glibc2.39"}, "args": {"target": "http://localhost:8000", "data": ["prompt_tokens=`...)
	b = strconv.AppendInt(b, int64(c.PromptTokens), 10)
	b = append(b, ",output_tokens="...)
	b = strconv.AppendInt(b, int64(c.OutputTokens), 10)
	b = append(b, `"], "profile": "`+profile+`", "rate": [`...)
	for i, l := range c.Loads {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = fnum(b, l)
	}
	b = append(b, `], "backend": "openai_http", "backend_kwargs": null, "model": `...)
	b = strconv.AppendQuote(b, c.Model)
	b = append(b, `, "max_seconds": null, "max_requests": `...)
	b = strconv.AppendInt(b, int64(c.RequestsPerRow), 10)
	b = append(b, `, "warmup": null, "cooldown": null}, "benchmarks": [`...)
	g.bytes(b)
	t0 := epoch
	for i, load := range c.Loads {
		if i > 0 {
			g.raw(", ")
		}
		reqs := simulate(g.rng, c, load, c.RequestsPerRow, t0)
		end := g.benchmark(i, strat, load, reqs)
		t0 = end + 5
	}
	g.raw("]}\n")
}

// benchmark writes one benchmarks[i] and returns its end time.
func (g *gen) benchmark(idx int, strat string, load float64, reqs []request) float64 {
	c := g.c
	start, end := math.Inf(1), math.Inf(-1)
	for _, r := range reqs {
		start = math.Min(start, r.start)
		end = math.Max(end, r.end)
	}
	dur := end - start
	var cnt [3]int
	for _, r := range reqs {
		cnt[r.status]++
	}
	b := g.buf[:0]
	b = append(b, `{"type_": "generative_benchmark", "config": {"run_index": `...)
	b = strconv.AppendInt(b, int64(idx), 10)
	b = append(b, `, "strategy": {"type_": "`+strat+`", "worker_count": `...)
	b = strconv.AppendInt(b, int64(math.Max(1, math.Round(load))), 10)
	if strat == "concurrent" {
		b = append(b, `, "max_concurrency": `...)
		b = fnum(b, load)
		b = append(b, `, "streams": `...)
		b = fnum(b, load)
		b = append(b, `, "rampup_duration": 0.0}`...)
	} else {
		b = append(b, `, "max_concurrency": 512, "rate": `...)
		b = fnum(b, load)
		b = append(b, `}`...)
	}
	b = append(b, `, "sample_requests": null, "warmup": {"percent": null, "value": null, "mode": "prefer_duration"}, "cooldown": {"percent": null, "value": null, "mode": "prefer_duration"}, "backend": {"target": "http://localhost:8000", "model": `...)
	b = strconv.AppendQuote(b, c.Model)
	b = append(b, `, "timeout": null, "http2": true}}, "scheduler_state": {"node_id": 0, "num_processes": 2, "start_time": `...)
	b = fnum(b, start)
	b = append(b, `, "end_time": `...)
	b = fnum(b, end)
	b = append(b, `}, "scheduler_metrics": {"start_time": `...)
	b = fnum(b, start)
	b = append(b, `, "request_start_time": `...)
	b = fnum(b, start)
	b = append(b, `, "measure_start_time": `...)
	b = fnum(b, start)
	b = append(b, `, "measure_end_time": `...)
	b = fnum(b, end)
	b = append(b, `, "request_end_time": `...)
	b = fnum(b, end)
	b = append(b, `, "end_time": `...)
	b = fnum(b, end)
	b = append(b, `, "requests_made": `...)
	b = counts(b, cnt)
	b = append(b, `}, "metrics": {"request_totals": `...)
	b = counts(b, cnt)
	b = g.metrics(b, reqs, dur)
	b = append(b, `}, "requests": {`...)
	g.bytes(b)
	g.buf = b[:0]
	for si, name := range []string{"successful", "incomplete", "errored"} {
		status := []int{statusOK, statusIncomplete, statusErr}[si]
		if si > 0 {
			g.raw(", ")
		}
		g.raw(`"` + name + `": [`)
		first := true
		for _, r := range reqs {
			if r.status != status {
				continue
			}
			if !first {
				g.raw(", ")
			}
			first = false
			g.buf = g.requestRecord(g.buf[:0], r, idx)
			g.bytes(g.buf)
		}
		g.raw("]")
	}
	b = g.buf[:0]
	b = append(b, `, "total": null}, "start_time": `...)
	b = fnum(b, start)
	b = append(b, `, "end_time": `...)
	b = fnum(b, end)
	b = append(b, `, "duration": `...)
	b = fnum(b, dur)
	b = append(b, `, "warmup_duration": 0.0, "cooldown_duration": 0.0}`...)
	g.bytes(b)
	g.buf = b[:0]
	return end
}

func counts(b []byte, c [3]int) []byte {
	b = append(b, `{"successful": `...)
	b = strconv.AppendInt(b, int64(c[statusOK]), 10)
	b = append(b, `, "errored": `...)
	b = strconv.AppendInt(b, int64(c[statusErr]), 10)
	b = append(b, `, "incomplete": `...)
	b = strconv.AppendInt(b, int64(c[statusIncomplete]), 10)
	b = append(b, `, "total": `...)
	b = strconv.AppendInt(b, int64(c[0]+c[1]+c[2]), 10)
	return append(b, '}')
}

func fnum(b []byte, v float64) []byte {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		b = strconv.AppendFloat(b, v, 'f', 1, 64)
		return b
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}
