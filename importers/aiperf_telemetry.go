package importers

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"

	"capplan/planner"
)

// AIPerf writes the GPU samples it scrapes during a run, one JSON object per
// GPU per scrape, to gpu_telemetry_export.jsonl beside its results:
//
//	{"timestamp_ns": 1765000000123456789, "dcgm_url": "http://localhost:9401/metrics",
//	 "gpu_index": 0, "gpu_uuid": "GPU-…", "gpu_model_name": "NVIDIA H100 80GB HBM3",
//	 "hostname": "node1", "telemetry_data": {"gpu_power_usage": 512.3,
//	 "gpu_utilization": 97.0, "gpu_memory_used": 71.2, "gpu_temperature": 61.0, …}}
//
// Power is in W, utilisation in %, temperature in °C and memory used in GB
// (AIPerf scales DCGM's MiB by 1.048576e-3); later releases name the source
// telemetry_source_url instead of dcgm_url. The file names no device total,
// so headroom is judged against the contract's device memory.
// (docs/method.md, "Measured figures of a row").

// aiperfGBToMiB turns AIPerf's memory figure (GB, from DCGM's MiB times
// 1.048576e-3) back into MiB.
const aiperfGBToMiB = 1 / 1.048576e-3

// bareNonFinite matches Python's bare NaN and ±Infinity as a JSON value.
var bareNonFinite = regexp.MustCompile(`:\s*(-?Infinity|NaN)\b`)

// aiperfTelemetryFields maps telemetry_data's keys to the sample's figures.
var aiperfTelemetryFields = map[string]string{
	"gpu_power_usage": "power",
	"gpu_memory_used": "used",
	"gpu_utilization": "util",
	"gpu_temperature": "temp",
}

func parseAIPerfTelemetry(name string, br *bufio.Reader, f *EvidenceFile, emit func(planner.GPUSample) error) error {
	lr := newLineReader(br)
	gpus := gpuSet{}
	skipped, firstSkip := 0, 0
	figures := false
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		if bareNonFinite.MatchString(line) {
			// Python's json writes NaN for a reading DCGM did not have: no reading
			if skipped == 0 {
				firstSkip = lr.no
			}
			skipped += len(bareNonFinite.FindAllStringIndex(line, -1))
			line = bareNonFinite.ReplaceAllString(line, ":null")
		}
		s, err := aiperfTelemetryLine(line)
		if err != nil {
			if lr.no == 1 && errors.Is(err, errNotTelemetryRecord) {
				return evidenceErr(name, 1, "not an AIPerf GPU telemetry export (gpu_telemetry_export.jsonl), an nvidia-smi CSV log nor a DCGM scrape: %v", err)
			}
			return evidenceErr(name, lr.no, "%v", err)
		}
		if err := gpus.add(s.GPU); err != nil {
			return evidenceErr(name, lr.no, "%v", err)
		}
		if f.Records >= MaxTelemetrySamples {
			return evidenceErr(name, lr.no, "more than %d samples: a log that long is past what one import reads (split it by time)", MaxTelemetrySamples)
		}
		f.Records++
		figures = figures || s.PowerW != nil || s.MemUsedMiB != nil
		if err := emit(s); err != nil {
			return err
		}
	}
	if err := lr.err(); err != nil {
		return err
	}
	if f.Records > 0 && !figures {
		return evidenceErr(name, 0, "no record gives gpu_power_usage or gpu_memory_used: nothing to align with the rows")
	}
	if skipped > 0 {
		f.Warnings = append(f.Warnings, fmt.Sprintf("%d readings were NaN or infinite and were skipped, the first on line %d", skipped, firstSkip))
	}
	return nil
}

// errNotTelemetryRecord marks a line that is not a telemetry record at all
// (on the first line: another kind of file); it adds nothing to the message.
var errNotTelemetryRecord = errors.New("")

