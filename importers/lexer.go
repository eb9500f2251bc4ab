package importers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// maxDepth bounds the nesting of a document read by the lexer.
const maxDepth = 10000

// lexer is a hand-written streaming JSON reader for large GuideLLM reports.
// It navigates objects and arrays, skips values it does not need without
// decoding them (strings are skipped with bytes.IndexByte), and hands small
// sub-values to encoding/json. Python's bare NaN, Infinity and -Infinity are
// accepted as numbers. Skipped values are checked for structure (balanced
// brackets, terminated strings, allowed characters), not for the full
// grammar.
type lexer struct {
	r        io.Reader
	buf      []byte
	pos, end int
	base     int64 // offset of buf[0] in the stream
	err      error // sticky read error (io.EOF at the end)
	capOn    bool
	capStart int
	cap      []byte
	capOver  bool // the value being captured passed its bound and is being skipped
	// capMax is the most a captured value may hold (0: maxCapture); what
	// names the document in tooBig's refusal ("" for a benchmark result).
	capMax int
	what   string
	stack  []byte

	// recognizeBy is the offset by which the format must be recognised
	// (0: no limit); recognized is set by the reader once it is.
	recognizeBy int64
	recognized  bool
	// countLines keeps lines, the number of newlines before buf[0].
	countLines bool
	lines      int

	keys   map[string]string // interned keys, so a key seen before costs no allocation
	recent [256]string       // the last key interned in each slot (see intern)
	lit    []byte            // a literal cut by the end of the buffer
	kbuf   []byte            // a key cut by the end of the buffer or escaped
	chunks *ahead            // when set, hands whole buffers read ahead instead of r
}

// maxInterned bounds the interned keys (and maxInternLen their length): a
// report repeats a few dozen keys millions of times; a file of distinct
// keys gets its keys allocated one by one, as before.
const (
	maxInterned  = 4096
	maxInternLen = 128
)

// maxCapture bounds a value read whole (a summary, a metrics object):
// anything larger is not a figure a benchmark tool writes, and holding it
// would break the bounded memory of the reader.
const maxCapture = 8 << 20

// recognizeWithin is how far into a file its format must be recognised;
// a file that names no known field by then is refused unread.
const recognizeWithin = 1 << 20

func newLexer(r io.Reader) *lexer {
	return &lexer{r: r, buf: make([]byte, 256<<10), recognizeBy: recognizeWithin, keys: map[string]string{}}
}

// notRecognizedError refuses a file whose first megabyte names no field of
// any known format.
type notRecognizedError struct{}

func (notRecognizedError) Error() string {
	return "not a recognised benchmark result: nothing in its first megabyte names a field of the results of " + FormatLabels() + " (the rest was not read)"
}

// line is the 1-based line of the next byte (with countLines).
func (l *lexer) line() int {
	return l.lines + bytes.Count(l.buf[:l.pos], []byte{'\n'}) + 1
}

// offset is the position of the next byte in the stream.
func (l *lexer) offset() int64 { return l.base + int64(l.pos) }

// fill makes at least one byte available; false at the end of input.
func (l *lexer) fill() bool {
	for l.pos >= l.end {
		if l.err != nil {
			return false
		}
		if l.capOn {
			if len(l.cap)+l.end-l.capStart > l.captureBound() {
				l.capOn, l.capOver, l.cap = false, true, nil
			} else {
				l.cap = append(l.cap, l.buf[l.capStart:l.end]...)
			}
			l.capStart = 0
		}
		if l.countLines {
			l.lines += bytes.Count(l.buf[:l.end], []byte{'\n'})
		}
		if !l.recognized && l.recognizeBy > 0 && l.base+int64(l.end) >= l.recognizeBy {
			l.err = notRecognizedError{}
			return false
		}
		l.base += int64(l.end)
		n, err := l.r.Read(l.buf)
		l.pos, l.end = 0, n
		if err != nil {
			l.err = err
		}
	}
	return true
}

