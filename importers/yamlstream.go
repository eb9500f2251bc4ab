package importers

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"gopkg.in/yaml.v3"
)

// A GuideLLM YAML report larger than maxYAML is converted to JSON as it is
// read and handed to the streaming GuideLLM reader, so that its size does
// not bound what can be imported. The report is block YAML as PyYAML
// writes it: a value's lines are indented deeper than its key, or than the
// dash of its list item. The converter follows that indentation: the
// top-level keys, each benchmark's keys, its requests and each request
// record are separate blocks, each decoded by the YAML library on its own
// (at most maxYAMLBlock bytes); the lists benchmarks and
// requests.{successful,errored,incomplete} are never held whole. An alias
// (*id) can only name an anchor (&id) of its own block.

// maxYAMLBlock bounds one block decoded whole.
const maxYAMLBlock = 4 << 20

// yamlStreamAll makes every YAML report go through the converter (tests).
var yamlStreamAll = false

// errYAMLParserDone stops the converter when the reader has ended first.
var errYAMLParserDone = errors.New("the reader stopped")

// parseYAMLStream reads a YAML report from r as a stream, with read (the
// GuideLLM or the llm-d reader) reading its JSON form.
func parseYAMLStream(r io.Reader, read func(*lexer) (*File, error)) (*File, error) {
	pr, pw := io.Pipe()
	var convErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		c := &yamlConv{y: &yamlLines{br: bufio.NewReaderSize(r, 64<<10)}, out: bufio.NewWriterSize(pw, 64<<10)}
		convErr = c.run()
		pw.CloseWithError(convErr) // nil: the reader sees the end
	}()
	w := newLexer(pr)
	w.recognizeBy = 0
	f, err := read(w)
	pr.CloseWithError(errYAMLParserDone)
	<-done
	if convErr != nil && !errors.Is(convErr, errYAMLParserDone) {
		return nil, convErr // the cause of whatever the reader saw
	}
	return f, err
}

// yamlLine is one line of the report.
type yamlLine struct {
	text   []byte // without the line break; valid until the next read
	indent int    // leading spaces
	blank  bool   // nothing but spaces, or a comment
	no     int    // 1-based line number
}

// yamlLines reads a report line by line with one line of look-ahead.
type yamlLines struct {
	br   *bufio.Reader
	cur  yamlLine
	have bool
	err  error // sticky; io.EOF at the end
	no   int
	// open is set when the last line read had no line break: the file
	// ends inside it
	open bool
	long []byte // a line longer than br's buffer
	// last is the end of the last line with content, lastNo its number
	last   []byte
	lastNo int
}

// peek returns the next line, or false at the end or on an error.
func (y *yamlLines) peek() (*yamlLine, bool) {
	if !y.have && y.err == nil {
		y.read()
	}
	return &y.cur, y.have
}

// next consumes the line peek returned.
func (y *yamlLines) next() { y.have = false }

// content skips blank lines and returns the next line with content.
func (y *yamlLines) content() (*yamlLine, bool) {
	for {
		l, ok := y.peek()
		if !ok || !l.blank {
			return l, ok
		}
		y.next()
	}
}

func (y *yamlLines) read() {
	line, err := y.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		y.long = append(y.long[:0], line...)
		for err == bufio.ErrBufferFull {
			if len(y.long) > maxYAMLBlock {
				y.err = fmt.Errorf("YAML line %d: longer than %d MB: not a benchmark report", y.no+1, maxYAMLBlock>>20)
				return
			}
			line, err = y.br.ReadSlice('\n')
			y.long = append(y.long, line...)
		}
		line = y.long
	}
	if err != nil {
		y.err = err
		if err != io.EOF || len(line) == 0 {
			return
		}
	}
	y.no++
	y.open = line[len(line)-1] != '\n'
	text := bytes.TrimRight(line, "\r\n")
	ind := 0
	for ind < len(text) && text[ind] == ' ' {
		ind++
	}
	y.cur = yamlLine{text: text, indent: ind, blank: ind == len(text) || text[ind] == '#', no: y.no}
	y.have = true
	if !y.cur.blank {
		y.last, y.lastNo = append(y.last[:0], text[max(len(text)-256, 0):]...), y.no
	}
}

