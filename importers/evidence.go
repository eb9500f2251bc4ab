package importers

// Helpers shared by the importers of operations evidence: GPU telemetry
// (telemetry.go), soak and drain tables (soak.go), per-request usage logs
// (usage.go) and aggregate production traffic (traffic.go). Each reads its
// input as a stream, line by line or record by record, hands every record to
// a callback and keeps no more than a line in memory; the caller decides
// what to keep, so a failed file loses nothing (whole or nothing).

import (
	"bufio"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// EvidenceOptions tunes the evidence importers.
type EvidenceOptions struct {
	// MaxBytes is the largest input accepted; 0 means unlimited.
	MaxBytes int64
	// Location is the time zone of timestamps written without one
	// (nvidia-smi writes local time without a zone); nil means UTC.
	Location *time.Location
}

func (o EvidenceOptions) loc() *time.Location {
	if o.Location == nil {
		return time.UTC
	}
	return o.Location
}

// EvidenceFile describes one imported evidence file.
type EvidenceFile struct {
	Name    string `json:"name"`
	SHA256  string `json:"sha256"`
	Format  string `json:"format"` // "nvidia-smi", "dcgm", "soak-csv", "soak-json", "usage-jsonl", "usage-csv", "traffic-csv"
	Bytes   int64  `json:"bytes"`
	Records int    `json:"records"`
	// Warnings are readings skipped where the format allows them (NaN in
	// a Prometheus scrape), each saying how many and where the first was.
	Warnings []string `json:"warnings,omitempty"`
}

// Bounds of the evidence readers (README, "Evidence files"). Past a bound a
// file is refused, saying which bound and where: each importer keeps
// aggregates whose size does not grow with the file, and these bounds keep
// the tables and labels it does keep small whatever the input.
const (
	// MaxSoakHours is the most hours a soak table may list (a 30-day soak).
	MaxSoakHours = 720
	// MaxSoakDrains is the most drains a soak's drains table may list.
	MaxSoakDrains = 100
	// MaxTelemetrySamples is the most GPU samples one log may hold (8 GPUs
	// sampled every second for 72 days).
	MaxTelemetrySamples = 50_000_000
	// MaxTelemetryGPUs is the most distinct GPUs one log may name.
	MaxTelemetryGPUs = 64
	// MaxTrafficBuckets is the most buckets a traffic table may hold (a
	// year of minutes, with room).
	MaxTrafficBuckets = 600_000
	// MaxTrafficDays is the most calendar days a traffic table may span.
	MaxTrafficDays = 400
	// MaxLabel is the longest GPU name or tenant label accepted, in bytes.
	MaxLabel = 200
)

// hashedReader counts, limits and hashes what is read through it.
type hashedReader struct {
	src io.Reader
	max int64
	n   int64
	h   hash.Hash
}

func newHashedReader(r io.Reader, max int64) *hashedReader {
	return &hashedReader{src: r, max: max, h: sha256.New()}
}

func (hr *hashedReader) Read(p []byte) (int, error) {
	if hr.max > 0 {
		if rem := hr.max + 1 - hr.n; int64(len(p)) > rem {
			p = p[:rem]
		}
	}
	n, err := hr.src.Read(p)
	hr.n += int64(n)
	hr.h.Write(p[:n])
	if hr.max > 0 && hr.n > hr.max {
		return n, fmt.Errorf("%w: larger than the limit of %d bytes", ErrTooLarge, hr.max)
	}
	return n, err
}

// over wraps err as ErrTooLarge when the input passed the limit: the
// content error it caused (a cut line) is not the user's problem.
func (hr *hashedReader) over(err error) error {
	if err != nil && hr.max > 0 && hr.n > hr.max {
		return fmt.Errorf("%w: larger than the limit of %d bytes", ErrTooLarge, hr.max)
	}
	return err
}

// finish reads the rest (so the hash covers the file) and fills f.
func (hr *hashedReader) finish(f *EvidenceFile) error {
	if _, err := io.Copy(io.Discard, hr); err != nil {
		return err
	}
	f.SHA256 = hex.EncodeToString(hr.h.Sum(nil))
	f.Bytes = hr.n
	return nil
}

// lineReader yields lines without their end, numbered from 1; a line longer
// than maxLine is an error rather than a memory hazard.
//
// A file cut off mid-line would give its last reading cut short (a power
// of 50 W for 500 W, a timestamp missing digits): every tool ends its
// lines with a line break, so a last line without one is refused as cut
// off, unless its own ends show it whole (a Markdown row's pipes, a JSON
// line's braces).
type lineReader struct {
	sc   *bufio.Scanner
	no   int
	open bool // the line last scanned had no line break: the file ends in it
	cut  bool // that line was refused as cut off
}

const maxLine = 1 << 20

func newLineReader(r io.Reader) *lineReader {
	l := &lineReader{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		adv, tok, err := bufio.ScanLines(data, atEOF)
		l.open = tok != nil && atEOF && adv == len(data) && (len(data) == 0 || data[len(data)-1] != '\n')
		return adv, tok, err
	})
	l.sc = sc
	return l
}