// eof returns the error for input that ended too early.
func (l *lexer) eof(path string) error {
	var nr notRecognizedError
	if errors.As(l.err, &nr) || errors.Is(l.err, context.Canceled) || errors.Is(l.err, context.DeadlineExceeded) || errors.Is(l.err, ErrTooLarge) {
		return l.err
	}
	if l.err != nil && l.err != io.EOF {
		return fmt.Errorf("%s: %w", orRoot(path), l.err)
	}
	return &truncatedError{Path: path}
}

// peek skips whitespace and returns the next byte.
func (l *lexer) peek(path string) (byte, error) {
	for {
		if l.pos >= l.end && !l.fill() {
			return 0, l.eof(path)
		}
		c := l.buf[l.pos]
		if !isSpace(c) {
			return c, nil
		}
		l.pos++
	}
}

// expect consumes the byte c after whitespace.
func (l *lexer) expect(path string, c byte, what string) error {
	got, err := l.peek(path)
	if err != nil {
		return err
	}
	if got != c {
		return l.unexpected(path, what)
	}
	l.pos++
	return nil
}

// unexpected describes the byte at the current position.
func (l *lexer) unexpected(path, what string) error {
	c := l.buf[l.pos]
	desc := fmt.Sprintf("%q", c)
	switch {
	case c == '{':
		desc = "an object"
	case c == '[':
		desc = "an array"
	case c == '"':
		desc = "a string"
	case c == '-' || c >= '0' && c <= '9':
		desc = "a number"
	case c == 't' || c == 'f':
		desc = "a boolean"
	}
	return fmt.Errorf("%s: expected %s, found %s at byte %d", orRoot(path), what, desc, l.offset())
}

// null consumes a null literal if one is next.
func (l *lexer) null(path string) (bool, error) {
	c, err := l.peek(path)
	if err != nil || c != 'n' {
		return false, err
	}
	lit, err := l.literal(path)
	if err != nil {
		return false, err
	}
	if string(lit) != "null" {
		return false, fmt.Errorf("%s: invalid literal %q at byte %d", orRoot(path), clip(lit), l.offset())
	}
	return true, nil
}

// object reads an object, calling fn for each key; fn must consume the
// value. null counts as an empty object.
func (l *lexer) object(path string, fn func(key string) error) error {
	if isNull, err := l.null(path); err != nil || isNull {
		return err
	}
	if err := l.expect(path, '{', "an object"); err != nil {
		return err
	}
	if err := l.push(path, '{'); err != nil {
		return err
	}
	c, err := l.peek(path)
	if err != nil {
		return err
	}
	if c == '}' {
		l.pos++
		l.pop()
		return nil
	}
	for {
		if c, err = l.peek(path); err != nil {
			return err
		}
		if c != '"' {
			return l.unexpected(path, "a key")
		}
		k, err := l.key(path)
		if err != nil {
			return err
		}
		if err := l.expect(path, ':', "':'"); err != nil {
			return err
		}
		if err := fn(k); err != nil {
			return err
		}
		if c, err = l.peek(path); err != nil {
			return err
		}
		l.pos++
		if c == '}' {
			l.pop()
			return nil
		}
		if c != ',' {
			l.pos--
			return l.unexpected(path, "',' or '}'")
		}
	}
}

// intern returns b as a string, allocating only for a key not seen before.
// A small table indexed by length and end bytes answers most keys without
// hashing them.
func (l *lexer) intern(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	i := (uint(len(b))*131 + uint(b[0])*31 + uint(b[len(b)-1])) % uint(len(l.recent))
	if s := l.recent[i]; s == string(b) {
		return s
	}
	s, ok := l.keys[string(b)]
	if !ok {
		s = string(b)
		if len(l.keys) < maxInterned && len(b) <= maxInternLen {
			l.keys[s] = s
		}
	}
	l.recent[i] = s
	return s
}

// array reads an array, calling fn for each element; null counts as empty.
func (l *lexer) array(path string, fn func(i int) error) error {
	if isNull, err := l.null(path); err != nil || isNull {
		return err
	}
	if err := l.expect(path, '[', "an array"); err != nil {
		return err
	}
	if err := l.push(path, '['); err != nil {
		return err
	}
	c, err := l.peek(path)
	if err != nil {
		return err
	}
	if c == ']' {
		l.pos++
		l.pop()
		return nil
	}
	for i := 0; ; i++ {
		if err := fn(i); err != nil {
			return err
		}
		if c, err = l.peek(path); err != nil {
			return err
		}
		l.pos++
		if c == ']' {
			l.pop()
			return nil
		}
		if c != ',' {
			l.pos--
			return l.unexpected(path, "',' or ']'")
		}
	}
}

