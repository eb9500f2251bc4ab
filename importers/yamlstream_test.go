package importers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"capplan/planner"

	"gopkg.in/yaml.v3"
)

// parseYAMLBothWays parses a YAML report decoded whole and converted as a
// stream.
func parseYAMLBothWays(t *testing.T, data []byte) (whole, stream *File) {
	t.Helper()
	whole, err := Parse("g.yaml", bytes.NewReader(data), Options{})
	if err != nil {
		t.Fatalf("decoded whole: %v", err)
	}
	yamlStreamAll = true
	defer func() { yamlStreamAll = false }()
	stream, err = Parse("g.yaml", bytes.NewReader(data), Options{})
	if err != nil {
		t.Fatalf("converted as a stream: %v", err)
	}
	return whole, stream
}

// toYAML re-encodes a JSON report as YAML with the YAML library, which
// indents lists under their key (PyYAML, which GuideLLM uses, does not).
func toYAML(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(2)
	if err := enc.Encode(&n); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestYAMLStreamMatchesWhole converts YAML reports as streams and checks
// that every row, figure, sample and warning equals what decoding them
// whole gives: GuideLLM's own YAML (lists not indented under their key)
// and JSON reports of three generations re-encoded as YAML (lists
// indented).
func TestYAMLStreamMatchesWhole(t *testing.T) {
	pyyaml, err := os.ReadFile("testdata/guidellm_d_0.5.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"GuideLLM 0.5 YAML", pyyaml},
		{"0.4 with warmup", toYAML(t, "testdata/guidellm_c_0.4_warmup.json")},
		{"0.5 identical prompts", toYAML(t, "testdata/guidellm_d_identical.json")},
		{"0.7", toYAML(t, "testdata/guidellm_e_0.7.json")},
	} {
		t.Run(c.name, func(t *testing.T) {
			whole, stream := parseYAMLBothWays(t, c.data)
			if len(stream.Rows) == 0 || len(stream.Rows[0].Samples) == 0 {
				t.Fatalf("%d rows, no samples: nothing to compare", len(stream.Rows))
			}
			if !reflect.DeepEqual(whole, stream) {
				t.Errorf("converted as a stream:\n%+v\ndecoded whole:\n%+v", stream.Rows[0], whole.Rows[0])
			}
		})
	}
}

// yamlParts cuts GuideLLM's YAML report around its first request record:
// the text before it, the record, and the text from it on.
func yamlParts(t *testing.T) (head, record, tail string) {
	t.Helper()
	b, err := os.ReadFile("testdata/guidellm_d_0.5.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "    successful:\n    - ") + len("    successful:\n")
	j := strings.Index(s[i+6:], "\n    - ") + i + 7
	return s[:i], s[i:j], s[i:]
}

// TestYAMLStreamBoundedMemory reads a 16 MB YAML report (four times the size
// decoded whole) in bounded memory, every request record read.
func TestYAMLStreamBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 16 MB of YAML")
	}
	head, record, tail := yamlParts(t)
	n := (16 << 20) / len(record)
	var f *File
	var err error
	mb := peakHeap(func() { f, err = Parse("g.yaml", repeat(head, record, tail, n), Options{}) })
	t.Logf("peak heap %.1f MB for %d records", mb, n)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(f.Rows[0].Samples); got != n+4 {
		t.Errorf("%d samples, want %d", got, n+4)
	}
	if mb > 24 {
		t.Errorf("peak heap %.1f MB, want under 24 MB", mb)
	}
}

// TestYAMLStreamRefusals checks the messages of the converter: each names
// the line, and a cancelled reading stops.
func TestYAMLStreamRefusals(t *testing.T) {
	head, record, tail := yamlParts(t)
	long := "      output: >-\n" + strings.Repeat("        "+strings.Repeat("x", 100)+"\n", 50000)
	deeper := strings.Replace(head, "\n  duration:", "\n   duration:", 1)
	deeperLine := strings.Count(deeper[:strings.Index(deeper, "   duration:")], "\n") + 1
	for _, c := range []struct {
		name string
		in   io.Reader
		want string
	}{
		{"a value larger than the bound", strings.NewReader(head + record + long + tail), "one value larger than 4 MB"},
		{"a line longer than the bound", strings.NewReader(head + strings.Replace(record, "      output:", "      output: "+strings.Repeat("y", 5<<20), 1) + tail), "longer than 4 MB"},
		{"a second document", strings.NewReader(head + tail + "---\nbenchmarks: []\n"), "a second document"},
		{"a key indented deeper than its neighbours", strings.NewReader(deeper + tail), fmt.Sprintf("YAML line %d: mapping values are not allowed", deeperLine)},
		{"invalid YAML in a record", strings.NewReader(head + strings.Replace(record, "      output:", "      output: [unclosed", 1) + tail), "YAML line"},
	} {
		t.Run(c.name, func(t *testing.T) {
			yamlStreamAll = true
			defer func() { yamlStreamAll = false }()
			_, err := Parse("g.yaml", c.in, Options{})
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "g.yaml: ") {
				t.Errorf("err = %v, want it to say %q", err, c.want)
			}
		})
	}
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		r := &cancelAfter{r: repeat(head, record, tail, 1<<30), n: 5 << 20, cancel: cancel}
		_, err := Parse("g.yaml", r, Options{Context: ctx})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	})
}

