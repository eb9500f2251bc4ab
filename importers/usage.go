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

// usageCols maps normalised field names of a usage log to its fields.
var usageCols = map[string]string{
	"tenant": "tenant", "team": "tenant", "customer": "tenant", "apikey": "tenant", "key": "tenant",
	"start": "start", "starttime": "start", "started": "start", "startedat": "start", "requeststart": "start",
	"end": "end", "endtime": "end", "ended": "end", "endedat": "end", "finished": "end", "requestend": "end",
	"prompttokens": "prompt", "inputtokens": "prompt", "prompt": "prompt",
	"outputtokens": "output", "completiontokens": "output", "output": "output", "generatedtokens": "output",
}

// ParseUsage reads a per-request usage log with a tenant label and hands
// every request to emit, in file order. The log is JSON Lines (one object a
// line) or CSV with a header; the fields are tenant, start, end, prompt
// tokens and output tokens (aliases such as input_tokens and
// completion_tokens are accepted). Times are Unix seconds (milliseconds
// when above 1e11) or RFC 3339; times without a zone are in opt.Location.
func ParseUsage(name string, r io.Reader, opt EvidenceOptions, emit func(planner.UsageRecord) error) (f *EvidenceFile, err error) {
	hr := newHashedReader(r, opt.MaxBytes)
	defer func() {
		if p := recover(); p != nil {
			f, err = nil, &Error{File: name, Msg: fmt.Sprintf("internal error while reading the file: %v", p)}
		}
		if o := hr.over(err); o != err {
			f, err = nil, &Error{File: name, Msg: o.Error(), Err: o}
		}
	}()
	br := bufio.NewReaderSize(hr, 64<<10)
	f = &EvidenceFile{Name: name}
	c, perr := firstByte(br)
	switch {
	case perr == io.EOF:
		return nil, &Error{File: name, Msg: "the file is empty"}
	case perr != nil:
		return nil, wrapErr(name, perr)
	}
	lr := newLineReader(br)
	var header []string
	if c == '{' {
		f.Format = "usage-jsonl"
	} else {
		f.Format = "usage-csv"
	}
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		rec := map[string]string{}
		if f.Format == "usage-jsonl" {
			if err := usageJSONLine(line, rec); err != nil {
				return nil, evidenceErr(name, lr.no, "%v", err)
			}
		} else {
			cells, err := splitRow(line)
			if err != nil {
				return nil, evidenceErr(name, lr.no, "unreadable line: %v", err)
			}
			if header == nil {
				header = make([]string, len(cells))
				seen := map[string]bool{}
				for i, c := range cells {
					header[i] = usageCols[normKey(c)]
					seen[header[i]] = true
				}
				if err := checkHeader(name, lr.no, cells, header); err != nil {
					return nil, err
				}
				for _, need := range []string{"tenant", "start", "end", "prompt", "output"} {
					if !seen[need] {
						return nil, evidenceErr(name, lr.no, "not a usage log: the header needs tenant, start, end, prompt tokens and output tokens; %s is missing", need)
					}
				}
				continue
			}
			if len(cells) != len(header) {
				return nil, evidenceErr(name, lr.no, "%d fields where the header names %d", len(cells), len(header))
			}
			for i, k := range header {
				if k != "" {
					rec[k] = cells[i]
				}
			}
		}
		u, err := usageRecord(rec, opt)
		if err != nil {
			return nil, evidenceErr(name, lr.no, "%v", err)
		}
		f.Records++
		if err := emit(u); err != nil {
			return nil, evidenceErr(name, lr.no, "%v", err)
		}
	}
	if err := lr.err(); err != nil {
		return nil, wrapErr(name, err)
	}
	if err := hr.finish(f); err != nil {
		return nil, wrapErr(name, err)
	}
	if f.Records == 0 {
		return nil, &Error{File: name, Msg: "no requests in the usage log"}
	}
	return f, nil
}

func usageRecord(rec map[string]string, opt EvidenceOptions) (planner.UsageRecord, error) {
	var u planner.UsageRecord
	for _, need := range []string{"tenant", "start", "end", "prompt", "output"} {
		if strings.TrimSpace(rec[need]) == "" {
			return u, fmt.Errorf("%s is missing", map[string]string{"prompt": "prompt tokens", "output": "output tokens"}[need]+orKey(need))
		}
	}
	u.Tenant = strings.TrimSpace(rec["tenant"])
	if err := checkLabel("the tenant", u.Tenant); err != nil {
		return u, err
	}
	st, err := parseInstant(rec["start"], opt.loc())
	if err != nil {
		return u, fmt.Errorf("start: %v", err)
	}
	en, err := parseInstant(rec["end"], opt.loc())
	if err != nil {
		return u, fmt.Errorf("end: %v", err)
	}
	u.Start, u.End = unixSeconds(st), unixSeconds(en)
	if u.End < u.Start {
		return u, fmt.Errorf("the request ends before it starts")
	}
	var ok bool
	if u.PromptTokens, ok, err = parseCount(rec["prompt"]); err != nil || !ok {
		return u, fmt.Errorf("prompt tokens: %v", orMissing(err))
	}
	if u.OutputTokens, ok, err = parseCount(rec["output"]); err != nil || !ok {
		return u, fmt.Errorf("output tokens: %v", orMissing(err))
	}
	return u, nil
}

func orKey(k string) string {
	if k == "prompt" || k == "output" {
		return ""
	}
	return k
}

func orMissing(err error) error {
	if err == nil {
		return errors.New("missing")
	}
	return err
}

// usageJSONLine reads one JSON Lines record into rec: the fields it names
// (a field given twice, under one name or two aliases, is refused), others
// skipped whatever they hold.
func usageJSONLine(line string, rec map[string]string) error {
	d := json.NewDecoder(strings.NewReader(line))
	d.UseNumber()
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return errors.New("not a JSON object")
	}
	keyOf := map[string]string{}
	for d.More() {
		kt, err := d.Token()
		if err != nil {
			return fmt.Errorf("not a JSON object: %v", err)
		}
		k, _ := kt.(string)
		fld := usageCols[normKey(k)]
		if fld == "" {
			if err := skipJSONValue(d); err != nil {
				return fmt.Errorf("not a JSON object: %v", err)
			}
			continue
		}
		if prev, ok := keyOf[fld]; ok {
			return fmt.Errorf("%q and %q both give the %s: which one holds it cannot be known; keep one", prev, k, fld)
		}
		keyOf[fld] = k
		vt, err := d.Token()
		if err != nil {
			return fmt.Errorf("not a JSON object: %v", err)
		}
		switch v := vt.(type) {
		case nil:
		case string:
			rec[fld] = v
		case json.Number:
			rec[fld] = v.String()
		case json.Delim:
			return fmt.Errorf("%q must be a number or a text, not a list or object", k)
		default:
			return fmt.Errorf("%q: %v is not a figure", k, v)
		}
	}
	if _, err := d.Token(); err != nil {
		return fmt.Errorf("not a JSON object: %v", err)
	}
	if _, err := d.Token(); err != io.EOF {
		return errors.New("more than one JSON value on the line")
	}
	return nil
}

// skipJSONValue consumes the decoder's next value, nested or not.
func skipJSONValue(d *json.Decoder) error {
	depth := 0
	for {
		t, err := d.Token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}
