package importers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"capplan/planner"
)

func openFixture(t *testing.T, name string) *os.File {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func approx(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

// The nvidia-smi log covers two one-minute rows from 2026-11-28 14:00:00
// UTC (Unix 1795874400), a sample every 5 s. Row 1's twelve samples hold
// eleven power readings (one "[N/A]"): mean 469.78 W, peak 472.41 W, memory
// peak 71,269 of 81,559 MiB (headroom 12.62 %). Row 2: mean 660.0075 W,
// peak 663.12 W, memory peak 72,888 MiB (10.63 %).
func TestTelemetryNvidiaSMI(t *testing.T) {
	const t0 = 1795874400.0
	a := planner.NewTelemetryAligner([]planner.Window{{Start: t0, End: t0 + 60}, {Start: t0 + 60, End: t0 + 120}})
	var first planner.GPUSample
	f, err := ParseTelemetry("smi.csv", openFixture(t, "nvidia_smi_h100.csv"), EvidenceOptions{}, func(s planner.GPUSample) error {
		if first.At == 0 {
			first = s
		}
		a.Add(s)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if f.Format != "nvidia-smi" || f.Records != 24 || len(f.SHA256) != 64 || f.Bytes == 0 {
		t.Fatalf("file = %+v", f)
	}
	if !approx(first.At, t0+0.412) || first.GPU != "0" || *first.PowerW != 469.12 || *first.UtilPct != 96 || *first.TempC != 52 {
		t.Errorf("first sample = %+v", first)
	}
	rows := a.Result([]*float64{planner.F(773), planner.F(5389)}, f.Name)
	r1, r2 := rows[0], rows[1]
	if r1.Samples != 12 || !approx(*r1.PowerMeanW, 469.78) || !approx(*r1.PowerPeakW, 472.41) || !approx(*r1.Headroom, 1-71269.0/81559) {
		t.Errorf("row 1 = %+v", r1)
	}
	if r2.Samples != 12 || !approx(*r2.PowerMeanW, 660.0075) || !approx(*r2.Headroom, 1-72888.0/81559) {
		t.Errorf("row 2 = %+v", r2)
	}
	if note := planner.UtilisationFlatNote(rows, []*float64{planner.F(773), planner.F(5389)}); !strings.Contains(note, "470 W to 660 W") {
		t.Errorf("flat utilisation not noted: %q", note)
	}
}

// A local-time log read in its zone lands an hour earlier in UTC.
func TestTelemetryLocation(t *testing.T) {
	cet := time.FixedZone("CET", 3600)
	var at float64
	_, err := ParseTelemetry("smi.csv", strings.NewReader("timestamp, power.draw [W]\n2026/11/28 15:00:00.000, 400.00 W\n"), EvidenceOptions{Location: cet}, func(s planner.GPUSample) error {
		at = s.At
		return nil
	})
	if err != nil || at != 1795874400 {
		t.Errorf("at = %v, err %v", at, err)
	}
}

// nounits logs, an index column, several GPUs per timestamp.
func TestTelemetrySMIVariants(t *testing.T) {
	in := "timestamp, index, power.draw [W], memory.used [MiB], memory.total [MiB]\n" +
		"2026/11/28 14:00:00.000, 0, 400.5, 60000, 81559\n" +
		"2026/11/28 14:00:00.000, 1, 300.5, 50000, 81559\n"
	var got []planner.GPUSample
	if _, err := ParseTelemetry("x.csv", strings.NewReader(in), EvidenceOptions{}, func(s planner.GPUSample) error { got = append(got, s); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[1].GPU != "1" || *got[1].PowerW != 300.5 {
		t.Errorf("samples = %+v", got)
	}
	// Without an index column the GPUs of one timestamp are numbered.
	in = "timestamp, power.draw [W]\n2026/11/28 14:00:00.000, 1 W\n2026/11/28 14:00:00.000, 2 W\n2026/11/28 14:00:01.000, 3 W\n"
	got = nil
	_, _ = ParseTelemetry("x.csv", strings.NewReader(in), EvidenceOptions{}, func(s planner.GPUSample) error { got = append(got, s); return nil })
	if len(got) != 3 || got[0].GPU != "0" || got[1].GPU != "1" || got[2].GPU != "0" {
		t.Errorf("ordinals = %+v", got)
	}
}

// Three scrapes of two GPUs: six samples. GPU 0's memory total is used +
// free + reserved = 71,236 + 9,698 + 625 = 81,559 MiB.
func TestTelemetryDCGM(t *testing.T) {
	var got []planner.GPUSample
	f, err := ParseTelemetry("dcgm.prom", openFixture(t, "dcgm_scrapes.prom"), EvidenceOptions{}, func(s planner.GPUSample) error {
		got = append(got, s)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if f.Format != "dcgm" || len(got) != 6 {
		t.Fatalf("format %s, %d samples", f.Format, len(got))
	}
	g0 := got[0]
	if g0.GPU != "0" || !approx(g0.At, 1795874400.007) || *g0.PowerW != 469.123 || *g0.MemUsedMiB != 71236 || *g0.MemTotalMiB != 81559 || *g0.UtilPct != 97 || *g0.TempC != 54 {
		t.Errorf("GPU 0 first scrape = %+v", g0)
	}
	if got[5].GPU != "1" || *got[5].PowerW != 216.552 {
		t.Errorf("last sample = %+v", got[5])
	}
}

func TestTelemetryRefusals(t *testing.T) {
	for name, in := range map[string]string{
		"noheader":      "2026/11/28 14:00:00.000, 400.00 W, 60000 MiB\n",
		"dcgm no time":  "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\"} 400\n",
		"not telemetry": "hello, world\n1, 2\n",
		"empty":         "",
		"bad value":     "timestamp, power.draw [W]\n2026/11/28 14:00:00.000, lots W\n",
		"bad time":      "timestamp, power.draw [W]\nyesterday, 400 W\n",
	} {
		n := 0
		_, err := ParseTelemetry(name, strings.NewReader(in), EvidenceOptions{}, func(planner.GPUSample) error { n++; return nil })
		var e *Error
		if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), name+": ") {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	_, err := ParseTelemetry("big", strings.NewReader(strings.Repeat("x", 100)), EvidenceOptions{MaxBytes: 10}, func(planner.GPUSample) error { return nil })
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("limit: %v", err)
	}
}

func TestSoakMarkdownAndJSON(t *testing.T) {
	for _, fx := range []string{"soak_hours.md", "soak.json"} {
		s, f, err := ParseSoak(fx, openFixture(t, fx), EvidenceOptions{})
		if err != nil {
			t.Fatalf("%s: %v", fx, err)
		}
		if len(s.Hours) != 3 || len(s.Drains) != 2 || f.Records != 5 {
			t.Fatalf("%s: %d hours, %d drains", fx, len(s.Hours), len(s.Drains))
		}
		h := s.Hours[0]
		if h.Hour != 1 || h.Requests != 12400 || h.Rejected429 != 1210 || h.Failed != 1 || !approx(*h.InSLO, 0.9999) ||
			!approx(*h.TTFTP99, 0.262) || !approx(*h.TPOTP99, 0.0361) || *h.TokensPerS != 1402 || *h.Watts != 431 || *h.TempMaxC != 56 {
			t.Errorf("%s: hour 1 = %+v", fx, h)
		}
		d := s.Drains[1]
		if d.N != 2 || d.Running != 88 || d.Finished != 88 || d.Lost != 0 || d.Rejected != 911 || *d.Arrivals != 911 || *d.EmptyAfterS != 17 {
			t.Errorf("%s: drain 2 = %+v", fx, d)
		}
		// 44,960 requests - 4,130 429s - 3 failed = 40,827; availability
		// 40,827 / 40,830.
		r := planner.JudgeSoak(s)
		if r.Successes != 40827 || !approx(*r.Availability, 40827.0/40830) || !r.NoInFlightLoss || r.DriftFlagged {
			t.Errorf("%s: judged %+v", fx, r)
		}
	}
}

func TestSoakCSVAndRefusals(t *testing.T) {
	in := "hour,requests,rejected_429,failed,in_slo,ttft_p99_ms\n1,\"17,422\",\"2,164\",1,99.99%,271\n"
	s, _, err := ParseSoak("s.csv", strings.NewReader(in), EvidenceOptions{})
	if err != nil || s.Hours[0].Requests != 17422 || !approx(*s.Hours[0].TTFTP99, 0.271) {
		t.Fatalf("csv: %+v %v", s, err)
	}
	for name, in := range map[string]string{
		"no header":  "a,b\n1,2\n",
		"too many":   "hour,requests,429,failed\n1,10,8,3\n",
		"bad count":  "hour,requests\n1,many\n",
		"lost":       "drain,running,finished,lost\n1,10,10,1\n",
		"json":       `{"hours": 3}`,
		"empty json": `{"note": "nothing"}`,
	} {
		if _, _, err := ParseSoak(name, strings.NewReader(in), EvidenceOptions{}); err == nil || !strings.HasPrefix(err.Error(), name+": ") {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}

func TestUsageJSONLAndCSV(t *testing.T) {
	var got []planner.UsageRecord
	f, err := ParseUsage("u.jsonl", openFixture(t, "usage_small.jsonl"), EvidenceOptions{}, func(u planner.UsageRecord) error { got = append(got, u); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if f.Format != "usage-jsonl" || len(got) != 3 || got[1].Tenant != "agents" || got[1].PromptTokens != 1450 || got[1].OutputTokens != 512 || !approx(got[1].End-got[1].Start, 2.46) {
		t.Errorf("usage = %+v", got)
	}
	in := "tenant,start_time,end_time,input_tokens,completion_tokens\nrag,2026-11-28T14:00:00Z,2026-11-28T14:00:00.5Z,3000,100\n"
	got = nil
	if _, err := ParseUsage("u.csv", strings.NewReader(in), EvidenceOptions{}, func(u planner.UsageRecord) error { got = append(got, u); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Start != 1795874400 || got[0].End != 1795874400.5 || got[0].PromptTokens != 3000 {
		t.Errorf("csv usage = %+v", got)
	}
	for name, in := range map[string]string{
		"no tenant":  "start,end,prompt_tokens,output_tokens\n1,2,3,4\n",
		"backwards":  `{"tenant":"a","start":5,"end":4,"prompt_tokens":1,"output_tokens":1}`,
		"bad tokens": `{"tenant":"a","start":1,"end":4,"prompt_tokens":1.5,"output_tokens":1}`,
		"not json":   `{"tenant":`,
	} {
		if _, err := ParseUsage(name, strings.NewReader(in), EvidenceOptions{}, func(planner.UsageRecord) error { return nil }); err == nil || !strings.HasPrefix(err.Error(), name+": ") {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}

// One full day of hourly counts: 28,119 requests, the busiest hour 09:00
// with 3,120 and a peak of 163 in flight against a limit of 157.
func TestTrafficHourly(t *testing.T) {
	m := planner.NewDemandMeter()
	f, err := ParseTraffic("t.csv", openFixture(t, "traffic_hourly.csv"), EvidenceOptions{}, m.Add)
	if err != nil {
		t.Fatal(err)
	}
	limit := 157
	d := m.Result(&limit, f.Name)
	if f.Records != 24 || d.Requests != 28119 || d.FullDays != 1 || d.BucketS != 3600 || d.BusiestHour != "2026-11-02 09:00" {
		t.Fatalf("demand = %+v", d)
	}
	if *d.PeakInFlight != 163 || !d.OverAdmission {
		t.Errorf("peak in flight %v over %v", *d.PeakInFlight, d.OverAdmission)
	}
	// expected = 28,119 x 365 / 12 = 855,286.25 -> 855,287 (demand rounds
	// up); its busiest hour 3,120 of the day's 28,119.
	exp := d.Proposed[1].Scenario
	if exp.Name != "expected" || exp.MonthlyRequests != 855287 || exp.Kind() != planner.BusyDayShare || !approx(exp.BusyHourShare, 3120/28119.0) {
		t.Errorf("expected scenario = %+v", exp)
	}
	if !approx(*d.PromptTokensPerRequest, 1700) || !approx(*d.OutputTokensPerRequest, 420) {
		t.Errorf("tokens per request %v / %v", *d.PromptTokensPerRequest, *d.OutputTokensPerRequest)
	}
}

func TestTrafficPerMinuteAndRefusals(t *testing.T) {
	in := "time,requests\n2026-11-02T09:00:00Z,30\n2026-11-02T09:01:00Z,45\n"
	var got []planner.TrafficBucket
	if _, err := ParseTraffic("m.csv", strings.NewReader(in), EvidenceOptions{}, func(b planner.TrafficBucket) error { got = append(got, b); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].LengthS != 60 || got[1].LengthS != 60 || got[1].Requests != 45 {
		t.Errorf("buckets = %+v", got)
	}
	for name, in := range map[string]string{
		"backwards": "time,requests\n2026-11-02T09:01:00Z,30\n2026-11-02T09:00:00Z,45\n",
		"single":    "time,requests\n2026-11-02T09:01:00Z,30\n",
		"no count":  "time,visitors\n2026-11-02T09:01:00Z,30\n",
		"gap":       "time,requests\n2026-11-02T09:00:00Z,30\n2026-11-02T12:00:00Z,45\n",
	} {
		if _, err := ParseTraffic(name, strings.NewReader(in), EvidenceOptions{}, func(planner.TrafficBucket) error { return nil }); err == nil || !strings.HasPrefix(err.Error(), name+": ") {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}

// evidenceSeeds adds the named fixtures to a fuzz target's corpus.
func evidenceSeeds(f *testing.F, names ...string) {
	for _, fx := range names {
		b, err := os.ReadFile("testdata/" + fx)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// fuzzEvidence checks one evidence reader's outcome: no panic (the guard
// is not in the way: a recovered panic reads "internal error"), a refusal
// names the file, and what is kept marshals to JSON (no NaN or infinity
// reaches the report).
func fuzzEvidence(t *testing.T, err error, kept any) {
	if err != nil {
		if !strings.HasPrefix(err.Error(), "f: ") {
			t.Errorf("error does not name the file: %v", err)
		}
		if strings.Contains(err.Error(), "internal error") {
			t.Errorf("panic: %v", err)
		}
		return
	}
	if _, err := json.Marshal(kept); err != nil {
		t.Errorf("what is kept does not marshal: %v", err)
	}
}

// FuzzTelemetry fuzzes the nvidia-smi, DCGM and AIPerf telemetry readers: every sample
// handed on holds finite, non-negative readings.
func FuzzTelemetry(f *testing.F) {
	evidenceSeeds(f, "nvidia_smi_h100.csv", "dcgm_scrapes.prom")
	f.Add([]byte(aiperfTelemetryRecord(1795874400_000000000, 0, `"gpu_power_usage":512.5,"gpu_memory_used":71.2,"gpu_utilization":97,"gpu_temperature":NaN`) + "\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var bad error
		_, err := ParseTelemetry("f", bytes.NewReader(b), EvidenceOptions{}, func(s planner.GPUSample) error {
			for _, v := range []*float64{s.PowerW, s.MemUsedMiB, s.MemTotalMiB, s.UtilPct, s.TempC} {
				if v != nil && (*v < 0 || math.IsNaN(*v) || math.IsInf(*v, 0)) {
					bad = fmt.Errorf("sample %+v holds %v", s, *v)
				}
			}
			return nil
		})
		if bad != nil {
			t.Fatal(bad)
		}
		fuzzEvidence(t, err, nil)
	})
}

// FuzzSoak fuzzes the soak reader (tables and JSON): hours are distinct
// and within the bound.
func FuzzSoak(f *testing.F) {
	evidenceSeeds(f, "soak_hours.md", "soak.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		s, _, err := ParseSoak("f", bytes.NewReader(b), EvidenceOptions{})
		fuzzEvidence(t, err, s)
		if err == nil {
			seen := map[int]bool{}
			for _, h := range s.Hours {
				if seen[h.Hour] {
					t.Fatalf("hour %d twice", h.Hour)
				}
				seen[h.Hour] = true
			}
			if len(s.Hours) > MaxSoakHours || len(s.Drains) > MaxSoakDrains {
				t.Fatalf("%d hours, %d drains", len(s.Hours), len(s.Drains))
			}
		}
	})
}

// FuzzUsage fuzzes the per-request usage reader into the showback meter.
func FuzzUsage(f *testing.F) {
	evidenceSeeds(f, "usage_small.jsonl")
	f.Add([]byte("tenant,start,end,prompt_tokens,output_tokens\na,1,2,3,4\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		m := planner.NewShowbackMeter(0)
		_, err := ParseUsage("f", bytes.NewReader(b), EvidenceOptions{}, m.Add)
		if err == nil {
			fuzzEvidence(t, err, m.Usage("f"))
			return
		}
		fuzzEvidence(t, err, nil)
	})
}

// FuzzTraffic fuzzes the aggregate traffic reader into the demand meter.
func FuzzTraffic(f *testing.F) {
	evidenceSeeds(f, "traffic_hourly.csv")
	f.Fuzz(func(t *testing.T, b []byte) {
		m := planner.NewDemandMeter()
		_, err := ParseTraffic("f", bytes.NewReader(b), EvidenceOptions{}, m.Add)
		if err == nil {
			fuzzEvidence(t, err, m.Result(nil, "f"))
			return
		}
		fuzzEvidence(t, err, nil)
	})
}

// seedSoakReport is a soak written up as Markdown: the run's summary, the
// hour-by-hour table, the drains and the energy summary, prose between.
func seedSoakReport() string {
	return `Results

| Requests | 162,040 |
| Succeeded | 147,434 |
| Availability (excluding 429s) | 99.994% |
| Time to first token, p50 / p99 | 100 ms / 310 ms |
| Output tokens served | 63.0 million (2,906 tok/s average) |

Hour by hour:

| Hour | Requests | 429 | Failed | In SLO | TTFT p99 | TPOT p99 | Tok/s | GPU W | °C max |
|---|---|---|---|---|---|---|---|---|---|
| 1 | 17,422 | 2,164 | 1 | 99.99% | 271 ms | 37.5 ms | 1,825 | 444 | 58 |
| 2 | 26,748 | 2,444 | 3 | 100.00% | 286 ms | 37.3 ms | 2,861 | 518 | 58 |
| 3 | 36,421 | 3,108 | 2 | 99.95% | 326 ms | 38.6 ms | 3,943 | 592 | 59 |
| 4 | 36,480 | 2,834 | 1 | 99.95% | 338 ms | 39.5 ms | 3,953 | 598 | 60 |
| 5 | 27,347 | 2,216 | 2 | 99.96% | 295 ms | 36.6 ms | 2,994 | 527 | 57 |
| 6 | 17,622 | 1,831 | 0 | 99.97% | 279 ms | 38.0 ms | 1,863 | 447 | 59 |

| Drain | Running at drain | Finished | Lost | New requests rejected | GPU empty after |
|---|---|---|---|---|---|
| 1 | 26 | 26 | 0 | 561 / 561 | 12 s |
| 2 | 60 | 60 | 0 | 962 / 962 | 14 s |

Energy and economics

| Average GPU board power | 520 W |
| Energy over 6 hours (board) | 11.3 MJ (3.1 kWh) |
| GPU rent for the six hours | $25.74 |
`
}

// A soak's run summary gives the mean power and the output tokens; its
// other lines are read past, and the hours and drains are read as ever.
func TestSoakRunSummary(t *testing.T) {
	s, _, err := ParseSoak("soak.md", strings.NewReader(seedSoakReport()), EvidenceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Hours) != 6 || len(s.Drains) != 2 || s.MeanPowerW == nil || *s.MeanPowerW != 520 || s.OutputTokens == nil || *s.OutputTokens != 63e6 {
		t.Fatalf("%d hours, %d drains, power %v, tokens %v", len(s.Hours), len(s.Drains), s.MeanPowerW, s.OutputTokens)
	}
	r := planner.JudgeSoak(s)
	if !approx(*r.EnergyMJ, 11.232) || !approx(*r.TokensPerJoule, 63e6/11.232e6) {
		t.Errorf("energy %v MJ, %v tok/J", *r.EnergyMJ, *r.TokensPerJoule)
	}

	j := `{"hours": [{"hour": 1, "requests": 10}], "mean_power_w": "0.52 kW", "output_tokens": 1200000}`
	s, _, err = ParseSoak("soak.json", strings.NewReader(j), EvidenceOptions{})
	if err != nil || *s.MeanPowerW != 520 || *s.OutputTokens != 1.2e6 {
		t.Fatalf("json summary: %+v %v", s, err)
	}
	for name, in := range map[string]string{
		"power unit":  "| Average GPU board power | 52 % |\n\n| Hour | Requests |\n|---|---|\n| 1 | 10 |\n",
		"token unit":  "| Output tokens served | 63 parsecs |\n\n| Hour | Requests |\n|---|---|\n| 1 | 10 |\n",
		"json power":  `{"hours": [{"hour": 1, "requests": 10}], "mean_power_w": "lots"}`,
		"json tokens": `{"hours": [{"hour": 1, "requests": 10}], "output_tokens": "9 furlongs"}`,
	} {
		if _, _, err := ParseSoak(name, strings.NewReader(in), EvidenceOptions{}); err == nil || !strings.HasPrefix(err.Error(), name+": ") {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}