// TestYAMLTruncatedRefused cuts GuideLLM's YAML report at 30 to 90 % of
// its bytes and at line ends (where a cut file is still valid YAML): every
// cut is refused as cut off, decoded whole and converted as a stream,
// never imported with rows, samples or percentiles missing. The one cut
// that cannot be told from a whole report, between the last benchmark and
// metadata, loses nothing: its rows equal the whole file's.
func TestYAMLTruncatedRefused(t *testing.T) {
	data := mustRead(t, "testdata/guidellm_d_0.5.yaml")
	whole, err := Parse("g.yaml", bytes.NewReader(data), Options{})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	type cut struct {
		name string
		at   int
	}
	var cuts []cut
	for pct := 30; pct <= 90; pct += 10 {
		cuts = append(cuts, cut{fmt.Sprintf("%d %% of the bytes", pct), len(data) * pct / 100})
	}
	at := 0
	for i, l := range lines[:len(lines)-1] {
		at += len(l)
		next := lines[i+1]
		// the end of a benchmark, of a top-level key, of a request
		// record, of the last key of a benchmark, and every 97th line
		if strings.HasPrefix(next, "- ") || (next != "" && next[0] != ' ') || strings.HasPrefix(next, "    - ") || strings.HasPrefix(strings.TrimSpace(l), "warmup_duration:") || i%97 == 0 {
			cuts = append(cuts, cut{fmt.Sprintf("after line %d (%.40q)", i+1, strings.TrimSpace(l)), at})
		}
	}
	beforeMetadata := strings.Index(string(data), "\nmetadata:") + 1
	for _, c := range cuts {
		if c.at <= strings.Index(string(data), "\n- config:")+1 {
			continue // before the first benchmark: refused as holding none
		}
		for _, stream := range []bool{false, true} {
			yamlStreamAll = stream
			f, err := Parse("g.yaml", bytes.NewReader(data[:c.at]), Options{})
			yamlStreamAll = false
			switch {
			case c.at == beforeMetadata:
				if err != nil || !reflect.DeepEqual(sourceless(f.Rows), sourceless(whole.Rows)) {
					t.Errorf("cut %s (stream %v): err %v; want every row as in the whole file", c.name, stream, err)
				}
			case err == nil:
				t.Errorf("cut %s (stream %v): imported %d rows, want a refusal as cut off", c.name, stream, len(f.Rows))
			case !strings.Contains(err.Error(), "the file is cut off (truncated)") || !strings.HasPrefix(err.Error(), "g.yaml: "):
				t.Errorf("cut %s (stream %v): %v; want it to say the file is cut off", c.name, stream, err)
			}
		}
	}
	if len(cuts) < 20 {
		t.Fatalf("only %d cuts: the fixture changed", len(cuts))
	}
}

// TestYAMLLevelsRefused refuses a YAML report that holds fewer benchmarks
// than its profile asks for; a JSON report is whole by its brackets.
func TestYAMLLevelsRefused(t *testing.T) {
	data := string(mustRead(t, "testdata/guidellm_d_0.5.yaml"))
	three := strings.Replace(data, "  rate:\n  - 1.0\n  - 2.0\n", "  rate:\n  - 1.0\n  - 2.0\n  - 4.0\n", 1)
	if three == data {
		t.Fatal("fixture text not found")
	}
	_, err := Parse("g.yaml", strings.NewReader(three), Options{})
	if err == nil || !strings.Contains(err.Error(), "asks for 3 load levels and the file holds 2") {
		t.Errorf("err = %v", err)
	}
	if n, ok := gExpectedLevels("sweep", []byte("10")); !ok || n != 10 {
		t.Errorf("sweep of 10: %d %v", n, ok)
	}
}

// sourceless is rows without their source (file hash, generation label).
func sourceless(rows []planner.Row) []planner.Row {
	out := slices.Clone(rows)
	for i := range out {
		out[i].Source = planner.Source{}
	}
	return out
}