func (l *lexer) push(path string, c byte) error {
	if len(l.stack) >= maxDepth {
		return fmt.Errorf("%s: nested deeper than %d levels", orRoot(path), maxDepth)
	}
	l.stack = append(l.stack, c)
	return nil
}

func (l *lexer) pop() { l.stack = l.stack[:len(l.stack)-1] }

// maxKey bounds the length of a key: a longer one is no benchmark field.
const maxKey = 64 << 10

// key reads a key (the next byte is its quote). A key without escapes
// that ends inside the buffer is read in place.
func (l *lexer) key(path string) (string, error) {
	b := l.buf[l.pos+1 : l.end]
	if q := bytes.IndexByte(b, '"'); q >= 0 && bytes.IndexByte(b[:q], '\\') < 0 {
		if bytes.IndexByte(b[:q], 0) >= 0 {
			return "", nulError(path, l.offset())
		}
		l.pos += q + 2
		return l.intern(b[:q]), nil
	}
	kb, err := l.str(path, l.kbuf[:0])
	if err != nil {
		return "", err
	}
	l.kbuf = kb
	return l.intern(kb), nil
}

// str reads a string (the next byte is its quote) of at most maxKey bytes
// and appends its unescaped content to dst.
func (l *lexer) str(path string, dst []byte) ([]byte, error) {
	start := len(dst)
	escaped := false
	dst = append(dst, '"')
	l.pos++ // opening quote
	for {
		if len(dst)-start > maxKey {
			return nil, fmt.Errorf("%s: a key longer than %d KB at byte %d: not a benchmark result", orRoot(path), maxKey>>10, l.offset())
		}
		if l.pos >= l.end && !l.fill() {
			return nil, l.eof(path)
		}
		b := l.buf[l.pos:l.end]
		q := bytes.IndexByte(b, '"')
		lim := q
		if lim < 0 {
			lim = len(b)
		}
		if bs := bytes.IndexByte(b[:lim], '\\'); bs >= 0 {
			// keep the backslash and the byte it escapes
			escaped = true
			dst = append(dst, b[:bs+1]...)
			l.pos += bs + 1
			if l.pos >= l.end && !l.fill() {
				return nil, l.eof(path)
			}
			dst = append(dst, l.buf[l.pos])
			l.pos++
			continue
		}
		if q < 0 {
			dst = append(dst, b...)
			l.pos = l.end
			continue
		}
		dst = append(dst, b[:q]...)
		l.pos += q + 1
		break
	}
	if bytes.IndexByte(dst[start:], 0) >= 0 {
		return nil, nulError(path, l.offset())
	}
	if !escaped {
		return append(dst[:start], dst[start+1:]...), nil
	}
	dst = append(dst, '"')
	var s string
	if err := json.Unmarshal(dst[start:], &s); err != nil {
		return nil, fmt.Errorf("%s: invalid string: %w", orRoot(path), err)
	}
	return append(dst[:start], s...), nil
}