// yamlConv writes the JSON form of a report to out.
type yamlConv struct {
	y     *yamlLines
	out   *bufio.Writer
	block []byte // the block being read whole
}

// What the value of a key is, by the level of the mapping that holds it.
const (
	yamlWhole     = iota // read whole
	yamlBenchList        // a list of benchmarks, each streamed key by key
	yamlRequests         // a mapping of request lists, streamed
	yamlRecords          // a list of request records, each read whole
)

func yamlKind(level int, line []byte) int {
	key := line
	if i := bytes.IndexByte(line, ':'); i > 0 {
		key, line = line[:i], bytes.TrimSpace(line[i+1:])
		if len(line) > 0 && line[0] != '#' {
			return yamlWhole // a value on the key's line
		}
	} else {
		return yamlWhole
	}
	switch {
	case level == 0 && string(key) == "benchmarks":
		return yamlBenchList
	case level == 1 && string(key) == "requests":
		return yamlRequests
	case level == 2 && (string(key) == "successful" || string(key) == "errored" || string(key) == "incomplete"):
		return yamlRecords
	}
	return yamlWhole
}

// isDash tells a list item's line (at its indent).
func isDash(l *yamlLine) bool {
	t := l.text[l.indent:]
	return len(t) > 0 && t[0] == '-' && (len(t) == 1 || t[1] == ' ')
}

// isMarker tells a document marker (--- or ...).
func isMarker(l *yamlLine, m string) bool {
	return l.indent == 0 && (string(l.text) == m || bytes.HasPrefix(l.text, []byte(m+" ")))
}

func (c *yamlConv) errf(l *yamlLine, format string, args ...any) error {
	return fmt.Errorf("YAML line %d: %s", l.no, fmt.Sprintf(format, args...))
}

// run converts the whole report.
func (c *yamlConv) run() (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("invalid YAML: %v", p)
		}
		// A block that fails to decode at the end of a file whose last
		// line has no line break was cut there, not written wrong.
		if err != nil && c.y.err == io.EOF && c.y.open {
			err = yamlCutMidLine(c.y.no)
		}
	}()
	l, ok := c.y.content()
	if ok && isMarker(l, "---") {
		c.y.next()
		l, ok = c.y.content()
	}
	if !ok {
		return c.readErr()
	}
	if err := c.mapping(l.indent, 0); err != nil {
		return err
	}
	if l, ok := c.y.content(); ok {
		if isMarker(l, "...") || isMarker(l, "---") {
			return c.errf(l, "a second document: a GuideLLM report is one YAML document")
		}
		return c.errf(l, "indented less than the report's keys")
	}
	if err := c.readErr(); err != nil {
		return err
	}
	if err := yamlOpenLine(c.y.last, c.y.lastNo); err != nil {
		return err
	}
	if c.y.open && !c.y.cur.blank {
		return yamlCutMidLine(c.y.no)
	}
	return c.out.Flush()
}

// readErr is the error that ended the reading, nil at the end of the file.
func (c *yamlConv) readErr() error {
	if c.y.err == io.EOF {
		return nil
	}
	return c.y.err
}

// mapping converts the block mapping whose keys are at indent ind.
func (c *yamlConv) mapping(ind, level int) error {
	c.out.WriteByte('{')
	for i := 0; ; i++ {
		l, ok := c.y.content()
		if !ok || l.indent < ind || isMarker(l, "---") || isMarker(l, "...") {
			break
		}
		if l.indent > ind {
			return c.errf(l, "indented deeper than the keys before it")
		}
		if i > 0 {
			c.out.WriteByte(',')
		}
		if err := c.member(l, ind, level); err != nil {
			return err
		}
	}
	c.out.WriteByte('}')
	return c.readErr()
}

