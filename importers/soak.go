package importers

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"capplan/planner"
)

// ParseSoak reads a soak's hour-by-hour table and its drains table. The
// file is CSV or a Markdown table (one or both tables, a blank line between
// them), or JSON: {"hours": [...], "drains": [...]} or an array of hours.
//
// Hours columns (names matched loosely, case and punctuation ignored): hour,
// requests, 429 (rejected_429), failed, in SLO, TTFT p99, TPOT p99, tok/s,
// GPU W, °C max. Counts may carry thousands separators ("17,422"), shares a
// percent sign, latencies their unit ("271 ms"; a bare number is in seconds
// unless the column name ends in "ms").
//
// Drains columns: drain, running at drain, finished, lost, new requests
// rejected ("561" or "561 / 561": rejected of arrivals), GPU empty after
// ("12 s").
//
// A run summary outside the tables, two cells a line ("| Average GPU board
// power | 520 W |", "| Output tokens served | 63.0 million |"), or the JSON
// object's mean_power_w and output_tokens, gives the run's mean power and
// output tokens; the summary's other lines are read past.
func ParseSoak(name string, r io.Reader, opt EvidenceOptions) (s *planner.Soak, f *EvidenceFile, err error) {
	defer func() {
		if p := recover(); p != nil {
			s, f, err = nil, nil, &Error{File: name, Msg: fmt.Sprintf("internal error while reading the file: %v", p)}
		}
	}()
	hr := newHashedReader(r, opt.MaxBytes)
	br := bufio.NewReaderSize(hr, 64<<10)
	f = &EvidenceFile{Name: name}
	s = &planner.Soak{Source: name, Hours: []planner.SoakHour{}, Drains: []planner.Drain{}}
	c, perr := firstByte(br)
	switch {
	case perr == io.EOF:
		return nil, nil, &Error{File: name, Msg: "the file is empty"}
	case perr != nil:
		return nil, nil, wrapErr(name, perr)
	case c == '{' || c == '[':
		f.Format = "soak-json"
		err = soakJSON(name, br, s)
	default:
		f.Format = "soak-csv"
		err = soakTables(name, br, s)
	}
	if err == nil {
		err = hr.finish(f)
	}
	if err = hr.over(err); err != nil {
		return nil, nil, wrapErr(name, err)
	}
	f.Records = len(s.Hours) + len(s.Drains)
	if len(s.Hours) == 0 && len(s.Drains) == 0 {
		return nil, nil, &Error{File: name, Msg: "no soak hours or drains in the file (a header with hour and requests, or drain and running, is needed)"}
	}
	return s, f, nil
}

// soakKinds maps normalised column names to fields.
var soakHourCols = map[string]string{
	"hour": "hour", "h": "hour",
	"requests": "requests", "reqs": "requests", "total": "requests", "totalrequests": "requests",
	"429": "429", "429s": "429", "rejected429": "429", "rejected": "429", "rejected429s": "429",
	"failed": "failed", "failures": "failed", "errors": "failed",
	"inslo": "inslo", "inslopct": "inslo", "inobjective": "inslo", "inslofraction": "inslo",
	"ttftp99": "ttft", "ttftp99ms": "ttft", "ttftp99s": "ttft",
	"tpotp99": "tpot", "tpotp99ms": "tpot", "tpotp99s": "tpot",
	"toks": "toks", "tokenss": "toks", "tokenspers": "toks", "outputtoks": "toks", "tokenspersecond": "toks",
	"gpuw": "watts", "watts": "watts", "power": "watts", "powerw": "watts", "gpuwatts": "watts",
	"cmax": "temp", "maxc": "temp", "tempmax": "temp", "tempmaxc": "temp", "maxtemp": "temp", "temperature": "temp",
}

var soakDrainCols = map[string]string{
	"drain": "drain", "n": "drain",
	"runningatdrain": "running", "running": "running",
	"finished":            "finished",
	"lost":                "lost",
	"newrequestsrejected": "rejected", "rejected": "rejected", "rejectednew": "rejected",
	"arrivals": "arrivals", "newarrivals": "arrivals",
	"gpuemptyafter": "empty", "emptyafter": "empty", "emptyafters": "empty", "gpuemptyafters": "empty", "secondsuntilempty": "empty",
}

