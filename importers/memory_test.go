package importers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"capplan/web/demogen/guidellmgen"
)

// repeatReader yields head, then body n times, then tail, without holding
// more than those three in memory.
type repeatReader struct {
	parts [][]byte
	n     int // repeats of parts[1] left
	cur   []byte
	stage int
}

func repeat(head, body, tail string, n int) *repeatReader {
	return &repeatReader{parts: [][]byte{[]byte(head), []byte(body), []byte(tail)}, n: n, cur: []byte(head)}
}

func (r *repeatReader) Read(p []byte) (int, error) {
	for len(r.cur) == 0 {
		switch {
		case r.stage < 2 && r.n > 0:
			r.n--
			r.cur = r.parts[1]
		case r.stage < 2:
			r.stage, r.cur = 2, r.parts[2]
		default:
			return 0, io.EOF
		}
	}
	n := copy(p, r.cur)
	r.cur = r.cur[n:]
	return n, nil
}

// peakHeap runs fn and returns the largest heap (live and not yet
// collected objects) seen while it ran, sampled every millisecond, in MB
// above the heap before it started. The collector runs at GOGC=50 meanwhile
// so the figure tracks what the parser holds rather than how far the pacer
// let garbage pile up, which depends on how busy the machine is.
func peakHeap(fn func()) float64 {
	defer debug.SetGCPercent(debug.SetGCPercent(50))
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	runtime.GC()
	base := read()
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			if v := read(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	fn()
	close(stop)
	<-done
	if v := read(); v > peak.Load() {
		peak.Store(v)
	}
	if peak.Load() < base {
		return 0
	}
	return float64(peak.Load()-base) / (1 << 20)
}

// TestBoundedMemory parses a pathological input of each shape and family
// and holds the heap it needs under a bound far below the input's size:
// huge arrays, millions of lines, long whitespace, deep nesting, long
// strings. Each input is generated as a stream, never held whole.
func TestBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("generates hundreds of MB")
	}
	vllmHead := `{"date": "20250101-000000", "backend": "vllm", "model_id": "m", "num_prompts": 400000, "request_rate": "inf", "max_concurrency": 64, ` +
		`"duration": 100, "completed": 400000, "failed": 0, "total_input_tokens": 4000000, "total_output_tokens": 40000000, "request_throughput": 4000, "output_throughput": 400000, ` +
		`"mean_ttft_ms": 10, "median_ttft_ms": 10, "p99_ttft_ms": 20, "mean_itl_ms": 5, "median_itl_ms": 5, "p99_itl_ms": 9, `
	sglangLine := `{"backend": "sglang", "dataset_name": "random", "request_rate": 1, "max_concurrency": 4, "completed": 10, "duration": 10, "request_throughput": 1, "output_throughput": 100, "total_output_tokens_retokenized": 1000, "total_output_tokens": 1000, "mean_e2e_latency_ms": 100, "median_e2e_latency_ms": 100, "median_ttft_ms": 10, "median_itl_ms": 5, "server_info": {"model_path": "m", "padding": "` + strings.Repeat("x", 4000) + `"}}` + "\n"
	cases := []struct {
		name    string
		in      func() io.Reader
		limitMB float64
		wantErr string // "" for a success
	}{
		{"guidellm 32 MB with per-request records", func() io.Reader {
			pr, pw := io.Pipe()
			go func() { pw.CloseWithError(guidellmgen.Write(pw, guidellmgen.Config{TargetBytes: 32 << 20})) }()
			return pr
		}, 40, ""}, // the per-request samples the rows keep (about 40 bytes a request) are most of it
		{"guidellm endless request list of long strings", func() io.Reader {
			return repeat(`{"benchmarks": [{"requests": {"successful": [`, `{"request_args": "`+strings.Repeat("p", 1<<16)+`"},`, `{}]}}]}`, 2000)
		}, 24, "benchmarks[0]"},
		{"vllm detailed: 400,000 requests in per-request arrays", func() io.Reader {
			return io.MultiReader(strings.NewReader(vllmHead+`"ttfts": [`), repeat("", "0.01,", "0.01], ", 399999),
				strings.NewReader(`"output_lens": [`), repeat("", "100,", "100], ", 399999),
				strings.NewReader(`"itls": [`), repeat("", "[0.005, 0.005, 0.005, 0.005],", "[0.005]], ", 399999),
				strings.NewReader(`"generated_texts": [`), repeat("", `"`+strings.Repeat("t", 200)+`",`, `""]}`, 399999))
		}, 64, ""},
		{"jsonl: 3,000 SGLang lines of 4 KB", func() io.Reader { return repeat("", sglangLine, "", 3000) }, 48, ""},
		{"jsonl: a million lines the reader refuses at line 1", func() io.Reader {
			return repeat("", `{"backend":"vllm","completed":1}`+"\n", "", 1000000)
		}, 8, "line 1: looks like a vllm bench serve"},
		{"long whitespace after [", func() io.Reader { return repeat("[", strings.Repeat(" ", 1<<16), "]", 2000) }, 8, "first megabyte"},
		{"long whitespace after a known key", func() io.Reader {
			return repeat(`{"completed": 1, `, strings.Repeat(" ", 1<<16), `"x": 1}`, 2000)
		}, 8, "(keys: completed, x)"},
		{"a long string value", func() io.Reader {
			return repeat(`{"completed": 1, "duration": "`, strings.Repeat("s", 1<<16), `"}`, 2000)
		}, 24, ""},
		{"30 MB of empty objects", func() io.Reader { return repeat("[", "{},", "{}]", 10<<20) }, 8, "[0]: not a recognised benchmark result (an empty object)"},
		{"deep nesting", func() io.Reader { return repeat(`{"benchmarks": [{"x": `, "[", "", 1<<20) }, 8, "nested deeper than"},
		{"a number of 100 MB", func() io.Reader {
			return repeat(`{"benchmarks": [{"duration": `, strings.Repeat("1", 1<<16), "}]}", 1600)
		}, 8, "number too long"},
		{"a key of 100 MB", func() io.Reader {
			return repeat(`{"benchmarks": [{"duration": 1, "`, strings.Repeat("k", 1<<16), `": 1}]}`, 1600)
		}, 8, "a key longer than 64 KB"},
		{"genai-bench run: 400,000 per-request entries", func() io.Reader {
			return repeat(`{"aggregated_metrics": {"num_concurrency": 64, "run_duration": 100, "num_completed_requests": 400000, "num_error_requests": 0, "num_requests": 400000, "requests_per_second": 4000, "stats": {"ttft": {"mean": 0.1, "p50": 0.1, "p95": 0.2, "p99": 0.3}}}, "individual_request_metrics": [`,
				`{"ttft": 0.1, "tpot": 0.01, "e2e_latency": 1.1, "output_latency": 1.0, "output_inference_speed": 100, "num_input_tokens": 100, "num_output_tokens": 100, "total_tokens": 200, "input_throughput": 1000, "output_throughput": 100, "error_code": null, "error_message": null},`,
				`{"ttft": 0.1, "e2e_latency": 1.1, "num_output_tokens": 100, "error_code": null}]}`, 399999)
		}, 48, ""},
		{"genai-bench: an aggregate of 100 MB", func() io.Reader {
			return repeat(`{"aggregated_metrics": {"stats": {"x": [`, "1,", "1]}}}", 50<<20)
		}, 24, "larger than 8 MB"},
		{"a huge metrics object", func() io.Reader {
			return repeat(`{"benchmarks": [{"metrics": {"x": [`, "1,", "1]}}]}", 20<<20)
		}, 24, "larger than 8 MB"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			start := time.Now()
			mb := peakHeap(func() { _, err = Parse("x.json", c.in(), Options{}) })
			t.Logf("peak heap %.1f MB, %v", mb, time.Since(start).Round(time.Millisecond))
			if mb > c.limitMB {
				t.Errorf("peak heap %.1f MB, want under %.0f MB", mb, c.limitMB)
			}
			switch {
			case c.wantErr == "" && err != nil && !strings.Contains(err.Error(), "larger than") && c.name != "a long string value":
				t.Errorf("err = %v", err)
			case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
				t.Errorf("err = %v, want it to mention %q", err, c.wantErr)
			}
		})
	}
}

