package importers

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"capplan/planner"
)

// aiperfTelemetryLine writes one record of AIPerf's gpu_telemetry_export.jsonl.
func aiperfTelemetryRecord(ns int64, index int, data string) string {
	return fmt.Sprintf(`{"timestamp_ns":%d,"dcgm_url":"http://localhost:9401/metrics","gpu_index":%d,"gpu_uuid":"GPU-%04d","gpu_model_name":"NVIDIA H100 80GB HBM3","pci_bus_id":"00000000:1A:00.0","hostname":"node1","telemetry_data":{%s}}`, ns, index, index, data)
}

// Two GPUs scraped twice, a second apart: four samples, memory in GB turned
// back into MiB (71.2 GB is 71.2 / 1.048576e-3 = 67,901.6 MiB), the cumulative
// counters and unknown readings skipped.
func TestTelemetryAIPerfExport(t *testing.T) {
	const t0 = int64(1795874400_000000000)
	var lines []string
	for s := range 2 {
		for g := range 2 {
			lines = append(lines, aiperfTelemetryRecord(t0+int64(s)*1e9, g,
				fmt.Sprintf(`"gpu_power_usage":%d.5,"energy_consumption":1.25,"gpu_utilization":97.0,"gpu_memory_used":71.2,"gpu_temperature":6%d.0,"xid_errors":0,"sm_utilization":null,"custom_metric":{"a":[1,2]}`, 500+100*g+s, g)))
		}
	}
	var got []planner.GPUSample
	f, err := ParseTelemetry("gpu_telemetry_export.jsonl", strings.NewReader(strings.Join(lines, "\n")+"\n"), EvidenceOptions{}, func(s planner.GPUSample) error {
		got = append(got, s)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if f.Format != "aiperf-gpu-telemetry" || f.Records != 4 || len(got) != 4 || len(f.Warnings) != 0 {
		t.Fatalf("format %q, %d records, %d samples, warnings %q", f.Format, f.Records, len(got), f.Warnings)
	}
	g := got[3]
	if g.GPU != "GPU-0001" || g.At != 1795874401 || *g.PowerW != 601.5 || *g.UtilPct != 97 || *g.TempC != 61 || g.MemTotalMiB != nil {
		t.Errorf("last sample = %+v", g)
	}
	if !approx(*g.MemUsedMiB, 71.2/1.048576e-3) {
		t.Errorf("memory used = %v MiB, want %v", *g.MemUsedMiB, 71.2/1.048576e-3)
	}
}

// Python writes NaN for a reading it did not have: the reading is left out
// and counted in a warning, as in a DCGM scrape.
func TestTelemetryAIPerfNaN(t *testing.T) {
	in := aiperfTelemetryRecord(1795874400_000000000, 0, `"gpu_power_usage":NaN,"gpu_memory_used":70.0`) + "\n" +
		aiperfTelemetryRecord(1795874401_000000000, 0, `"gpu_power_usage":512.0,"gpu_memory_used":Infinity`) + "\n"
	var got []planner.GPUSample
	f, err := ParseTelemetry("t.jsonl", strings.NewReader(in), EvidenceOptions{}, func(s planner.GPUSample) error {
		got = append(got, s)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].PowerW != nil || got[1].MemUsedMiB != nil || *got[1].PowerW != 512 {
		t.Fatalf("samples %+v", got)
	}
	if len(f.Warnings) != 1 || !strings.Contains(f.Warnings[0], "2 readings were NaN or infinite") || !strings.Contains(f.Warnings[0], "line 1") {
		t.Errorf("warnings %q", f.Warnings)
	}
}

// Every refusal names the file, the line and what is wrong.
func TestTelemetryAIPerfRefusals(t *testing.T) {
	ok := aiperfTelemetryRecord(1795874400_000000000, 0, `"gpu_power_usage":500.0`)
	for name, c := range map[string]struct{ in, want string }{
		"negative power":   {ok + "\n" + aiperfTelemetryRecord(1795874401_000000000, 0, `"gpu_power_usage":-469.0`), "line 2: telemetry_data.gpu_power_usage -469 is negative"},
		"util above 100":   {aiperfTelemetryRecord(1795874400_000000000, 0, `"gpu_utilization":140,"gpu_power_usage":1`), "line 1: telemetry_data.gpu_utilization 140 is above 100 %"},
		"twice in data":    {aiperfTelemetryRecord(1795874400_000000000, 0, `"gpu_power_usage":500.0,"gpu_power_usage":9999`), "gives gpu_power_usage twice"},
		"twice at top":     {`{"timestamp_ns":1,"timestamp_ns":2,"telemetry_data":{"gpu_power_usage":1}}`, `"timestamp_ns" is given twice`},
		"no timestamp":     {`{"gpu_index":0,"telemetry_data":{"gpu_power_usage":1}}`, "no timestamp_ns"},
		"no data":          {`{"timestamp_ns":1795874400000000000,"gpu_index":0}`, "no telemetry_data"},
		"not json":         {ok + "\n{\"timestamp_ns\": 1, \"telemetry_data\": {\n", "line 2: the line is not valid JSON"},
		"text power":       {aiperfTelemetryRecord(1, 0, `"gpu_power_usage":"500 W"`), "gpu_power_usage must be a number"},
		"nothing to align": {aiperfTelemetryRecord(1, 0, `"gpu_temperature":50`), "no record gives gpu_power_usage or gpu_memory_used"},
		"two values":       {ok + " {}", "more than one JSON value"},
		"a results file":   {`{"records": {"time_to_first_token": {"unit": "ms", "avg": 1}}}`, "line 1: not an AIPerf GPU telemetry export"},
	} {
		n := 0
		_, err := ParseTelemetry(name, strings.NewReader(c.in+"\n"), EvidenceOptions{}, func(planner.GPUSample) error { n++; return nil })
		var e *Error
		if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), name+": ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", name, err, c.want)
		}
	}
}