// soakTables reads CSV or Markdown tables; each table starts with a header
// line and ends at a blank line or the end of the file.
func soakTables(name string, br *bufio.Reader, s *planner.Soak) error {
	lr := newLineReader(br)
	st := newSoakState(s)
	var header []string
	var kind string // "hours" or "drains"
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		if strings.TrimSpace(line) == "" {
			header, kind = nil, ""
			continue
		}
		cells, err := splitRow(line)
		if err != nil {
			return evidenceErr(name, lr.no, "unreadable line: %v", err)
		}
		if isRule(cells) {
			continue
		}
		if header == nil && !strings.HasPrefix(strings.TrimSpace(line), "|") && !strings.Contains(line, ",") {
			continue // prose around Markdown tables
		}
		if header == nil && len(cells) == 2 {
			// A run summary: a figure and its value a line, between or
			// before the tables ("| Average GPU board power | 520 W |").
			if _, k := soakHeader(cells); k == "" {
				if _, ok, err := parseQuantity(strings.TrimLeft(cells[1], "$€£¥ ")); ok && err == nil {
					if err := addSoakSummary(s, cells); err != nil {
						return evidenceErr(name, lr.no, "%v", err)
					}
					continue
				}
			}
		}
		if header == nil {
			header, kind = soakHeader(cells)
			if kind == "" {
				if err := checkHeader(name, lr.no, cells, nil); err != nil {
					return err
				}
				return evidenceErr(name, lr.no, "not a soak table: the header needs hour and requests columns (an hourly table) or drain and running columns (a drains table); found %s", clipStr(strings.Join(cells, ", ")))
			}
			fields := make([]string, len(header))
			for i, h := range header {
				fields[i], _, _ = strings.Cut(h, "|")
			}
			if err := checkHeader(name, lr.no, cells, fields); err != nil {
				return err
			}
			continue
		}
		if len(cells) != len(header) {
			return evidenceErr(name, lr.no, "%d cells where the header names %d", len(cells), len(header))
		}
		rec := map[string]string{}
		for i, k := range header {
			if k != "" {
				rec[k] = cells[i]
			}
		}
		if err := st.add(kind, rec, header); err != nil {
			return evidenceErr(name, lr.no, "%v", err)
		}
	}
	return lr.err()
}

// soakState checks a soak's records as they come: each hour and drain once,
// within MaxSoakHours and MaxSoakDrains.
type soakState struct {
	s      *planner.Soak
	hours  map[int]bool
	drains map[int]bool
}

func newSoakState(s *planner.Soak) *soakState {
	return &soakState{s: s, hours: map[int]bool{}, drains: map[int]bool{}}
}

func (st *soakState) add(kind string, rec map[string]string, header []string) error {
	if kind == "hours" && len(st.s.Hours) >= MaxSoakHours {
		return fmt.Errorf("more than %d soak hours: a soak longer than 30 days is past what one import reads (summarise it by hour, or split it)", MaxSoakHours)
	}
	if kind == "drains" && len(st.s.Drains) >= MaxSoakDrains {
		return fmt.Errorf("more than %d drains in the drains table", MaxSoakDrains)
	}
	if err := addSoakRecord(st.s, kind, rec, header); err != nil {
		return err
	}
	if kind == "hours" {
		h := st.s.Hours[len(st.s.Hours)-1].Hour
		if st.hours[h] {
			st.s.Hours = st.s.Hours[:len(st.s.Hours)-1]
			return fmt.Errorf("hour %d is listed twice", h)
		}
		st.hours[h] = true
		return nil
	}
	n := st.s.Drains[len(st.s.Drains)-1].N
	if st.drains[n] {
		st.s.Drains = st.s.Drains[:len(st.s.Drains)-1]
		return fmt.Errorf("drain %d is listed twice", n)
	}
	st.drains[n] = true
	return nil
}

