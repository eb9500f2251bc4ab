package importers

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"capplan/planner"
)

// The evidence readers hold their input to the results' standard: a value
// that would store a wrong figure is refused, naming the file, line and
// column; past a bound the file is refused saying which bound.

func telemetryErr(t *testing.T, in string) (*EvidenceFile, []planner.GPUSample, error) {
	t.Helper()
	var got []planner.GPUSample
	f, err := ParseTelemetry("gpu.log", strings.NewReader(in), EvidenceOptions{}, func(s planner.GPUSample) error {
		got = append(got, s)
		return nil
	})
	return f, got, err
}

func wantRefusal(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("accepted; want a refusal naming %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("refusal %q does not say %q", err, p)
		}
	}
}

func TestEvidenceRefusesWhatWouldStoreWrongFigures(t *testing.T) {
	const smiHead = "timestamp, power.draw [W], memory.used [MiB], temperature.gpu\n"
	for _, c := range []struct {
		name, in string
		want     []string
	}{
		{"second power column", "timestamp, power.draw [W], memory.used [MiB], power.draw [W]\n2026/11/28 14:00:00, 569 W, 100 MiB, 9999 W\n",
			[]string{"gpu.log: line 1, column 4 (power.draw [W])", "same field as column 2"}},
		{"negative power", smiHead + "2026/11/28 14:00:00, 569 W, 100 MiB, 50\n2026/11/28 14:00:01, -469 W, 100 MiB, 50\n",
			[]string{"line 3, column 2 (power.draw [W])", "negative"}},
		{"NaN power", smiHead + "2026/11/28 14:00:00, NaN, 100 MiB, 50\n", []string{"line 2, column 2", "not a number"}},
		{"NUL in the header", "timestamp, power.draw [W], temperature\x00.gpu\n2026/11/28 14:00:00, 500 W, 50\n",
			[]string{"line 1, column 3", "control character (U+0000)"}},
		{"utilisation above 100", "timestamp, power.draw [W], utilization.gpu [%]\n2026/11/28 14:00:00, 500 W, 180 %\n", []string{"column 3", "above 100"}},
		{"7 MB header", strings.Repeat("x", 7<<20) + "\n", []string{"line 1 (the header) is longer than 1 MB"}},
		{"DCGM negative", "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\"} -469 1795874400007\n", []string{"line 1, column 34 (DCGM_FI_DEV_POWER_USAGE)", "negative"}},
		{"DCGM twice in a scrape", "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\"} 400 1795874400007\nDCGM_FI_DEV_POWER_USAGE{gpu=\"0\"} 9999 1795874400007\n", []string{"line 2", "a second DCGM_FI_DEV_POWER_USAGE", "line 1"}},
		{"too many GPUs", smiHeadGPUs(MaxTelemetryGPUs + 1), []string{"line 66, column 2", "beyond the first 64"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := telemetryErr(t, c.in)
			wantRefusal(t, err, c.want...)
			if err != nil && !strings.HasPrefix(err.Error(), "gpu.log: ") {
				t.Errorf("refusal does not start with the file: %v", err)
			}
		})
	}
}

func smiHeadGPUs(n int) string {
	var b strings.Builder
	b.WriteString("timestamp, index, power.draw [W]\n")
	for i := range n {
		fmt.Fprintf(&b, "2026/11/28 14:00:00, %d, 400 W\n", i)
	}
	return b.String()
}

// NaN and ±Inf are valid Prometheus values: skipped and counted in a
// warning, never stored (json.Marshal of what is kept must succeed).
func TestDCGMNaNSkippedWithWarning(t *testing.T) {
	in := "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\"} 400 1795874400000\n" +
		"DCGM_FI_DEV_GPU_TEMP{gpu=\"0\"} NaN 1795874400000\n" +
		"DCGM_FI_DEV_POWER_USAGE{gpu=\"0\"} +Inf 1795874401000\n" +
		"DCGM_FI_DEV_GPU_UTIL{gpu=\"0\"} -Inf 1795874401000\n" +
		"DCGM_FI_DEV_POWER_USAGE{gpu=\"0\"} 410 1795874402000\n"
	f, got, err := telemetryErr(t, in)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Warnings) != 1 || !strings.Contains(f.Warnings[0], "3 readings were NaN or infinite and were skipped, the first on line 2") ||
		!strings.Contains(f.Warnings[0], "DCGM_FI_DEV_POWER_USAGE 1") || !strings.Contains(f.Warnings[0], "DCGM_FI_DEV_GPU_TEMP 1") {
		t.Errorf("warnings = %q", f.Warnings)
	}
	if len(got) != 2 || *got[0].PowerW != 400 || got[0].TempC != nil || *got[1].PowerW != 410 {
		t.Errorf("samples = %+v", got)
	}
	a := planner.NewTelemetryAligner([]planner.Window{{Start: 1795874399, End: 1795874403}})
	for _, s := range got {
		a.Add(s)
	}
	if _, err := json.Marshal(a.Result([]*float64{planner.F(1000)}, "gpu.log")); err != nil {
		t.Errorf("the aggregates do not marshal: %v", err)
	}
}