func (l *lineReader) next() (string, bool) {
	if l.cut || !l.sc.Scan() {
		return "", false
	}
	l.no++
	s := l.sc.Text()
	if l.no == 1 {
		s = strings.TrimPrefix(s, "\ufeff")
	}
	s = strings.TrimRight(s, "\r")
	if t := strings.TrimSpace(s); l.open && t != "" && !(strings.HasPrefix(t, "|") && strings.HasSuffix(t, "|")) && !(strings.HasPrefix(t, "{") && strings.HasSuffix(t, "}")) {
		l.cut = true
		return "", false
	}
	return s, true
}

func (l *lineReader) err() error {
	if l.cut {
		return fmt.Errorf("line %d: the file is cut off (truncated): its last line has no line break, so its last reading may be cut short; export it again", l.no)
	}
	if err := l.sc.Err(); err != nil {
		if err == bufio.ErrTooLong {
			what := ""
			if l.no == 0 {
				what = " (the header)"
			}
			return fmt.Errorf("line %d%s is longer than %d MB: no evidence table has lines that long; is this the right file?", l.no+1, what, maxLine>>20)
		}
		return err
	}
	return nil
}

// splitRow splits one table line: a Markdown row ("| a | b |") on its
// pipes, otherwise CSV (quoted fields allowed, within the line).
func splitRow(line string) ([]string, error) {
	t := strings.TrimSpace(line)
	if strings.HasPrefix(t, "|") {
		t = strings.TrimSuffix(strings.TrimPrefix(t, "|"), "|")
		cells := strings.Split(t, "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		return cells, nil
	}
	if !strings.Contains(line, `"`) {
		// no quoted field: the commas split it (most lines of a long log)
		cells := strings.Split(line, ",")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		return cells, nil
	}
	r := csv.NewReader(strings.NewReader(line))
	r.TrimLeadingSpace = true
	r.FieldsPerRecord = -1
	rec, err := r.Read()
	if err != nil {
		return nil, err
	}
	for i := range rec {
		rec[i] = strings.TrimSpace(rec[i])
	}
	return rec, nil
}

// isRule is a Markdown table's header rule ("|---|:--:|").
func isRule(cells []string) bool {
	for _, c := range cells {
		if strings.Trim(c, "-: ") != "" {
			return false
		}
	}
	return len(cells) > 0
}

// normKey folds a column name to lower-case letters and digits: "TTFT p99"
// -> "ttftp99", "°C max" -> "cmax", "power.draw [W]" -> "powerdraww".
func normKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// quantity is a number read from a cell, with the unit written after it.
type quantity struct {
	v    float64
	unit string // lower-case: "w", "mib", "%", "ms", "s", ""
}

// parseQuantity reads "17,422", "469.12 W", "99.99%", "271 ms", "12 s",
// "61234 MiB". Thousands separators (commas, spaces, thin spaces) are
// dropped; the unit after the number is kept. "[N/A]", "N/A", "" and "-"
// are not numbers (ok false, no error).
func parseQuantity(s string) (q quantity, ok bool, err error) {
	t := strings.TrimSpace(s)
	switch strings.ToLower(strings.Trim(t, "[]")) {
	case "", "n/a", "-", "na", "null", "not supported", "unknown error":
		return q, false, nil
	}
	i := 0
	var num strings.Builder
	for i < len(t) {
		c := t[i]
		switch {
		case c >= '0' && c <= '9', c == '.', c == '-', c == '+', (c == 'e' || c == 'E') && num.Len() > 0 && i+1 < len(t) && (t[i+1] >= '0' && t[i+1] <= '9' || t[i+1] == '-' || t[i+1] == '+'):
			num.WriteByte(c)
			i++
			continue
		case c == ',' || c == ' ' || c == '_':
			i++
			continue
		case c == 0xe2 && strings.HasPrefix(t[i:], "\u2009"), c == 0xe2 && strings.HasPrefix(t[i:], "\u202f"):
			i += 3
			continue
		}
		break
	}
	if num.Len() == 0 {
		return q, false, fmt.Errorf("%q is not a number", s)
	}
	v, perr := strconv.ParseFloat(num.String(), 64)
	if perr != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return q, false, fmt.Errorf("%q is not a finite number", s)
	}
	return quantity{v: v, unit: strings.ToLower(strings.TrimSpace(t[i:]))}, true, nil
}

