package importers

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// guidellmTopKeys are the keys a GuideLLM report starts with.
var guidellmTopKeys = map[string]bool{"benchmarks": true, "metadata": true, "args": true, "config": true}

// parseInput detects the format from the first bytes and dispatches.
func parseInput(in *input) (*File, error) {
	head, err := in.br.Peek(8 << 10)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, err
	}
	t := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	if len(t) == 0 {
		if len(head) == 0 {
			return nil, fmt.Errorf("empty file")
		}
		return nil, fmt.Errorf("the file holds only whitespace")
	}
	if t[0] != '{' && t[0] != '[' && t[0] != '<' {
		if err := binaryRefusal(head); err != nil {
			return nil, err
		}
	}
	if err := lookAlikeHead(t); err != nil {
		return nil, err
	}
	if len(head) >= 3 && string(head[:3]) == "\xef\xbb\xbf" {
		in.br.Discard(3)
	}
	switch t[0] {
	case '{':
		if isLLMDHead(t) {
			return parseLLMD(in.lexer())
		}
		if guidellmTopKeys[firstKey(t)] {
			return parseGuideLLM(in.lexer())
		}
		if isGenAIBenchRunKey(firstKey(t)) {
			return parseGenAIBench(in.lexer())
		}
		return parseSummaries(in.lexer())
	case '[':
		return parseSummaries(in.lexer())
	case '<':
		return nil, fmt.Errorf("this is an HTML page (such as GuideLLM's benchmarks.html report), not a result file; import the JSON report instead (GuideLLM: --outputs json, file benchmarks.json)")
	}
	return parseText(in, t)
}

// firstKey returns the first key of the object that b starts with, or "".
func firstKey(b []byte) string {
	b = bytes.TrimLeft(b[1:], " \t\r\n")
	if len(b) == 0 || b[0] != '"' {
		return ""
	}
	end := bytes.IndexByte(b[1:], '"')
	if end < 0 || end > 64 {
		return ""
	}
	return string(b[1 : 1+end])
}

// sanitizeAll rewrites the non-JSON tokens of an in-memory document.
func sanitizeAll(data []byte) []byte {
	s := &sanitizer{}
	out := s.transform(make([]byte, 0, len(data)+16), data)
	if s.minus {
		out = append(out, '-')
	}
	if s.inTok {
		out = append(out, '"')
	}
	return out
}

// parseText handles what is not JSON: CSV exports are refused with advice,
// YAML is converted and read as JSON: decoded whole up to maxYAML, larger
// reports converted as they are read (yamlstream.go).
func parseText(in *input, head []byte) (*File, error) {
	line := head
	if i := bytes.IndexAny(line, "\r\n"); i >= 0 {
		line = line[:i]
	}
	if isCSVHeader(line) {
		return nil, csvRefusal(line)
	}
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, io.LimitReader(in.br, recognizeWithin)); err != nil {
		return nil, err
	}
	if err := yamlRecognize(buf.Bytes()); err != nil {
		return nil, err
	}
	if _, err := io.Copy(&buf, io.LimitReader(in.br, maxYAML+1-int64(buf.Len()))); err != nil {
		return nil, err
	}
	if buf.Len() > maxYAML || yamlStreamAll {
		read := parseGuideLLMYAML
		if isLLMDYAML(buf.Bytes()) {
			read = parseLLMDYAML
		}
		return parseYAMLStream(io.MultiReader(bytes.NewReader(buf.Bytes()), in.br), read)
	}
	return parseYAMLDoc(buf.Bytes())
}

// isCSVHeader tells a CSV header line from a YAML key line.
func isCSVHeader(line []byte) bool {
	return bytes.Count(line, []byte(",")) >= 2 && !bytes.Contains(line, []byte(": "))
}

// csvRefusal explains which JSON file to import instead of a CSV export.
func csvRefusal(line []byte) error {
	switch {
	case bytes.HasPrefix(line, []byte("Metric,")):
		return fmt.Errorf("this is an AIPerf/GenAI-Perf CSV export; import the JSON summary instead (profile_export_aiperf.json or *_genai_perf.json)")
	case bytes.Contains(line, []byte("Run Id")) || bytes.Contains(line, []byte("Benchmark")) || bytes.Contains(line, []byte("Successful")):
		return fmt.Errorf("this is a GuideLLM CSV export, whose columns shift between runs; import the JSON report instead (benchmarks.json, GuideLLM --outputs json)")
	}
	return fmt.Errorf("this is a CSV file; only the JSON result files of the benchmark tools can be imported")
}

// compressedMagic are the first bytes of compressed files and archives.
var compressedMagic = [][]byte{
	[]byte("\x1f\x8b"),           // gzip
	[]byte("BZh"),                // bzip2
	[]byte("\xfd7zXZ\x00"),       // xz
	[]byte("\x28\xb5\x2f\xfd"),   // zstd
	[]byte("PK\x03\x04"),         // zip (and Office files)
	[]byte("7z\xbc\xaf\x27\x1c"), // 7-Zip
	[]byte("\x04\x22\x4d\x18"),   // lz4
}

// binaryRefusal refuses, in plain words, a file that is not text: a
// compressed file or archive, a PDF, or any other binary (an image, say).
// The head is the file's first bytes.
func binaryRefusal(head []byte) error {
	for _, m := range compressedMagic {
		if bytes.HasPrefix(head, m) {
			return fmt.Errorf("a compressed file: decompress it first")
		}
	}
	if bytes.HasPrefix(head, []byte("\xff\xfe")) || bytes.HasPrefix(head, []byte("\xfe\xff")) {
		return fmt.Errorf("the file is UTF-16 text: save it as UTF-8 and import it again")
	}
	if bytes.HasPrefix(head, []byte("%PDF-")) {
		return fmt.Errorf("not a benchmark result file: it is a PDF document, not JSON or YAML")
	}
	if isBinary(head) {
		return fmt.Errorf("not a benchmark result file: it is binary (an image?), not JSON or YAML")
	}
	return nil
}

// isBinary tells binary data from text by its first bytes: a NUL byte,
// bytes that are not UTF-8, or control characters other than tab, line
// feed, carriage return and form feed.
func isBinary(head []byte) bool {
	b := head
	// A multi-byte character may be cut at the end of the head.
	for i := 0; i < 3 && len(b) > 0 && !utf8.Valid(b); i++ {
		b = b[:len(b)-1]
	}
	if !utf8.Valid(b) {
		return true
	}
	for _, c := range b {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' || c == 0x7f {
			return true
		}
	}
	return false
}
