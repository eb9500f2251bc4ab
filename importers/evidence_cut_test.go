package importers

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"capplan/planner"
)

// evidenceReaders parse one evidence file each way the importers read one.
var evidenceReaders = map[string]func(name string, data []byte) error{
	"telemetry": func(name string, data []byte) error {
		_, err := ParseTelemetry(name, bytes.NewReader(data), EvidenceOptions{}, func(planner.GPUSample) error { return nil })
		return err
	},
	"traffic": func(name string, data []byte) error {
		_, err := ParseTraffic(name, bytes.NewReader(data), EvidenceOptions{}, func(planner.TrafficBucket) error { return nil })
		return err
	},
	"usage": func(name string, data []byte) error {
		_, err := ParseUsage(name, bytes.NewReader(data), EvidenceOptions{}, func(planner.UsageRecord) error { return nil })
		return err
	},
	"soak": func(name string, data []byte) error {
		_, _, err := ParseSoak(name, bytes.NewReader(data), EvidenceOptions{})
		return err
	},
}

// An evidence file cut off inside its last line would import that line's
// reading cut short (50 W for 500 W, a timestamp missing digits): every
// reader refuses it as cut off, at every cut inside the line, naming the
// file and the line. A file whose last line is whole but has no line
// break (a Markdown row's closing pipe, a JSON line's brace) is read.
func TestEvidenceCutMidLineRefused(t *testing.T) {
	for _, c := range []struct {
		kind, name, path string
		whole            bool // the last line shows its own end
	}{
		{"telemetry", "smi.csv", "testdata/nvidia_smi_h100.csv", false},
		{"telemetry", "dcgm.prom", "testdata/dcgm_scrapes.prom", false},
		{"traffic", "traffic.csv", "testdata/traffic_hourly.csv", false},
		{"usage", "usage.jsonl", "testdata/usage_small.jsonl", true},
		{"soak", "soak.md", "testdata/soak_hours.md", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := mustRead(t, c.path)
			read := evidenceReaders[c.kind]
			if err := read(c.name, data); err != nil {
				t.Fatalf("the whole file: %v", err)
			}
			body := bytes.TrimRight(data, "\n")
			lastStart := bytes.LastIndexByte(body, '\n') + 1
			lines := bytes.Count(body, []byte("\n")) + 1
			cuts := 0
			for at := lastStart + 1; at < len(body); at++ {
				if at < len(body)-1 && (at-lastStart)%3 != 0 {
					continue // every third byte, and the line without its last
				}
				cuts++
				err := read(c.name, body[:at])
				if err == nil {
					t.Errorf("cut %d bytes into the last line: imported", at-lastStart)
					continue
				}
				if !strings.HasPrefix(err.Error(), c.name+": ") {
					t.Errorf("cut %d bytes in: %v; want the file named", at-lastStart, err)
				}
				// a cut right after a cell separator may be refused for its cell count instead
				if !strings.Contains(err.Error(), "cut off (truncated)") && !strings.Contains(err.Error(), "where the header names") {
					t.Errorf("cut %d bytes in: %v; want it to say the file is cut off", at-lastStart, err)
				}
				if strings.Contains(err.Error(), "cut off") && !strings.Contains(err.Error(), fmt.Sprintf("line %d", lines)) {
					t.Errorf("cut %d bytes in: %v; want line %d named", at-lastStart, err, lines)
				}
			}
			if cuts < 3 {
				t.Fatalf("only %d cuts", cuts)
			}
			err := read(c.name, body)
			if c.whole && err != nil {
				t.Errorf("a whole last line without its line break: %v", err)
			}
			if !c.whole && (err == nil || !strings.Contains(err.Error(), "cut off")) {
				t.Errorf("a last line that cannot show its end, without a line break: %v; want it refused as cut off", err)
			}
		})
	}
}
