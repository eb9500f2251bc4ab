package importers

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
)

func mustRead(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestMalformed feeds broken inputs: each must give an error that starts
// with the file name and says what was wrong, never a panic or a row.
func TestMalformed(t *testing.T) {
	stripped := string(mustRead(t, real("guidellm", "vllm-project__guidellm__benchmarks_stripped.json")))
	gotoni := mustRead(t, real("guidellm", "atoniolo76__gotoni__benchmarks.json"))
	sweep := string(mustRead(t, real("vllm", "er0080__vllm-benchmarking__sweep_run=0.json")))
	edit := func(s, old, new string) string {
		if !strings.Contains(s, old) {
			t.Fatalf("fixture text %q not found", old)
		}
		return strings.Replace(s, old, new, 1)
	}
	cases := []struct {
		name, in string
		max      int64
		want     string
		tooLarge bool
	}{
		{name: "empty", in: "", want: "empty file"},
		{name: "blank", in: " \n\t ", want: "only whitespace"},
		{name: "truncated guidellm", in: string(gotoni[:5000]), want: "the file is cut off (truncated) inside benchmarks[0].scheduler_state: export it again"},
		{name: "truncated guidellm in a string", in: stripped[:len(stripped)/2], want: "the file is cut off (truncated) inside benchmarks[0].metrics: export it again"},
		{name: "truncated vllm", in: sweep[:200], want: "upload.json: the file is cut off (truncated): export it again"},
		{name: "truncated jsonl", in: sweep + "\n" + sweep[:200], want: "the file is cut off (truncated) at line"},
		{name: "wrong type count", in: edit(stripped, `"successful": 46, "errored": 0, "incomplete": 1`, `"successful": "many", "errored": 0, "incomplete": 1`), want: `expected a number, found "many"`},
		{name: "wrong type benchmarks", in: `{"benchmarks": {"a": 1}}`, want: "benchmarks: expected an array"},
		{name: "wrong type vllm", in: edit(sweep, `"completed": 8`, `"completed": [8]`), want: "completed"},
		{name: "zero benchmarks", in: `{"benchmarks": []}`, want: "no benchmarks"},
		{name: "zero requests guidellm", in: edit(stripped, `"request_totals": {"successful": 46, "errored": 0, "incomplete": 1, "total": 47}`, `"request_totals": {"successful": 0, "errored": 0, "incomplete": 0, "total": 0}`), want: "zero requests"},
		{name: "zero requests vllm", in: edit(sweep, `"completed": 8`, `"completed": 0`), want: "zero requests"},
		{name: "NaN figure", in: edit(stripped, `"p95": 19.00935173034668`, `"p95": NaN`), want: "is NaN"},
		{name: "Infinity figure", in: edit(stripped, `"duration": 29.997201442718506`, `"duration": Infinity`), want: "implausibly large"},
		{name: "huge number", in: edit(stripped, `"duration": 29.997201442718506`, `"duration": 1e400`), want: "out of range"},
		{name: "implausible number", in: edit(sweep, `"completed": 8`, `"completed": 1e300`), want: "implausibly large"},
		{name: "negative latency", in: edit(stripped, `"p95": 19.00935173034668`, `"p95": -3`), want: "is negative"},
		{name: "deep nesting guidellm", in: `{"benchmarks": [{"x": ` + strings.Repeat("[", 20000), want: "nested deeper than"},
		{name: "array for an object", in: `{"benchmarks": [[1]]}`, want: "benchmarks[0]: expected an object, found an array"},
		{name: "deep nesting skipped", in: `{"metadata": {"x": ` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}}`, want: "nested deeper than"},
		{name: "deep nesting other", in: `{"x": ` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`, want: "nested deeper than 10000 levels"},
		{name: "over MaxBytes", in: string(gotoni), max: 1000, want: "larger than the limit of 1000 bytes", tooLarge: true},
		{name: "over MaxBytes small format", in: sweep, max: 100, want: "larger than the limit of 100 bytes", tooLarge: true},
		{name: "trailing garbage", in: stripped + " xyz", want: "after the end of the document"},
		{name: "unknown json", in: `{"foo": 1, "bar": 2}`, want: "not a recognised benchmark result (keys: bar, foo)"},
		{name: "unknown guidellm version", in: `{"metadata": {"version": 3}, "benchmarks": []}`, want: "version 3 is not supported"},
		{name: "mixed jsonl", in: strings.ReplaceAll(sweep, "\n", "") + "\n" + `{"backend": "sglang", "dataset_name": "random", "request_rate": 1, "max_concurrency": null, "completed": 3, "duration": 1, "total_output_tokens_retokenized": 1}` + "\n", want: "mixes vllm and sglang"},
		{name: "not an object", in: `[1, 2]`, want: "expected an object"},
		{name: "binary", in: "\x00\x01\x02\xff", want: "upload.json: not a benchmark result file: it is binary (an image?), not JSON or YAML"},
		{name: "PNG", in: "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00", want: "upload.json: not a benchmark result file: it is binary (an image?), not JSON or YAML"},
		{name: "JPEG", in: "\xff\xd8\xff\xe0\x00\x10JFIF\x00", want: "it is binary (an image?), not JSON or YAML"},
		{name: "gzip", in: "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xab\xae\x05\x00", want: "upload.json: a compressed file: decompress it first"},
		{name: "zip", in: "PK\x03\x04\x14\x00\x00\x00", want: "a compressed file: decompress it first"},
		{name: "PDF", in: "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", want: "it is a PDF document, not JSON or YAML"},
		{name: "UTF-16", in: "\xff\xfe{\x00\"\x00", want: "UTF-16 text: save it as UTF-8"},
		{name: "invalid JSON", in: `{"foo": 1,, "bar": 2}`, want: "top level: expected a key, found ',' at byte 10"},
		{name: "invalid YAML", in: "a: b\n c: d\n", want: "upload.json: not a benchmark result file: neither JSON nor valid YAML (line 2: mapping values are not allowed in this context)"},
		{name: "mismatched bracket", in: `{"metadata": {"x": [1, 2}}, "benchmarks": []}`, want: "mismatched"},
		{name: "no strategy", in: edit(stripped, `"strategy": {"type_": "synchronous"}`, `"strategy": null`), want: "no strategy"},
		{name: "unknown strategy", in: edit(stripped, `"strategy": {"type_": "synchronous"}`, `"strategy": {"type_": "zigzag"}`), want: `unknown strategy "zigzag"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			const name = "upload.json"
			f, err := Parse(name, strings.NewReader(c.in), Options{MaxBytes: c.max})
			if err == nil {
				t.Fatalf("no error; got %d rows", len(f.Rows))
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, name+": ") {
				t.Errorf("error %q does not start with the file name", msg)
			}
			if !strings.Contains(msg, c.want) {
				t.Errorf("error %q does not mention %q", msg, c.want)
			}
			if c.tooLarge != errors.Is(err, ErrTooLarge) {
				t.Errorf("errors.Is(err, ErrTooLarge) = %v", !c.tooLarge)
			}
			var e *Error
			if !errors.As(err, &e) || e.File != name {
				t.Errorf("error is not an *Error for %s: %#v", name, err)
			}
		})
	}
}

// TestParseHashAndSize checks the sha256, the byte count and that a file of
// exactly MaxBytes passes.
func TestParseHashAndSize(t *testing.T) {
	data := mustRead(t, real("guidellm", "atoniolo76__gotoni__benchmarks.json"))
	f, err := Parse("x.json", bytes.NewReader(data), Options{MaxBytes: int64(len(data))})
	if err != nil {
		t.Fatal(err)
	}
	const want = "3b0e5196bd1ca2b686776422138052e7f793dec1b13c6d7086a8dde370857275" // sha256sum
	if f.Source.SHA256 != want || f.Bytes != int64(len(data)) || f.Source.File != "x.json" {
		t.Errorf("source %+v bytes %d", f.Source, f.Bytes)
	}
	if _, err := ParseFile("testdata/does-not-exist.json", Options{}); err == nil || !strings.HasPrefix(err.Error(), "does-not-exist.json: ") {
		t.Errorf("missing file: %v", err)
	}
}

// TestNotGuideLLM checks that an object starting like a GuideLLM report but
// without its benchmarks list is refused with its keys.
func TestNotGuideLLM(t *testing.T) {
	_, err := Parse("run.json", strings.NewReader(`{"config": {"model_name": "x"}, "results": []}`), Options{})
	if err == nil || !strings.Contains(err.Error(), "no top-level benchmarks list (keys: config, results)") {
		t.Errorf("err = %v", err)
	}
}
