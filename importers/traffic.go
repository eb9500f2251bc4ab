package importers

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"

	"capplan/planner"
)

var trafficCols = map[string]string{
	"time": "time", "timestamp": "time", "start": "time", "hour": "time", "minute": "time", "bucket": "time", "period": "time", "datetime": "time",
	"requests": "requests", "count": "requests", "requestcount": "requests", "reqs": "requests",
	"peakinflight": "inflight", "maxinflight": "inflight", "inflightpeak": "inflight", "peakconcurrency": "inflight", "inflight": "inflight",
	"prompttokens": "prompt", "inputtokens": "prompt",
	"outputtokens": "output", "completiontokens": "output",
	"bucketseconds": "length", "bucketlengths": "length", "seconds": "length", "intervals": "length",
}

// ParseTraffic reads aggregate production traffic: a CSV of request counts
// per hour or per minute, optionally with the peak requests in flight and
// token totals per bucket (counts only, no request content). The columns
// are time (Unix seconds, RFC 3339 or YYYY-MM-DD HH:MM; without a zone in
// opt.Location), requests, and optionally peak_in_flight, prompt_tokens,
// output_tokens and bucket_seconds. Without bucket_seconds the bucket
// length is the gap between the first two times (60 s or 3,600 s, or any
// length up to an hour). Each bucket is handed to emit in file order.
func ParseTraffic(name string, r io.Reader, opt EvidenceOptions, emit func(planner.TrafficBucket) error) (f *EvidenceFile, err error) {
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
	f = &EvidenceFile{Name: name, Format: "traffic-csv"}
	if _, perr := firstByte(br); perr == io.EOF {
		return nil, &Error{File: name, Msg: "the file is empty"}
	} else if perr != nil {
		return nil, wrapErr(name, perr)
	}
	lr := newLineReader(br)
	var header []string
	var held *planner.TrafficBucket // the first bucket, until its length is known
	heldLine := 0
	var length float64
	var prev time.Time
	var cells0 []string
	days := 0
	var lastDay string
	send := func(b planner.TrafficBucket, line int) error {
		if f.Records >= MaxTrafficBuckets {
			return evidenceErr(name, line, "more than %d buckets: a year of minutes is the most one import reads (sum them by hour, or split the file)", MaxTrafficBuckets)
		}
		if d := b.Start.Format(planner.DateLayout); d != lastDay {
			if days++; days > MaxTrafficDays {
				return evidenceErr(name, line, "the buckets span more than %d days: the most one import reads (split the file)", MaxTrafficDays)
			}
			lastDay = d
		}
		f.Records++
		if err := emit(b); err != nil {
			return evidenceErr(name, line, "%v", err)
		}
		return nil
	}
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
			return nil, evidenceErr(name, lr.no, "unreadable line: %v", err)
		}
		if isRule(cells) {
			continue
		}
		if header == nil {
			header = make([]string, len(cells))
			seen := map[string]bool{}
			for i, c := range cells {
				header[i] = trafficCols[normKey(c)]
				seen[header[i]] = true
			}
			if err := checkHeader(name, lr.no, cells, header); err != nil {
				return nil, err
			}
			if !seen["time"] || !seen["requests"] {
				return nil, evidenceErr(name, lr.no, "not a traffic table: the header needs a time column and a requests column; found %s", clipStr(strings.Join(cells, ", ")))
			}
			cells0 = cells
			continue
		}
		if len(cells) != len(header) {
			return nil, evidenceErr(name, lr.no, "%d fields where the header names %d", len(cells), len(header))
		}
		var b planner.TrafficBucket
		var rowLen float64
		for i, k := range header {
			v := cells[i]
			switch k {
			case "time":
				t, err := parseInstant(v, opt.loc())
				if err != nil {
					return nil, colErr(name, lr.no, i+1, cells0[i], "%v", err)
				}
				b.Start = t
			case "requests":
				n, ok, err := parseCount(v)
				if err != nil {
					return nil, colErr(name, lr.no, i+1, cells0[i], "%v", err)
				}
				if !ok {
					return nil, colErr(name, lr.no, i+1, cells0[i], "the request count is missing")
				}
				b.Requests = n
			case "inflight", "prompt", "output":
				n, ok, err := parseCount(v)
				if err != nil {
					return nil, colErr(name, lr.no, i+1, cells0[i], "%v", err)
				}
				if ok {
					p := &n
					switch k {
					case "inflight":
						b.PeakInFlight = p
					case "prompt":
						b.PromptTokens = p
					case "output":
						b.OutputTokens = p
					}
				}
			case "length":
				s, ok, err := parseSeconds(v, false)
				if err != nil {
					return nil, colErr(name, lr.no, i+1, cells0[i], "%v", err)
				}
				if ok {
					rowLen = s
				}
			}
		}
		if !prev.IsZero() && !b.Start.After(prev) {
			return nil, evidenceErr(name, lr.no, "times must increase: %s follows %s", b.Start.Format(time.RFC3339), prev.Format(time.RFC3339))
		}
		prev = b.Start
		switch {
		case rowLen > 0:
			b.LengthS = rowLen
		case held != nil:
			length = b.Start.Sub(held.Start).Seconds()
			if length > 3600 {
				return nil, evidenceErr(name, lr.no, "the first two buckets are %g s apart: give a bucket_seconds column when buckets are not contiguous", length)
			}
			held.LengthS = length
			if err := send(*held, heldLine); err != nil {
				return nil, err
			}
			held = nil
			b.LengthS = length
		case length > 0:
			b.LengthS = length
		default:
			bb := b
			held, heldLine = &bb, lr.no
			continue
		}
		if err := send(b, lr.no); err != nil {
			return nil, err
		}
	}
	if err := lr.err(); err != nil {
		return nil, wrapErr(name, err)
	}
	if held != nil {
		return nil, evidenceErr(name, heldLine, "one bucket and no bucket_seconds column: its length is unknown")
	}
	if err := hr.finish(f); err != nil {
		return nil, wrapErr(name, err)
	}
	if f.Records == 0 {
		return nil, &Error{File: name, Msg: "no traffic buckets in the file"}
	}
	return f, nil
}
