package importers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"gopkg.in/yaml.v3"
)

// maxYAMLDepth bounds the nesting of a YAML document.
const maxYAMLDepth = 200

// maxYAML bounds a YAML report decoded whole, in memory, which costs many
// times the file's size; a larger report is converted to JSON as it is
// read (yamlstream.go).
const maxYAML = 4 << 20

// yamlRecognize refuses, from its first megabyte, a YAML file that is not a
// GuideLLM report (whose keys are sorted: benchmarks comes early).
func yamlRecognize(head []byte) error {
	top := func(key string) bool {
		return bytes.HasPrefix(head, []byte(key+":")) || bytes.Contains(head, []byte("\n"+key+":"))
	}
	switch {
	case top("benchmarks"), isLLMDYAML(head):
		return nil
	case top("load") && top("server"):
		return fmt.Errorf("this is an inference-perf run configuration (config.yaml), not a result; import its stage_<N>_lifecycle_metrics.json files instead (enter the model from server.model_name by hand)")
	case len(head) >= recognizeWithin:
		return notRecognizedError{}
	}
	return nil // a short file: the YAML reader says what it is
}

// parseYAMLDoc reads a YAML document. GuideLLM writes its report as YAML
// with the same tree as the JSON (keys sorted); it is converted to JSON and
// read by the GuideLLM parser. Other YAML files are refused with advice.
func parseYAMLDoc(data []byte) (f *File, err error) {
	if last := data[bytes.LastIndexByte(data, '\n')+1:]; len(bytes.TrimSpace(last)) > 0 && bytes.TrimSpace(last)[0] != '#' {
		return nil, yamlCutMidLine(bytes.Count(data, []byte("\n")) + 1)
	}
	if err := yamlEndsInside(data); err != nil {
		return nil, err
	}
	var tree any
	func() {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("invalid YAML: %v", p)
			}
		}()
		err = yaml.Unmarshal(data, &tree)
	}()
	if err != nil {
		why := strings.TrimPrefix(err.Error(), "yaml: ")
		return nil, fmt.Errorf("not a benchmark result file: neither JSON nor valid YAML (%s)", why)
	}
	top, ok := tree.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("not a recognised benchmark result: the file is neither JSON nor a YAML mapping")
	}
	if _, ok := top["benchmarks"]; ok {
		j, err := yamlToJSON(tree, 0)
		if err != nil {
			return nil, err
		}
		buf, err := json.Marshal(j)
		if err != nil {
			return nil, fmt.Errorf("YAML report cannot be converted: %w", err)
		}
		w := newLexer(bytes.NewReader(buf))
		w.recognizeBy = 0
		return parseGuideLLMYAML(w)
	}
	if isLLMDYAML(data) {
		j, err := yamlToJSON(tree, 0)
		if err != nil {
			return nil, err
		}
		buf, err := json.Marshal(j)
		if err != nil {
			return nil, fmt.Errorf("YAML report cannot be converted: %w", err)
		}
		w := newLexer(bytes.NewReader(buf))
		w.recognizeBy = 0
		return parseLLMDYAML(w)
	}
	if _, ok := top["load"]; ok {
		if _, ok := top["server"]; ok {
			return nil, fmt.Errorf("this is an inference-perf run configuration (config.yaml), not a result; import its stage_<N>_lifecycle_metrics.json files instead (enter the model from server.model_name by hand)")
		}
	}
	return nil, fmt.Errorf("not a recognised benchmark result: a YAML file without a top-level benchmarks list (only GuideLLM reports are read as YAML)")
}

// yamlCutMidLine is the refusal of a YAML report whose last line has no
// line break: PyYAML, which GuideLLM writes its YAML with, ends every line
// with one, so the file stops where it was cut.
func yamlCutMidLine(line int) error {
	return fmt.Errorf("the file is cut off (truncated) in line %d: a YAML report ends with a line break and this one stops inside a line: export it again", line)
}

// yamlEndsInside refuses a document whose last line with content opens a
// block that never comes: a key with nothing after its colon, or a list
// item's bare dash. A report writer (PyYAML) writes an empty value as
// null, {} or []; a bare key at the very end is where the file was cut.
func yamlEndsInside(data []byte) error {
	end := len(data)
	for end > 0 {
		start := bytes.LastIndexByte(data[:end], '\n') + 1
		text := bytes.TrimSpace(data[start:end])
		if len(text) == 0 || text[0] == '#' {
			end = max(start-1, 0)
			continue
		}
		return yamlOpenLine(text, bytes.Count(data[:start], []byte("\n"))+1)
	}
	return nil
}

// yamlOpenLine refuses the last line with content of a document, text
// (line number line), when it opens a block: a bare key or dash.
func yamlOpenLine(text []byte, line int) error {
	text = bytes.TrimSpace(text)
	if i := bytes.Index(text, []byte(" #")); i >= 0 {
		text = bytes.TrimSpace(text[:i])
	}
	switch {
	case len(text) == 0:
	case string(text) == "-":
		return fmt.Errorf("the file is cut off (truncated) after line %d: it ends with a list item that has no value: export it again", line)
	case bytes.HasSuffix(text, []byte(":")) && text[0] != '"' && text[0] != '\'':
		key := strings.TrimSpace(strings.TrimPrefix(string(text[:len(text)-1]), "- "))
		return fmt.Errorf("the file is cut off (truncated) after line %d: its last key, %s, has no value: export it again", line, cut(key, 60))
	}
	return nil
}

// yamlToJSON makes a decoded YAML tree encodable as JSON: keys become
// strings and NaN/±Inf become the strings num understands.
func yamlToJSON(v any, depth int) (any, error) {
	if depth > maxYAMLDepth {
		return nil, fmt.Errorf("YAML nested deeper than %d levels", maxYAMLDepth)
	}
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			y, err := yamlToJSON(x, depth+1)
			if err != nil {
				return nil, err
			}
			t[k] = y
		}
		return t, nil
	case map[any]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			y, err := yamlToJSON(x, depth+1)
			if err != nil {
				return nil, err
			}
			m[fmt.Sprint(k)] = y
		}
		return m, nil
	case []any:
		for i, x := range t {
			y, err := yamlToJSON(x, depth+1)
			if err != nil {
				return nil, err
			}
			t[i] = y
		}
		return t, nil
	case float64:
		switch {
		case math.IsNaN(t):
			return "NaN", nil
		case math.IsInf(t, 1):
			return "Infinity", nil
		case math.IsInf(t, -1):
			return "-Infinity", nil
		}
	}
	return v, nil
}