// skipString consumes a string (the next byte is its quote), passing the
// raw segments of its content (escapes not decoded) to seg when not nil.
// Each byte is looked at once or twice, however many escapes the string
// holds (a request body written as a string escapes every quote).
func (l *lexer) skipString(path string, seg0 func([]byte)) error {
	l.pos++ // opening quote
	nul := false
	seg := func(p []byte) {
		if bytes.IndexByte(p, 0) >= 0 {
			nul = true
		}
		if seg0 != nil {
			seg0(p)
		}
	}
	for {
		if nul {
			return nulError(path, l.offset())
		}
		if l.pos >= l.end && !l.fill() {
			return l.eof(path)
		}
		b := l.buf[l.pos:l.end]
		q := bytes.IndexByte(b, '"')
		lim := q
		if lim < 0 {
			lim = len(b)
		}
		bs := bytes.IndexByte(b[:lim], '\\')
		for bs >= 0 && bs+1 < len(b) {
			// pass the backslash and the byte it escapes
			n := bs + 2
			seg(b[:n])
			l.pos += n
			b = b[n:]
			if q >= 0 {
				if q -= n; q < 0 { // the quote found was the escaped byte
					q = bytes.IndexByte(b, '"')
				}
			}
			lim = q
			if lim < 0 {
				lim = len(b)
			}
			bs = bytes.IndexByte(b[:lim], '\\')
		}
		if bs >= 0 {
			// a backslash at the end of the buffer: the byte it escapes comes next
			seg(b[:bs+1])
			l.pos += bs + 1
			if l.pos >= l.end && !l.fill() {
				return l.eof(path)
			}
			seg(l.buf[l.pos : l.pos+1])
			l.pos++
			continue
		}
		if q < 0 {
			seg(b)
			l.pos = l.end
			continue
		}
		seg(b[:q])
		l.pos += q + 1
		if nul {
			return nulError(path, l.offset())
		}
		return nil
	}
}

// nulError refuses a NUL byte inside a string: no tool writes one, and
// it would end the text early wherever it is shown.
func nulError(path string, at int64) error {
	return fmt.Errorf("%s: a NUL byte inside a string (before byte %d): the file is damaged or not text", orRoot(path), at)
}

// literalChar marks the bytes a number or literal may hold.
var literalChar = func() (t [256]bool) {
	for _, c := range []byte("0123456789+-.eEtruefalsnNaIifinity") {
		t[c] = true
	}
	return
}()

// literal consumes a number or a true/false/null/NaN/Infinity literal. The
// bytes returned are valid until the next read of the lexer.
func (l *lexer) literal(path string) ([]byte, error) {
	if l.pos < l.end || l.fill() {
		// the common case: the literal ends inside the buffer
		b := l.buf[l.pos:l.end]
		i := 0
		for i < len(b) && literalChar[b[i]] {
			i++
		}
		if i < len(b) {
			if i == 0 {
				return nil, l.unexpected(path, "a value")
			}
			if i > 64 {
				l.pos += i
				return nil, fmt.Errorf("%s: number too long at byte %d", orRoot(path), l.offset())
			}
			l.pos += i
			return b[:i], nil
		}
	}
	out := l.lit[:0]
	defer func() { l.lit = out[:0] }()
	for {
		if l.pos >= l.end && !l.fill() {
			if len(out) > 0 && l.err == io.EOF {
				return out, nil
			}
			return nil, l.eof(path)
		}
		b := l.buf[l.pos:l.end]
		i := 0
		for i < len(b) && literalChar[b[i]] {
			i++
		}
		out = append(out, b[:i]...)
		l.pos += i
		if len(out) > 64 {
			return nil, fmt.Errorf("%s: number too long at byte %d", orRoot(path), l.offset())
		}
		if i < len(b) {
			if len(out) == 0 {
				return nil, l.unexpected(path, "a value")
			}
			return out, nil
		}
	}
}

// num reads a number (or null, NaN, ±Infinity).
func (l *lexer) num(path string) (num, error) {
	var n num
	c, err := l.peek(path)
	if err != nil {
		return n, err
	}
	if c == '"' || c == '{' || c == '[' {
		raw, err := l.capture(path)
		if err != nil {
			return n, err
		}
		if err := n.UnmarshalJSON(raw); err != nil {
			return n, fmt.Errorf("%s: %w", orRoot(path), err)
		}
		return n, nil
	}
	lit, err := l.literal(path)
	if err != nil {
		return n, err
	}
	switch string(lit) {
	case "NaN", "Infinity", "-Infinity":
		lit = append(append([]byte{'"'}, lit...), '"')
	}
	if err := n.UnmarshalJSON(lit); err != nil {
		return n, fmt.Errorf("%s: %w", orRoot(path), err)
	}
	return n, nil
}

// skip consumes the next value whatever it is.
func (l *lexer) skip(path string) error {
	c, err := l.peek(path)
	if err != nil {
		return err
	}
	switch c {
	case '"':
		return l.skipString(path, nil)
	case '{', '[':
		return l.skipNested(path)
	}
	_, err = l.literal(path)
	return err
}

