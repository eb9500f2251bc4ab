package importers

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"capplan/planner"
)

// InferenceX rows (docs/method.md, "Reference rows"): the public
// frontier's points, read as reference rows, never as results. The file is
// InferenceX's agg_bmk.json (a JSON array of objects: hw, model,
// framework, precision, spec_decoding, disagg, isl, osl, conc, tp, ep,
// dp_attention, tput_per_gpu, output_tput_per_gpu, input_tput_per_gpu,
// median_ttft, p99_ttft, …, intvty), the public API's rows (the same
// array) or the dashboard's CSV export (the same columns). Latencies are
// in seconds; intvty is tokens/s per user (1/ITL, the time between output tokens after the first). InferenceX runs random
// data with ignore-eos and the prefix cache off, so every row says so.

// ReferenceOptions tunes ParseInferenceX.
type ReferenceOptions struct {
	EvidenceOptions
	// Source names where the file was published ("InferenceX" when
	// empty); Date is when it was published or retrieved, YYYY-MM-DD, the
	// date of every row that has none of its own.
	Source string
	Date   string
}

// MaxInferenceXRows is the most rows one InferenceX file may hold.
const MaxInferenceXRows = planner.MaxReferenceRows

// maxInferenceXRow is the largest one row of the JSON array may be: a
// published row is a few hundred bytes.
const maxInferenceXRow = 64 << 10

// ParseInferenceX reads an InferenceX file as reference rows, whole or not
// at all: a row without its GPU, model, ISL, OSL, output tok/s per GPU or
// interactivity refuses the file, naming the row and the field. A
// benchmark result file is refused, saying where it belongs.
func ParseInferenceX(name string, r io.Reader, opt ReferenceOptions) (rows []planner.ReferenceRow, f *EvidenceFile, err error) {
	defer func() {
		if p := recover(); p != nil {
			rows, f, err = nil, nil, &Error{File: name, Msg: fmt.Sprintf("internal error while reading the file: %v", p)}
		}
	}()
	if opt.Source == "" {
		opt.Source = "InferenceX"
	}
	if opt.Date != "" {
		if _, err := time.Parse(planner.DateLayout, opt.Date); err != nil {
			return nil, nil, &Error{File: name, Msg: fmt.Sprintf("the date the figures were published or retrieved must be YYYY-MM-DD; got %q", opt.Date)}
		}
	}
	hr := newHashedReader(r, opt.MaxBytes)
	br := bufio.NewReaderSize(hr, 64<<10)
	f = &EvidenceFile{Name: name}
	x := &ixReader{name: name, opt: opt}
	c, perr := firstByte(br)
	switch {
	case perr == io.EOF:
		return nil, nil, &Error{File: name, Msg: "the file is empty"}
	case perr != nil:
		return nil, nil, wrapErr(name, hr.over(perr))
	case c == '[':
		f.Format = "inferencex-json"
		err = x.json(br)
	case c == '{':
		err = notInferenceX(br)
	default:
		if head, _ := br.Peek(8 << 10); isBinary(head) {
			err = errors.New("not InferenceX rows: the file is binary, not JSON or CSV")
			break
		}
		f.Format = "inferencex-csv"
		err = x.csv(br)
	}
	if err == nil {
		err = hr.finish(f)
	}
	if err = hr.over(err); err != nil {
		return nil, nil, wrapErr(name, err)
	}
	if len(x.rows) == 0 {
		return nil, nil, &Error{File: name, Msg: "no InferenceX rows in the file (an array of objects, or a CSV header, with hw, model, isl, osl, output_tput_per_gpu and intvty)"}
	}
	f.Records = len(x.rows)
	for i := range x.rows {
		x.rows[i].Format = f.Format
		x.rows[i].SHA256 = f.SHA256
	}
	return x.rows, f, nil
}

// notInferenceX explains an object at the top level: InferenceX files are
// arrays, and an object is a benchmark tool's result of the box itself.
func notInferenceX(br *bufio.Reader) error {
	head, _ := br.Peek(8 << 10)
	tool := "a benchmark result file"
	switch k := firstKey(bytes.TrimLeft(head, " \t\r\n")); {
	case isInferenceXAgenticHead(head):
		return errInferenceXAgentic
	case guidellmTopKeys[k]:
		tool = "a GuideLLM report"
	case isLLMDHead(head):
		tool = "an llm-d benchmark report"
	case isGenAIBenchRunKey(k):
		tool = "a genai-bench run file"
	}
	return &ResultNotReferenceError{fmt.Sprintf("this is %s (one JSON object), not InferenceX rows: it is evidence of your own box, so import it under Imported results; reference rows are InferenceX's agg_bmk.json array or its CSV export", tool)}
}

// ResultNotReferenceError refuses a benchmark result of the box given as
// reference rows: it belongs among the imported results, and a caller
// that knows where those go (the API's results route) can say so.
type ResultNotReferenceError struct{ msg string }

func (e *ResultNotReferenceError) Error() string { return e.msg }