// member converts one key of a mapping and its value.
func (c *yamlConv) member(l *yamlLine, ind, level int) error {
	kind := yamlKind(level, l.text[ind:])
	c.block = append(c.block[:0], l.text[ind:]...)
	keyLine := l.no
	c.y.next()
	if kind != yamlWhole {
		key := c.block[:bytes.IndexByte(c.block, ':')]
		n, ok := c.y.content()
		switch {
		case ok && (kind == yamlBenchList || kind == yamlRecords) && n.indent >= ind && isDash(n):
			writeJSONKey(c.out, string(key))
			return c.list(n.indent, level+1, kind)
		case ok && kind == yamlRequests && n.indent > ind && !isDash(n):
			writeJSONKey(c.out, string(key))
			return c.mapping(n.indent, level+1)
		}
		// any other shape is read whole
	}
	if err := c.rest(ind); err != nil {
		return err
	}
	v, err := c.decode(keyLine)
	if err != nil {
		return err
	}
	if v, err = yamlToJSON(v, 0); err != nil {
		return err
	}
	m, ok := v.(map[string]any)
	if !ok || len(m) != 1 {
		return fmt.Errorf("YAML line %d: expected one key and its value", keyLine)
	}
	for k, x := range m {
		writeJSONKey(c.out, k)
		return c.writeJSON(x)
	}
	return nil
}

// rest appends to the block the lines indented deeper than ind (and the
// blank lines among them), dedented by ind.
func (c *yamlConv) rest(ind int) error {
	for {
		l, ok := c.y.peek()
		if !ok || !l.blank && l.indent <= ind {
			return c.readErr()
		}
		if len(c.block)+len(l.text) > maxYAMLBlock {
			return c.errf(l, "one value larger than %d MB: more than a GuideLLM report holds in one place (import the JSON report)", maxYAMLBlock>>20)
		}
		c.block = append(c.block, '\n')
		c.block = append(c.block, l.text[min(ind, l.indent):]...)
		c.y.next()
	}
}

// list converts a block list whose dashes are at indent ind.
func (c *yamlConv) list(ind, level, kind int) error {
	c.out.WriteByte('[')
	for i := 0; ; i++ {
		l, ok := c.y.content()
		if !ok || l.indent != ind || !isDash(l) {
			break
		}
		if i > 0 {
			c.out.WriteByte(',')
		}
		// the dash becomes a space: the item is then indented as a block
		l.text[ind] = ' '
		first := l.no
		if kind == yamlBenchList {
			c.y.cur.indent, c.y.cur.blank = ind+1, false
			for c.y.cur.indent < len(l.text) && l.text[c.y.cur.indent] == ' ' {
				c.y.cur.indent++
			}
			if c.y.cur.indent == len(l.text) {
				c.y.cur.blank = true
			}
			n, ok := c.y.content()
			if !ok || n.indent <= ind {
				c.out.WriteString("null")
				continue
			}
			if isDash(n) || bytes.IndexByte(n.text, ':') < 0 {
				return c.errf(n, "a benchmark that is not a mapping")
			}
			if err := c.mapping(n.indent, level); err != nil {
				return err
			}
			continue
		}
		c.block = append(c.block[:0], l.text[ind+1:]...)
		c.y.next()
		if err := c.rest(ind + 1); err != nil {
			return err
		}
		v, err := c.decode(first)
		if err != nil {
			return err
		}
		if err := c.writeJSON(v); err != nil {
			return err
		}
	}
	c.out.WriteByte(']')
	return c.readErr()
}

// decode decodes the block read whole, which starts at the given line.
func (c *yamlConv) decode(line int) (any, error) {
	var v any
	if err := yaml.Unmarshal(c.block, &v); err != nil {
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		// the library counts lines from the block's first
		var n int
		if _, e := fmt.Sscanf(msg, "line %d:", &n); e == nil && n > 0 {
			msg = strings.TrimSpace(msg[strings.IndexByte(msg, ':')+1:])
			line += n - 1
		}
		return nil, fmt.Errorf("YAML line %d: %s", line, msg)
	}
	return v, nil
}

// writeJSON writes a decoded value as JSON.
func (c *yamlConv) writeJSON(v any) error {
	j, err := yamlToJSON(v, 0)
	if err != nil {
		return err
	}
	b, err := json.Marshal(j)
	if err != nil {
		return fmt.Errorf("YAML report cannot be converted: %w", err)
	}
	_, err = c.out.Write(b)
	return err
}

// writeJSONKey writes a key and its colon.
func writeJSONKey(w *bufio.Writer, key string) {
	kj, _ := json.Marshal(key)
	w.Write(kj)
	w.WriteByte(':')
}