// parseCount reads a whole, non-negative count.
func parseCount(s string) (int64, bool, error) {
	q, ok, err := parseQuantity(s)
	if !ok || err != nil {
		return 0, ok, err
	}
	switch {
	case q.v < 0:
		return 0, false, fmt.Errorf("%q is negative: a count cannot be", s)
	case q.v != math.Trunc(q.v):
		return 0, false, fmt.Errorf("%q is not a whole count", s)
	case q.v > 1e15:
		return 0, false, fmt.Errorf("%q is larger than any count a file holds (above 10^15)", s)
	case q.unit != "":
		return 0, false, fmt.Errorf("%q is not a whole count (%q follows the number)", s, q.unit)
	}
	return int64(q.v), true, nil
}

// parseSeconds reads a duration: its own unit ("271 ms", "12 s") wins, then
// the column's (headerMS when the column name says milliseconds), else
// seconds.
func parseSeconds(s string, headerMS bool) (float64, bool, error) {
	q, ok, err := parseQuantity(s)
	if !ok || err != nil {
		return 0, ok, err
	}
	if q.v < 0 {
		return 0, false, fmt.Errorf("%q is negative: a duration cannot be", s)
	}
	switch q.unit {
	case "ms":
		return q.v / 1000, true, nil
	case "s", "sec", "seconds":
		return q.v, true, nil
	case "":
		if headerMS {
			return q.v / 1000, true, nil
		}
		return q.v, true, nil
	}
	return 0, false, fmt.Errorf("%q: unknown time unit %q", s, q.unit)
}

// parseFraction reads a share: "99.97%" or "99.97" (percent, above 1) or
// "0.9997" (a fraction).
func parseFraction(s string) (float64, bool, error) {
	q, ok, err := parseQuantity(s)
	if !ok || err != nil {
		return 0, ok, err
	}
	v := q.v
	if q.unit == "%" || v > 1 {
		v /= 100
	}
	if v < 0 || v > 1 {
		return 0, false, fmt.Errorf("%q is not a share between 0 and 100 %%", s)
	}
	return v, true, nil
}