// errResultNotReference refuses a result file given as reference rows.
var errResultNotReference = &ResultNotReferenceError{"not InferenceX rows (no hw, intvty and output_tput_per_gpu): a benchmark result of your own box belongs under Imported results, not among the reference rows"}

// ixReader collects the rows of one file.
type ixReader struct {
	name string
	opt  ReferenceOptions
	rows []planner.ReferenceRow
}

// json reads the array element by element with the streaming lexer: a
// row is held whole only up to maxInferenceXRow, and a larger one is
// refused as it streams past, never buffered.
func (x *ixReader) json(br *bufio.Reader) error {
	l := newLexer(br)
	l.recognizeBy = 0
	l.capMax, l.what = maxInferenceXRow, "InferenceX row"
	err := l.array("", func(i int) error {
		if i >= MaxInferenceXRows {
			return fmt.Errorf("more than %d rows: the limit of reference rows in one file", MaxInferenceXRows)
		}
		path := "[" + strconv.Itoa(i) + "]"
		raw, err := l.capture(path)
		if err != nil {
			return err
		}
		var obj map[string]any
		if err := json.Unmarshal(raw, &obj); err != nil {
			return fmt.Errorf("%s: not an object with the columns of an InferenceX row", path)
		}
		get := func(k string) (string, bool) {
			v, ok := obj[k]
			if !ok || v == nil {
				return "", false
			}
			switch t := v.(type) {
			case string:
				return t, true
			case float64:
				return strconv.FormatFloat(t, 'g', -1, 64), true
			case bool:
				return strconv.FormatBool(t), true
			}
			return "", false
		}
		if isInferenceXAgentic(func(k string) bool { _, ok := obj[k]; return ok }, obj["scenario_type"]) {
			return fmt.Errorf("%s: %w", path, errInferenceXAgentic)
		}
		if i == 0 && !looksInferenceX(func(k string) bool { _, ok := obj[k]; return ok }) {
			return errResultNotReference
		}
		rr, err := x.row(get)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		rr.Path = path
		x.rows = append(x.rows, rr)
		return nil
	})
	if err != nil {
		return err
	}
	if err := l.finish(); err != nil {
		if l.err != nil && l.err != io.EOF {
			return l.err
		}
		return errors.New("unexpected data after the end of the array")
	}
	return nil
}

// csv reads the dashboard's export: a header line, then a row a line.
func (x *ixReader) csv(br *bufio.Reader) error {
	lr := newLineReader(br)
	var cols []string
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		cells, err := splitRow(line)
		if err != nil {
			return fmt.Errorf("line %d: unreadable line: %v", lr.no, err)
		}
		if cols == nil {
			for _, c := range cells {
				cols = append(cols, strings.ToLower(strings.Trim(strings.TrimSpace(c), `"`)))
			}
			idx := map[string]bool{}
			for _, c := range cols {
				idx[c] = true
			}
			if !looksInferenceX(func(k string) bool { return idx[k] }) {
				return errResultNotReference
			}
			continue
		}
		if len(x.rows) >= MaxInferenceXRows {
			return fmt.Errorf("more than %d rows: the limit of reference rows in one file", MaxInferenceXRows)
		}
		if len(cells) != len(cols) {
			return fmt.Errorf("line %d: %d cells under a header of %d columns", lr.no, len(cells), len(cols))
		}
		get := func(k string) (string, bool) {
			for i, c := range cols {
				if c == k {
					v := strings.TrimSpace(cells[i])
					return v, v != ""
				}
			}
			return "", false
		}
		rr, err := x.row(get)
		if err != nil {
			return fmt.Errorf("line %d: %w", lr.no, err)
		}
		rr.Path = "line " + strconv.Itoa(lr.no)
		x.rows = append(x.rows, rr)
	}
	return lr.err()
}

// errInferenceXAgentic refuses InferenceX's agentic-coding summary rows,
// as reference rows and as results alike.
var errInferenceXAgentic = errors.New("this is an InferenceX agentic-coding summary row (scenario_type agentic-coding: a multi-turn trace replayed through AIPerf with the prefix cache on, its input and output lengths varying per request, its figures under request_metrics), not a fixed-length frontier row: a reference row is matched to the contract on ISL and OSL and assumes random data with the prefix cache off, which an agentic row has not; import InferenceX's fixed-sequence rows (agg_bmk.json, with isl, osl and intvty) under Reference rows instead, and results of your own box under Imported results")

// isInferenceXAgentic tells an InferenceX agentic-coding summary row: hw
// with its figures nested under request_metrics, or its scenario_type.
func isInferenceXAgentic(has func(string) bool, scenario any) bool {
	st, _ := scenario.(string)
	return has("hw") && (has("request_metrics") || strings.Contains(strings.ToLower(st), "agentic"))
}