// skipNested consumes an object or array, checking bracket balance.
func (l *lexer) skipNested(path string) error {
	base := len(l.stack)
	for {
		if l.pos >= l.end && !l.fill() {
			return l.eof(path)
		}
		c := l.buf[l.pos]
		switch {
		case c == '"':
			if err := l.skipString(path, nil); err != nil {
				return err
			}
			continue
		case c == '{' || c == '[':
			if err := l.push(path, c); err != nil {
				return err
			}
		case c == '}' || c == ']':
			if len(l.stack) == base || l.stack[len(l.stack)-1] != opener(c) {
				return fmt.Errorf("%s: mismatched %q at byte %d", orRoot(path), c, l.offset())
			}
			l.pop()
			if len(l.stack) == base {
				l.pos++
				return nil
			}
		case c == ',' || c == ':' || isSpace(c) || literalChar[c]:
		default:
			return fmt.Errorf("%s: invalid character %q at byte %d", orRoot(path), c, l.offset())
		}
		l.pos++
	}
}

// capture consumes the next value and returns its raw bytes; a value
// larger than its bound is refused (after it was skipped).
func (l *lexer) capture(path string) ([]byte, error) {
	raw, over, err := l.captureOrSkip(path)
	if err == nil && over {
		err = l.tooBig(path)
	}
	return raw, err
}

// captureBound is the most a captured value may hold.
func (l *lexer) captureBound() int {
	if l.capMax > 0 {
		return l.capMax
	}
	return maxCapture
}

// tooBig refuses a value past the capture bound, naming the document as
// the lexer's reader set it.
func (l *lexer) tooBig(path string) error {
	if l.what == "" && l.capMax == 0 {
		return tooBigError(path)
	}
	return fmt.Errorf("%s: larger than %s, more than any %s holds", orRoot(path), byteSize(l.captureBound()), orText(l.what, "benchmark result"))
}

// byteSize is n bytes in words: "8 MB", "64 KB".
func byteSize(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return strconv.Itoa(n>>20) + " MB"
	}
	return strconv.Itoa(n>>10) + " KB"
}

// orText is s, or alt when s is empty.
func orText(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// tooBigError refuses a value that is too large to be read whole.
func tooBigError(path string) error {
	return fmt.Errorf("%s: larger than %d MB, more than any benchmark summary holds: not a benchmark result", orRoot(path), maxCapture>>20)
}

// captureOrSkip consumes the next value and returns its raw bytes, or
// over=true (and no bytes) when it is larger than its bound.
func (l *lexer) captureOrSkip(path string) (raw []byte, over bool, err error) {
	if _, err := l.peek(path); err != nil {
		return nil, false, err
	}
	if l.cap == nil {
		l.cap = make([]byte, 0, 4<<10)
	}
	l.capOn, l.capOver, l.capStart, l.cap = true, false, l.pos, l.cap[:0]
	err = l.skip(path)
	wasOver := l.capOver
	l.capOn, l.capOver = false, false
	if err != nil {
		return nil, false, err
	}
	if wasOver || len(l.cap)+l.pos-l.capStart > l.captureBound() {
		return nil, true, nil
	}
	return append(l.cap, l.buf[l.capStart:l.pos]...), false, nil
}

// decode reads the next value into v with encoding/json.
func (l *lexer) decode(path string, v any) error {
	raw, err := l.capture(path)
	if err != nil {
		return err
	}
	if bytes.IndexByte(raw, 'N') >= 0 || bytes.IndexByte(raw, 'I') >= 0 {
		raw = sanitizeAll(raw)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return tokenErr(path, err)
	}
	return nil
}

// end checks that only whitespace follows the document.
func (l *lexer) finish() error {
	for {
		if l.pos >= l.end && !l.fill() {
			if l.err == io.EOF {
				return nil
			}
			return l.err
		}
		if !isSpace(l.buf[l.pos]) {
			return fmt.Errorf("unexpected data after the end of the document at byte %d", l.offset())
		}
		l.pos++
	}
}

// opener returns the bracket that c closes.
func opener(c byte) byte {
	if c == '}' {
		return '{'
	}
	return '['
}