// parseInstant reads a time: Unix seconds (or milliseconds when above
// 1e11), RFC 3339, or "YYYY-MM-DD HH:MM[:SS[.fff]]" and "YYYY/MM/DD ..."
// in loc.
func parseInstant(s string, loc *time.Location) (time.Time, error) {
	t := strings.TrimSpace(s)
	if v, err := strconv.ParseFloat(t, 64); err == nil && !math.IsNaN(v) && !math.IsInf(v, 0) {
		if v > 1e11 {
			v /= 1000
		}
		sec, frac := math.Modf(v)
		return time.Unix(int64(sec), int64(math.Round(frac*1e9))).UTC(), nil
	}
	if ts, err := time.Parse(time.RFC3339Nano, t); err == nil {
		return ts, nil
	}
	for _, layout := range []string{
		"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999", "2006-01-02 15:04", "2006-01-02T15:04",
		"2006/01/02 15:04:05.999999999", "2006/01/02 15:04", "2006-01-02",
	} {
		if ts, err := time.ParseInLocation(layout, t, loc); err == nil {
			return ts, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a time (Unix seconds, RFC 3339 or YYYY-MM-DD HH:MM:SS)", s)
}

// unixSeconds is t as float Unix seconds.
func unixSeconds(t time.Time) float64 {
	return float64(t.Unix()) + float64(t.Nanosecond())/1e9
}

// colErr names the file, the line and the column (1-based, with the
// header's name of it when known).
func colErr(name string, line, col int, header string, format string, args ...any) error {
	where := fmt.Sprintf("line %d, column %d", line, col)
	if header = strings.TrimSpace(header); header != "" {
		where += " (" + clipStr(header) + ")"
	}
	return &Error{File: name, Msg: where + ": " + fmt.Sprintf(format, args...)}
}

// checkHeader refuses a header with a control character in a cell (a NUL
// would hide the column's name) and one naming a field twice (which of the
// two columns is meant cannot be known). fields[i] is the field cell i
// feeds, "" for a column not read.
func checkHeader(name string, line int, cells, fields []string) error {
	for i, c := range cells {
		for _, r := range c {
			if r < 0x20 && r != '\t' || r == 0x7f {
				return colErr(name, line, i+1, "", "the header holds a control character (%U) in %q: the column's name cannot be read; export the file again", r, clipStr(strings.Map(printable, c)))
			}
		}
	}
	first := map[string]int{}
	for i, f := range fields {
		if f == "" {
			continue
		}
		if j, ok := first[f]; ok {
			return colErr(name, line, i+1, cells[i], "a second column for the same field as column %d (%s): which one holds the readings cannot be known; keep one", j+1, clipStr(cells[j]))
		}
		first[f] = i
	}
	return nil
}

// printable shows a control character as "?".
func printable(r rune) rune {
	if r < 0x20 || r == 0x7f {
		return '?'
	}
	return r
}

// checkLabel refuses a GPU name or tenant label too long or holding a
// control character.
func checkLabel(what, v string) error {
	if len(v) > MaxLabel {
		return fmt.Errorf("%s %q… is longer than %d bytes", what, clipStr(v), MaxLabel)
	}
	for _, r := range v {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("%s %q holds a control character (%U)", what, strings.Map(printable, v), r)
		}
	}
	return nil
}

// evidenceErr names the file and, when known, the line.
func evidenceErr(name string, line int, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if line > 0 {
		msg = fmt.Sprintf("line %d: %s", line, msg)
	}
	return &Error{File: name, Msg: msg}
}

// firstByte peeks the first non-space byte without consuming it.
func firstByte(br *bufio.Reader) (byte, error) {
	for {
		b, err := br.Peek(1)
		if err != nil {
			return 0, err
		}
		switch b[0] {
		case ' ', '\t', '\r', '\n':
			_, _ = br.ReadByte()
			continue
		case 0xef: // a UTF-8 byte-order mark
			if p, _ := br.Peek(3); string(p) == "\ufeff" {
				_, _ = br.Discard(3)
				continue
			}
		}
		return b[0], nil
	}
}