// TestCancel stops an endless input by cancelling its context once 2 MB
// were read (well before any cap on the number of entries): Parse returns
// context.Canceled within a second of the cancel.
func TestCancel(t *testing.T) {
	for _, c := range []struct{ name, head, body string }{
		{"guidellm", `{"benchmarks": [{"requests": {"successful": [`, `{"request_args": "abc", "info": {"timings": {"request_start": 1}}},`},
		{"vllm arrays", `{"completed": 1, "ttfts": [`, `0.1, 0.2, 0.3, 0.4,`},
		{"whitespace after a record", `{"completed": 1, "duration": 1}`, "\n\n\n\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			r := &cancelAfter{r: repeat(c.head, c.body, "", 1<<40), n: 2 << 20, cancel: cancel}
			_, err := Parse("x.json", r, Options{Context: ctx})
			if r.at.IsZero() {
				t.Fatalf("ended before the cancel: %v", err)
			}
			if d := time.Since(r.at); d > time.Second {
				t.Errorf("stopped %v after the cancel, want within 1 s", d)
			}
			if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "x.json: ") {
				t.Errorf("err = %v, want context.Canceled naming the file", err)
			}
		})
	}
}

// cancelAfter reads r and calls cancel once n bytes were read, noting when.
type cancelAfter struct {
	r      io.Reader
	n      int
	cancel func()
	at     time.Time
}

func (c *cancelAfter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if c.n -= n; c.n <= 0 && c.at.IsZero() {
		c.at = time.Now()
		c.cancel()
	}
	return n, err
}

// TestRecognizeWithinFirstMegabyte checks that a file that names no known
// field in its first megabyte is refused after reading about that much.
func TestRecognizeWithinFirstMegabyte(t *testing.T) {
	for _, in := range []string{
		"[" + strings.Repeat(" ", 3<<20) + "]",
		"{" + strings.Repeat("\n", 3<<20) + "}",
		`{"foo": "` + strings.Repeat("x", 3<<20) + `"}`,
		`[{"foo": [` + strings.Repeat("1,", 2<<20) + `1]}]`,
	} {
		r := &countingReader{r: strings.NewReader(in)}
		_, err := Parse("x.json", r, Options{})
		if err == nil || !strings.Contains(err.Error(), "first megabyte") {
			t.Errorf("%.20q...: err = %v", in, err)
		}
		if r.n > 2<<20 {
			t.Errorf("%.20q...: read %d bytes before refusing", in, r.n)
		}
	}
}

type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// TestRepeatReader checks the generator the memory tests rely on.
func TestRepeatReader(t *testing.T) {
	b, _ := io.ReadAll(repeat("<", "ab", ">", 3))
	if string(b) != "<ababab>" {
		t.Errorf("%q", b)
	}
	b, _ = io.ReadAll(repeat("", "x", "", 0))
	if len(b) != 0 {
		t.Errorf("%q", b)
	}
	var buf bytes.Buffer
	io.Copy(&buf, repeat("[", fmt.Sprint(1), "]", 2))
	if buf.String() != "[11]" {
		t.Errorf("%q", buf.String())
	}
}