// soakSummaryKey names the run-summary figure a first cell names
// ("Average GPU board power", "Output tokens served"), "" for another.
func soakSummaryKey(cell string) string {
	switch normKey(cell) {
	case "averagegpuboardpower", "averagegpupower", "averageboardpower", "averagepower",
		"meangpuboardpower", "meangpupower", "meanboardpower", "meanpower", "meanpowerw":
		return "power"
	case "outputtokensserved", "outputtokens", "totaloutputtokens":
		return "tokens"
	}
	return ""
}

// addSoakSummary reads one line of a run summary: the run's mean power
// ("520 W", "0.52 kW") or its output tokens ("63.0 million (2,906 tok/s
// average)"). The summary's other figures (requests, availability, the
// energy it states) are not read: capplan derives its own from the
// hours and these two.
func addSoakSummary(s *planner.Soak, cells []string) error {
	key := soakSummaryKey(cells[0])
	if key == "" {
		return nil
	}
	what := strings.TrimSpace(cells[0])
	q, _, _ := parseQuantity(cells[1])
	if q.v < 0 {
		return fmt.Errorf("%s: %q is negative", what, cells[1])
	}
	unit := ""
	if u := strings.Fields(strings.NewReplacer("(", " ", ",", " ").Replace(q.unit)); len(u) > 0 {
		unit = u[0]
	}
	switch key {
	case "power":
		switch unit {
		case "", "w", "watts":
		case "kw":
			q.v *= 1000
		default:
			return fmt.Errorf("%s: %q is not in W or kW", what, cells[1])
		}
		s.MeanPowerW = planner.F(q.v)
	case "tokens":
		x := map[string]float64{"": 1, "tokens": 1, "thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "billion": 1e9, "b": 1e9}
		m, ok := x[unit]
		if !ok {
			return fmt.Errorf("%s: %q is not a count of tokens (a number, or one with thousand, million or billion)", what, cells[1])
		}
		s.OutputTokens = planner.F(q.v * m)
	}
	return nil
}

// soakHeader maps a header's cells to field keys; a unit in the name ("ms")
// is kept as the suffix "|ms".
func soakHeader(cells []string) ([]string, string) {
	for _, kind := range []string{"hours", "drains"} {
		cols := soakHourCols
		if kind == "drains" {
			cols = soakDrainCols
		}
		out := make([]string, len(cells))
		seen := map[string]bool{}
		for i, c := range cells {
			k := normKey(c)
			out[i] = cols[k]
			if out[i] != "" && strings.HasSuffix(k, "ms") {
				out[i] += "|ms"
			}
			seen[cols[k]] = true
		}
		if kind == "hours" && seen["hour"] && seen["requests"] {
			return out, kind
		}
		if kind == "drains" && seen["drain"] && seen["running"] {
			return out, kind
		}
	}
	return nil, ""
}

func addSoakRecord(s *planner.Soak, kind string, rec map[string]string, header []string) error {
	ms := map[string]bool{}
	for _, h := range header {
		if k, ok := strings.CutSuffix(h, "|ms"); ok {
			ms[k] = true
			rec[k] = rec[h]
		}
	}
	count := func(key string, dst *int64, required bool) error {
		v, ok, err := parseCount(rec[key])
		if err != nil {
			return fmt.Errorf("%s: %v", key, err)
		}
		if !ok && required {
			return fmt.Errorf("%s is missing", key)
		}
		*dst = v
		return nil
	}
	opt := func(key string, parse func(string) (float64, bool, error)) (*float64, error) {
		v, ok, err := parse(rec[key])
		if err != nil {
			return nil, fmt.Errorf("%s: %v", key, err)
		}
		if !ok {
			return nil, nil
		}
		return planner.F(v), nil
	}
	plain := func(s string) (float64, bool, error) {
		q, ok, err := parseQuantity(s)
		if ok && q.v < 0 {
			return 0, false, fmt.Errorf("%q is negative: no reading of a soak hour can be", s)
		}
		return q.v, ok, err
	}
	var errs []error
	if kind == "hours" {
		var h planner.SoakHour
		var hour int64
		errs = append(errs, count("hour", &hour, true), count("requests", &h.Requests, true), count("429", &h.Rejected429, false), count("failed", &h.Failed, false))
		h.Hour = int(hour)
		var err error
		if h.InSLO, err = opt("inslo", parseFraction); err != nil {
			errs = append(errs, err)
		}
		if h.TTFTP99, err = opt("ttft", func(v string) (float64, bool, error) { return parseSeconds(v, ms["ttft"]) }); err != nil {
			errs = append(errs, err)
		}
		if h.TPOTP99, err = opt("tpot", func(v string) (float64, bool, error) { return parseSeconds(v, ms["tpot"]) }); err != nil {
			errs = append(errs, err)
		}
		for _, p := range []struct {
			key string
			dst **float64
		}{{"toks", &h.TokensPerS}, {"watts", &h.Watts}, {"temp", &h.TempMaxC}} {
			if *p.dst, err = opt(p.key, plain); err != nil {
				errs = append(errs, err)
			}
		}
		if err := firstErr(errs); err != nil {
			return err
		}
		if h.Rejected429+h.Failed > h.Requests {
			return fmt.Errorf("hour %d: 429s and failures (%d + %d) exceed its %d requests", h.Hour, h.Rejected429, h.Failed, h.Requests)
		}
		s.Hours = append(s.Hours, h)
		return nil
	}
	var d planner.Drain
	var n int64
	errs = append(errs, count("drain", &n, true), count("running", &d.Running, true), count("finished", &d.Finished, false), count("lost", &d.Lost, false))
	d.N = int(n)
	if v := rec["rejected"]; v != "" {
		a, b, two := strings.Cut(v, "/")
		errs = append(errs, count2(a, &d.Rejected, "rejected"))
		if two {
			var arr int64
			errs = append(errs, count2(b, &arr, "arrivals"))
			d.Arrivals = &arr
		}
	}
	if v := rec["arrivals"]; v != "" {
		var arr int64
		errs = append(errs, count2(v, &arr, "arrivals"))
		d.Arrivals = &arr
	}
	var err error
	if d.EmptyAfterS, err = opt("empty", func(v string) (float64, bool, error) { return parseSeconds(v, ms["empty"]) }); err != nil {
		errs = append(errs, err)
	}
	if err := firstErr(errs); err != nil {
		return err
	}
	if d.Finished+d.Lost > d.Running {
		return fmt.Errorf("drain %d: finished and lost (%d + %d) exceed the %d running", d.N, d.Finished, d.Lost, d.Running)
	}
	s.Drains = append(s.Drains, d)
	return nil
}

func count2(v string, dst *int64, what string) error {
	n, ok, err := parseCount(v)
	if err != nil {
		return fmt.Errorf("%s: %v", what, err)
	}
	if ok {
		*dst = n
	}
	return nil
}

func firstErr(errs []error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// soakJSON reads the object (or array) with the streaming lexer, one
// record at a time: keys other than hours and drains are skipped without
// being kept (a long string streams past), and each record's fields are
// read one by one, so no value larger than a record is held.
func soakJSON(name string, br *bufio.Reader, s *planner.Soak) error {
	l := newLexer(br)
	l.recognizeBy = 0
	l.countLines = true
	st := newSoakState(s)
	fail := func(err error) error {
		var e *Error
		if errors.As(err, &e) {
			return err
		}
		var te *truncatedError
		if errors.As(err, &te) {
			return &Error{File: name, Msg: fmt.Sprintf("line %d: %s", l.line(), te.Error()), Err: err}
		}
		return evidenceErr(name, l.line(), "%v", err)
	}
	c, err := l.peek("")
	if err != nil {
		return fail(err)
	}
	if c == '[' {
		if err := soakJSONArray(name, l, st, "hours"); err != nil {
			return fail(err)
		}
	} else {
		seen := map[string]bool{}
		err := l.object("", func(key string) error {
			kind := ""
			switch nk := normKey(key); nk {
			case "hours", "hourly":
				kind = "hours"
			case "drains":
				kind = "drains"
			default:
				if soakSummaryKey(nk) == "" {
					return l.skip(key)
				}
				// The run summary's mean power or output tokens.
				v, err := soakJSONValue(l, key)
				if err != nil {
					return err
				}
				if _, ok, err := parseQuantity(v); !ok || err != nil {
					return fmt.Errorf("%q: %q is not a figure", key, v)
				}
				return addSoakSummary(s, []string{key, v})
			}
			if seen[kind] {
				return fmt.Errorf("%q: a second list of %s", key, kind)
			}
			seen[kind] = true
			if c, err := l.peek(key); err != nil {
				return err
			} else if c != '[' {
				return fmt.Errorf("%q must be a list", key)
			}
			return soakJSONArray(key, l, st, kind)
		})
		if err != nil {
			return fail(err)
		}
	}
	if err := l.finish(); err != nil {
		return fail(err)
	}
	return nil
}

// soakJSONArray reads records up to the closing bracket.
func soakJSONArray(path string, l *lexer, st *soakState, kind string) error {
	cols := soakHourCols
	if kind == "drains" {
		cols = soakDrainCols
	}
	return l.array(path, func(i int) error {
		at := fmt.Sprintf("%s[%d]", path, i)
		if path == "" {
			at = fmt.Sprintf("[%d]", i)
		}
		line := l.line()
		rec := map[string]string{}
		var header []string
		keyOf := map[string]string{}
		if c, err := l.peek(at); err != nil {
			return err
		} else if c != '{' {
			return fmt.Errorf("%s must be an object", at)
		}
		err := l.object(at, func(k string) error {
			nk := normKey(k)
			f := cols[nk]
			if f == "" {
				return l.skip(at + "." + k)
			}
			if prev, ok := keyOf[f]; ok {
				return fmt.Errorf("%s: %q and %q both give %s: which one holds the figure cannot be known; keep one", at, prev, k, f)
			}
			keyOf[f] = k
			if strings.HasSuffix(nk, "ms") {
				f += "|ms"
			}
			v, err := soakJSONValue(l, at+"."+k)
			if err != nil {
				return err
			}
			header = append(header, f)
			rec[f] = v
			return nil
		})
		if err != nil {
			return err
		}
		if err := st.add(kind, rec, header); err != nil {
			return fmt.Errorf("line %d: %s: %v", line, at, err)
		}
		return nil
	})
}

// maxSoakValue bounds one field of a soak record: a figure, never a text.
const maxSoakValue = 256

// soakJSONValue reads one field of a record as the text a table cell would
// hold: a number as written, a string, or "" for null.
func soakJSONValue(l *lexer, path string) (string, error) {
	c, err := l.peek(path)
	if err != nil {
		return "", err
	}
	switch c {
	case '{', '[':
		return "", fmt.Errorf("%s must be a number, not a list or object", path)
	case '"':
		var long bool
		var b []byte
		err := l.skipString(path, func(seg []byte) {
			if len(b)+len(seg) > maxSoakValue {
				long = true
				return
			}
			b = append(b, seg...)
		})
		if err != nil {
			return "", err
		}
		if long {
			return "", fmt.Errorf("%s is a text longer than %d bytes, not a figure", path, maxSoakValue)
		}
		var s string
		if err := json.Unmarshal(append(append([]byte{'"'}, b...), '"'), &s); err != nil {
			return "", fmt.Errorf("%s: invalid string", path)
		}
		return s, nil
	}
	lit, err := l.literal(path)
	if err != nil {
		return "", err
	}
	switch v := string(lit); v {
	case "null":
		return "", nil
	case "true", "false", "NaN", "Infinity", "-Infinity":
		return "", fmt.Errorf("%s: %s is not a figure", path, v)
	default:
		var n json.Number
		if err := json.Unmarshal(lit, &n); err != nil {
			return "", fmt.Errorf("%s: %q is not a number", path, clip(lit))
		}
		return v, nil
	}
}