func TestSoakRefusals(t *testing.T) {
	const head = "| Hour | Requests | 429 | Failed | GPU W |\n|---|---|---|---|---|\n"
	for _, c := range []struct {
		name, in string
		want     []string
	}{
		{"hour twice", head + "| 1 | 100 | 0 | 0 | 400 |\n| 2 | 100 | 0 | 0 | 400 |\n| 1 | 100 | 0 | 0 | 400 |\n", []string{"soak.md: line 5", "hour 1 is listed twice"}},
		{"negative watts", head + "| 1 | 100 | 0 | 0 | -400 |\n", []string{"line 3", "negative"}},
		{"negative requests", head + "| 1 | -100 | 0 | 0 | 400 |\n", []string{"line 3", "negative"}},
		{"second requests column", "| Hour | Requests | Total |\n| 1 | 100 | 100 |\n", []string{"line 1, column 3 (Total)", "same field as column 2 (Requests)"}},
		{"JSON hour twice", `{"hours":[{"hour":1,"requests":5},` + "\n" + `{"hour":1,"requests":6}]}`, []string{"line 2", "hour 1 is listed twice"}},
		{"JSON key twice", `{"hours":[{"hour":1,"requests":5,"total":6}]}`, []string{`"requests" and "total" both give requests`}},
		{"JSON NUL in a skipped string", "{\"run\":\"a\x00b\",\"hours\":[{\"hour\":1,\"requests\":5}]}", []string{"NUL byte"}},
		{"JSON cut off", `{"hours":[{"hour":1,"requests":5},{"hour":2,`, []string{"cut off"}},
		{"JSON NaN", `{"hours":[{"hour":1,"requests":NaN}]}`, []string{"NaN is not a figure"}},
		{"JSON long text in a field", `{"hours":[{"hour":1,"requests":"` + strings.Repeat("9", 1000) + `"}]}`, []string{"longer than 256 bytes"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			name := "soak.md"
			if strings.HasPrefix(c.in, "{") {
				name = "soak.json"
			}
			_, _, err := ParseSoak(name, strings.NewReader(c.in), EvidenceOptions{})
			wantRefusal(t, err, append([]string{name + ": "}, c.want...)...)
		})
	}
	// exponents as json writes them are read in full
	s, _, err := ParseSoak("soak.json", strings.NewReader(`{"hours":[{"hour":1,"requests":1e+06,"rejected_429":2E3}]}`), EvidenceOptions{})
	if err != nil || s.Hours[0].Requests != 1_000_000 || s.Hours[0].Rejected429 != 2000 {
		t.Fatalf("soak = %+v, %v", s, err)
	}
}

func TestTrafficAndUsageRefusals(t *testing.T) {
	_, err := ParseTraffic("traffic.csv", strings.NewReader("time,requests,requests\n2026-11-02 00:00,28119,2399976\n"), EvidenceOptions{}, planner.NewDemandMeter().Add)
	wantRefusal(t, err, "traffic.csv: line 1, column 3 (requests)", "same field as column 2")
	_, err = ParseTraffic("traffic.csv", strings.NewReader("time,requests\n2026-11-02 00:00,10\n2026-11-02 01:00,-5\n"), EvidenceOptions{}, planner.NewDemandMeter().Add)
	wantRefusal(t, err, "line 3, column 2 (requests)", "negative")
	_, err = ParseUsage("usage.jsonl", strings.NewReader(`{"tenant":"a","start":1,"end":2,"prompt_tokens":3,"input_tokens":30,"output_tokens":4}`+"\n"), EvidenceOptions{}, planner.NewShowbackMeter(0).Add)
	wantRefusal(t, err, "usage.jsonl: line 1", `"prompt_tokens" and "input_tokens"`)
	_, err = ParseUsage("usage.csv", strings.NewReader("tenant,start,end,prompt_tokens,output_tokens,output_tokens\na,1,2,3,4,5\n"), EvidenceOptions{}, planner.NewShowbackMeter(0).Add)
	wantRefusal(t, err, "usage.csv: line 1, column 6", "same field as column 5")
	_, err = ParseUsage("usage.jsonl", strings.NewReader(`{"tenant":"`+strings.Repeat("t", 300)+`","start":1,"end":2,"prompt_tokens":3,"output_tokens":4}`+"\n"), EvidenceOptions{}, planner.NewShowbackMeter(0).Add)
	wantRefusal(t, err, "line 1", "longer than 200 bytes")
}