// isInferenceXAgenticHead tells one from a file's first bytes.
func isInferenceXAgenticHead(head []byte) bool {
	return bytes.Contains(head, []byte(`"hw"`)) && (bytes.Contains(head, []byte(`"request_metrics"`)) || bytes.Contains(head, []byte(`"agentic-`)))
}

// looksInferenceX is true when the columns are InferenceX's.
func looksInferenceX(has func(string) bool) bool {
	return has("hw") && has("intvty") && (has("output_tput_per_gpu") || has("tput_per_gpu"))
}

// row reads one row's columns through get.
func (x *ixReader) row(get func(string) (string, bool)) (planner.ReferenceRow, error) {
	rr := planner.ReferenceRow{Source: x.opt.Source, File: x.name, Date: x.opt.Date, RandomIgnoreEOS: true, PrefixCacheOff: true}
	text := func(k string, dst *string) error {
		v, _ := get(k)
		if len(v) > MaxLabel {
			return fmt.Errorf("%s: longer than %d bytes", k, MaxLabel)
		}
		*dst, _ = MaskSecrets(strings.TrimSpace(v))
		return nil
	}
	for _, t := range []struct {
		k   string
		dst *string
	}{{"hw", &rr.GPU}, {"model", &rr.Model}, {"framework", &rr.Framework}, {"precision", &rr.Precision}, {"spec_decoding", &rr.SpecDecoding}} {
		if err := text(t.k, t.dst); err != nil {
			return rr, err
		}
	}
	if d, ok := get("date"); ok {
		if _, err := time.Parse(planner.DateLayout, d); err == nil {
			rr.Date = d
		}
	}
	num := func(k string) (*float64, error) {
		v, ok := get(k)
		if !ok {
			return nil, nil
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("%s: %q is not a number", k, cut(v, 40))
		}
		if f < 0 {
			return nil, fmt.Errorf("%s: %s is negative", k, v)
		}
		return &f, nil
	}
	whole := func(k string, dst *int) error {
		v, err := num(k)
		if err != nil || v == nil {
			return err
		}
		if *v != math.Trunc(*v) || *v > 1e9 {
			return fmt.Errorf("%s: %s is not a whole number of tokens or GPUs", k, strconv.FormatFloat(*v, 'g', -1, 64))
		}
		*dst = int(*v)
		return nil
	}
	flag := func(k string) (bool, error) {
		v, ok := get(k)
		if !ok {
			return false, nil
		}
		switch strings.ToLower(v) {
		case "true", "1", "yes":
			return true, nil
		case "false", "0", "no", "none":
			return false, nil
		}
		return false, fmt.Errorf("%s: %q is not true or false", k, cut(v, 40))
	}
	var err error
	for _, t := range []struct {
		k   string
		dst *int
	}{{"isl", &rr.ISL}, {"osl", &rr.OSL}, {"tp", &rr.TP}, {"ep", &rr.EP}} {
		if err = whole(t.k, t.dst); err != nil {
			return rr, err
		}
	}
	for _, t := range []struct {
		k   string
		dst **float64
	}{{"conc", &rr.Concurrency}, {"input_tput_per_gpu", &rr.InputPerGPU}, {"tput_per_gpu", &rr.TotalPerGPU},
		{"median_ttft", &rr.MedianTTFT}, {"p99_ttft", &rr.P99TTFT}, {"median_e2el", &rr.MedianE2E}, {"p99_e2el", &rr.P99E2E}} {
		if *t.dst, err = num(t.k); err != nil {
			return rr, err
		}
	}
	if rr.Disagg, err = flag("disagg"); err != nil {
		return rr, err
	}
	if rr.DPAttention, err = flag("dp_attention"); err != nil {
		return rr, err
	}
	out, err := num("output_tput_per_gpu")
	if err != nil {
		return rr, err
	}
	if out == nil && rr.TotalPerGPU != nil && rr.InputPerGPU != nil && *rr.TotalPerGPU >= *rr.InputPerGPU {
		out = planner.F(*rr.TotalPerGPU - *rr.InputPerGPU)
	}
	iv, err := num("intvty")
	if err != nil {
		return rr, err
	}
	var missing []string
	for _, m := range []struct {
		ok   bool
		what string
	}{{rr.GPU != "", "hw (the GPU)"}, {rr.Model != "", "model"}, {rr.ISL > 0, "isl (input tokens)"}, {rr.OSL > 0, "osl (output tokens)"},
		{out != nil && *out > 0, "output_tput_per_gpu (output tok/s per GPU)"}, {iv != nil && *iv > 0, "intvty (tok/s per user)"}} {
		if !m.ok {
			missing = append(missing, m.what)
		}
	}
	if len(missing) > 0 {
		return rr, fmt.Errorf("no %s: a reference row needs it", strings.Join(missing, ", no "))
	}
	if rr.Date == "" {
		return rr, errors.New("no date: the file gives none, so give the date its figures were published or retrieved (YYYY-MM-DD)")
	}
	rr.OutputPerGPU, rr.Interactivity = *out, *iv
	return rr, nil
}

// cut shortens s for a message.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