// aiperfTelemetryLine reads one record. A key given twice is refused: which
// one holds the reading cannot be known.
func aiperfTelemetryLine(line string) (planner.GPUSample, error) {
	var s planner.GPUSample
	d := json.NewDecoder(strings.NewReader(line))
	d.UseNumber()
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return s, fmt.Errorf("the line is not a JSON object%w", errNotTelemetryRecord)
	}
	seen := map[string]bool{}
	var at *float64
	var index, uuid string
	for d.More() {
		kt, err := d.Token()
		if err != nil {
			return s, fmt.Errorf("the line is not valid JSON: %v", err)
		}
		k, _ := kt.(string)
		if seen[k] {
			return s, fmt.Errorf("%q is given twice: which one holds the reading cannot be known", k)
		}
		seen[k] = true
		switch k {
		case "timestamp_ns":
			v, err := jsonNumber(d, k)
			if err != nil {
				return s, err
			}
			if v == nil || *v < 0 {
				return s, errors.New("timestamp_ns must be a number of nanoseconds since 1970")
			}
			at = planner.F(*v / 1e9)
		case "gpu_index", "gpu_uuid":
			t, err := d.Token()
			if err != nil {
				return s, fmt.Errorf("the line is not valid JSON: %v", err)
			}
			var v string
			switch x := t.(type) {
			case string:
				v = x
			case json.Number:
				v = x.String()
			case nil:
			default:
				return s, fmt.Errorf("%s must be a number or a text", k)
			}
			if k == "gpu_index" {
				index = v
			} else {
				uuid = v
			}
		case "telemetry_data":
			if err := aiperfReadings(d, &s); err != nil {
				return s, err
			}
		default:
			if err := skipJSONValue(d); err != nil {
				return s, fmt.Errorf("the line is not valid JSON: %v", err)
			}
		}
	}
	if _, err := d.Token(); err != nil {
		return s, fmt.Errorf("the line is not valid JSON: %v", err)
	}
	if _, err := d.Token(); err != io.EOF {
		return s, errors.New("more than one JSON value on the line")
	}
	if !seen["telemetry_data"] {
		return s, fmt.Errorf("the record has no telemetry_data%w", errNotTelemetryRecord)
	}
	if at == nil {
		return s, errors.New("the record has no timestamp_ns: its sample cannot be aligned with the rows")
	}
	s.At = *at
	// the UUID names a GPU across hosts; the index within one
	s.GPU = uuid
	if s.GPU == "" {
		s.GPU = index
	}
	return s, nil
}

// aiperfReadings reads telemetry_data into s.
func aiperfReadings(d *json.Decoder, s *planner.GPUSample) error {
	t, err := d.Token()
	if err != nil {
		return fmt.Errorf("the line is not valid JSON: %v", err)
	}
	if t != json.Delim('{') {
		return errors.New("telemetry_data must be an object of readings")
	}
	seen := map[string]bool{}
	for d.More() {
		kt, err := d.Token()
		if err != nil {
			return fmt.Errorf("the line is not valid JSON: %v", err)
		}
		k, _ := kt.(string)
		field := aiperfTelemetryFields[k]
		if field == "" {
			if err := skipJSONValue(d); err != nil {
				return fmt.Errorf("the line is not valid JSON: %v", err)
			}
			continue
		}
		if seen[k] {
			return fmt.Errorf("telemetry_data gives %s twice: which one is the reading cannot be known", k)
		}
		seen[k] = true
		v, err := jsonNumber(d, "telemetry_data."+k)
		if err != nil {
			return err
		}
		if v == nil {
			continue
		}
		if err := checkReading(field == "util", *v); err != nil {
			return fmt.Errorf("telemetry_data.%s %s %v", k, planner.DisplayInput(*v), err)
		}
		switch field {
		case "power":
			s.PowerW = v
		case "used":
			s.MemUsedMiB = planner.F(*v * aiperfGBToMiB)
		case "util":
			s.UtilPct = v
		case "temp":
			s.TempC = v
		}
	}
	if _, err := d.Token(); err != nil {
		return fmt.Errorf("the line is not valid JSON: %v", err)
	}
	return nil
}

// jsonNumber reads a number or null; anything else is refused, naming key.
func jsonNumber(d *json.Decoder, key string) (*float64, error) {
	t, err := d.Token()
	if err != nil {
		return nil, fmt.Errorf("the line is not valid JSON: %v", err)
	}
	switch x := t.(type) {
	case nil:
		return nil, nil
	case json.Number:
		v, err := strconv.ParseFloat(x.String(), 64)
		if err != nil || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%s %s is not a number a GPU reports", key, x.String())
		}
		return &v, nil
	case json.Delim:
		return nil, fmt.Errorf("%s must be a number, not a list or object", key)
	default:
		return nil, fmt.Errorf("%s must be a number, not %v", key, x)
	}
}