// trafficStream yields a per-minute traffic table of n minutes.
type trafficStream struct {
	n, i int
	at   time.Time
	step time.Duration
	buf  []byte
}

func (s *trafficStream) Read(p []byte) (int, error) {
	for len(s.buf) == 0 {
		switch {
		case s.i == 0:
			s.buf = []byte("time,requests\n")
		case s.i > s.n:
			return 0, io.EOF
		default:
			s.buf = fmt.Appendf(nil, "%d,%d\n", s.at.Unix(), 20)
			s.at = s.at.Add(s.step)
		}
		s.i++
	}
	k := copy(p, s.buf)
	s.buf = s.buf[k:]
	return k, nil
}

// A table past its bound is refused with the bound named, soon after the
// bound and in bounded memory; one at the bound is read.
func TestEvidenceBounds(t *testing.T) {
	// a 79 MB soak.md of 1,000,000 hours
	var mb float64
	var err error
	start := time.Now()
	mb = peakHeap(func() {
		_, _, err = ParseSoak("soak.md", &soakStream{n: 1_000_000}, EvidenceOptions{})
	})
	wantRefusal(t, err, "soak.md: line 723", "more than 720 soak hours")
	t.Logf("1,000,000 soak hours: refused in %v, peak heap %.1f MB", time.Since(start), mb)
	if mb > 20 {
		t.Errorf("peak heap %.1f MB refusing a long soak table", mb)
	}
	s, _, err := ParseSoak("soak.md", &soakStream{n: MaxSoakHours}, EvidenceOptions{})
	if err != nil || len(s.Hours) != MaxSoakHours {
		t.Fatalf("a soak table at the bound: %v", err)
	}
	d := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	_, err = ParseTraffic("traffic.csv", &trafficStream{n: MaxTrafficDays*24 + 10, at: d, step: time.Hour}, EvidenceOptions{}, planner.NewDemandMeter().Add)
	wantRefusal(t, err, "traffic.csv: line 9602", "span more than 400 days")
	start = time.Now()
	_, err = ParseTraffic("traffic.csv", &trafficStream{n: MaxTrafficBuckets + 1, at: d, step: 10 * time.Second}, EvidenceOptions{}, planner.NewDemandMeter().Add)
	wantRefusal(t, err, "traffic.csv: line 600002", "more than 600000 buckets")
	t.Logf("600,001 buckets of 10 s: refused in %v", time.Since(start))
}

// soakStream yields a Markdown hours table of n hours (79 bytes a line).
type soakStream struct {
	n, i int
	buf  []byte
}

func (s *soakStream) Read(p []byte) (int, error) {
	for len(s.buf) == 0 {
		switch {
		case s.i == 0:
			s.buf = []byte("| Hour | Requests | 429 | Failed | In SLO | TTFT p99 | TPOT p99 | Tok/s | GPU W |\n|---|---|---|---|---|---|---|---|---|\n")
		case s.i > s.n:
			return 0, io.EOF
		default:
			s.buf = fmt.Appendf(nil, "| %d | 12,400 | 1,210 | 1 | 99.99%% | 262 ms | 36.1 ms | 1,402 | 431 |\n", s.i)
		}
		s.i++
	}
	k := copy(p, s.buf)
	s.buf = s.buf[k:]
	return k, nil
}

// A soak.json whose "run" is one long string streams past it: the heap
// stays small whatever the string's length (1.9 GB without -short).
func TestSoakJSONLongStringBoundedMemory(t *testing.T) {
	n := 200 << 20
	if !testing.Short() {
		n = 1900 << 20
	}
	chunk := strings.Repeat("a", 1<<20)
	r := repeat(`{"run":"`, chunk, `","hours":[{"hour":1,"requests":100,"rejected_429":3}],"extra":{"deep":[1,2,{"x":"y"}]}}`, n>>20)
	var s *planner.Soak
	var err error
	start := time.Now()
	mb := peakHeap(func() { s, _, err = ParseSoak("soak.json", r, EvidenceOptions{}) })
	if err != nil || len(s.Hours) != 1 || s.Hours[0].Requests != 100 {
		t.Fatalf("soak = %+v, %v", s, err)
	}
	t.Logf("soak.json with a %d MB string: %v, peak heap %.1f MB", n>>20, time.Since(start), mb)
	if mb > 20 {
		t.Errorf("peak heap %.1f MB for a long string (bound 20 MB)", mb)
	}
}
