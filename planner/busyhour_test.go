package planner

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
)

func nearRel(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// A month of 36,500 requests is 1,200 a day (a month is 365 / 12 days) and
// 36,500 / 2,628,000 s = 0.013889 req/s on average. The same busiest hour,
// 120 requests, typed three ways.
func TestBusyHourKindsAgree(t *testing.T) {
	cases := []Scenario{
		{Name: "expected", MonthlyRequests: 36_500, BusyHourKind: BusyDayShare, BusyHourShare: 0.1},
		{Name: "expected", MonthlyRequests: 36_500, BusyHourKind: BusyPeakRate, PeakRate: 120.0 / 3600},
		{Name: "expected", MonthlyRequests: 36_500, BusyHourKind: BusyMonthShare, BusyHourShare: 120.0 / 36_500},
		// A scenario saved before the kind existed: a share of the month.
		{Name: "expected", MonthlyRequests: 36_500, BusyHourShare: 120.0 / 36_500},
	}
	for _, s := range cases {
		if err := s.Validate(); err != nil {
			t.Fatalf("%+v: %v", s, err)
		}
		if got := s.BusyRate(); !nearRel(got, 120.0/3600) {
			t.Errorf("%s: busy rate %v, want 0.033333 req/s", s.Kind(), got)
		}
		// 0.033333 / 0.013889 = 2.4: the busiest hour holds 10 % of the day, 2.4 times an even 1/24.
		if got := s.PeakToAverage(); got == nil || !nearRel(*got, 2.4) {
			t.Errorf("%s: peak to average %v, want 2.4", s.Kind(), got)
		}
		if got := s.MonthShare(); !nearRel(got, 120.0/36_500) {
			t.Errorf("%s: month share %v", s.Kind(), got)
		}
		if got := s.DayShare(); !nearRel(got, 0.1) {
			t.Errorf("%s: day share %v", s.Kind(), got)
		}
		if w := s.BusyHourWarning(); w != "" {
			t.Errorf("%s: a plausible busy hour warned: %s", s.Kind(), w)
		}
		// The cost model sizes boxes by the same rate.
		sr := CostScenario(s, Capacity{PerBoxRate: F(0.02), MaxBoxes: 4}, SelfHostedMonthly(flatSelf("1000", "0"), nil), nil)
		if !nearRel(sr.BusyHourRate, 120.0/3600) || sr.BoxesNeeded == nil || *sr.BoxesNeeded != 2 {
			t.Errorf("%s: costed busy rate %v boxes %v, want 0.0333 and 2", s.Kind(), sr.BusyHourRate, sr.BoxesNeeded)
		}
		if !strings.Contains(sr.BusyHour, "2.4 times the average rate") {
			t.Errorf("%s: busy hour text %q", s.Kind(), sr.BusyHour)
		}
	}
}

// A scenario stored before the kind existed keeps its meaning: a share of
// the month's requests.
func TestBusyHourStoredWithoutKindIsAMonthShare(t *testing.T) {
	var s Scenario
	if err := json.Unmarshal([]byte(`{"name":"expected","monthly_requests":35000,"busy_hour_share":0.08}`), &s); err != nil {
		t.Fatal(err)
	}
	if s.Kind() != BusyMonthShare {
		t.Fatalf("kind %q", s.Kind())
	}
	// 35,000 x 0.08 / 3600 = 0.77778 req/s, as before the kinds.
	if got := s.BusyRate(); !nearRel(got, 35_000*0.08/3600) {
		t.Errorf("busy rate %v", got)
	}
	b, _ := json.Marshal(s)
	if strings.Contains(string(b), "busy_hour_kind") {
		t.Errorf("a kindless scenario gained a kind when saved again: %s", b)
	}
}

// The implausible busy hours: 8 % of a month in one hour is 2,800 of
// 35,000, more than an average day's 1,151 (58.4 times the average rate);
// 2 % of a day is quieter than an even 1/24 of it.
func TestBusyHourImplausibleWarns(t *testing.T) {
	month := Scenario{Name: "expected", MonthlyRequests: 35_000, BusyHourShare: 0.08}
	if got := month.PeakToAverage(); got == nil || !nearRel(*got, 0.08*730) {
		t.Fatalf("peak to average %v, want 58.4", got)
	}
	w := month.BusyHourWarning()
	for _, want := range []string{"2,800 requests", "average day's 1,151", "58.4 times", "share of a day's requests"} {
		if !strings.Contains(w, want) {
			t.Errorf("warning %q lacks %q", w, want)
		}
	}
	sr := CostScenario(month, bigCapacity(), SelfHostedMonthly(flatSelf("1000", "0"), nil), nil)
	if sr.BusyHourWarning != w {
		t.Errorf("the costed scenario carries %q", sr.BusyHourWarning)
	}
	quiet := Scenario{Name: "low", MonthlyRequests: 36_500, BusyHourKind: BusyDayShare, BusyHourShare: 0.02}
	if w := quiet.BusyHourWarning(); !strings.Contains(w, "quieter than the month's average") {
		t.Errorf("quiet busy hour: %q", w)
	}
	slow := Scenario{Name: "low", MonthlyRequests: 36_500, BusyHourKind: BusyPeakRate, PeakRate: 0.01}
	if w := slow.BusyHourWarning(); !strings.Contains(w, "0.01 req/s") {
		t.Errorf("slow peak rate: %q", w)
	}
	// A whole day in one hour is the edge: 24 times, not above a day.
	edge := Scenario{Name: "peak", MonthlyRequests: 36_500, BusyHourKind: BusyDayShare, BusyHourShare: 1}
	if w := edge.BusyHourWarning(); w != "" {
		t.Errorf("a day's requests in its busiest hour warned: %q", w)
	}
	if none := (Scenario{Name: "low", BusyHourKind: BusyDayShare, BusyHourShare: 0.1}); none.PeakToAverage() != nil || none.BusyHourWarning() != "" {
		t.Errorf("no demand: ratio %v warning %q", none.PeakToAverage(), none.BusyHourWarning())
	}
}

func TestBusyHourValidation(t *testing.T) {
	cases := []struct {
		s     Scenario
		field string
		want  string
	}{
		{Scenario{Name: "low", MonthlyRequests: 10, BusyHourKind: BusyDayShare, BusyHourShare: 1.5}, "scenario.busy_hour_share", "at most 1"},
		{Scenario{Name: "low", MonthlyRequests: 10, BusyHourKind: BusyPeakRate}, "scenario.peak_rate", "above 0 req/s"},
		{Scenario{Name: "low", MonthlyRequests: 10, BusyHourKind: "weekly", BusyHourShare: 0.1}, "scenario.busy_hour_kind", "day_share"},
	}
	for _, c := range cases {
		var fe FieldErrors
		if err := c.s.Validate(); !errors.As(err, &fe) || len(fe) != 1 || fe[0].Field != c.field || !strings.Contains(fe[0].Message, c.want) {
			t.Errorf("%+v: %v, want %s %q", c.s, err, c.field, c.want)
		}
	}
	if l := FieldLabel("scenarios[1].peak_rate"); !strings.Contains(l, "peak request rate") {
		t.Errorf("label %q", l)
	}
}

// Where the stepped crossover cannot be computed, the text names what is
// missing: the busy hour when capacity is known, the ceiling when not.
func TestCrossoverNamesTheMissingInput(t *testing.T) {
	self := SelfHostedMonthly(flatSelf("3000", "0.01"), nil)
	q := QuoteMonthly(flatQuote("api", "0.02"), 256, 128, "contract")
	x := FindCrossover(self, q, Capacity{PerBoxRate: F(0.6077), MaxBoxes: 2}, 0)
	if !strings.Contains(x.Text, "no demand scenario gives its busiest hour") || strings.Contains(x.Text, "capacity per box unknown") {
		t.Errorf("share missing: %q", x.Text)
	}
	x = FindCrossover(self, q, Capacity{MaxBoxes: 2, Reason: "no demonstrated ceiling: capacity per box unknown (no row counts)"}, 0.01)
	if !strings.Contains(x.Text, "no demonstrated ceiling") {
		t.Errorf("ceiling missing: %q", x.Text)
	}
}

// With peak memory and device memory both known, a row's headroom is
// worked out (1 - 64 / 80 = 20 %) and judged, not left missing.
func TestHeadroomDerivedFromPeakAndDeviceMemory(t *testing.T) {
	in := demoInputs()
	in.Rows[0].Observed.Headroom = nil // peak 64 GiB typed; the device has 80 GiB
	r := Compute(in)
	m := r.Matrix[0]
	if m.MemoryHeadroom == nil || !nearRel(*m.MemoryHeadroom, 0.2) || m.MemoryHeadroomSource != SourceDerived {
		t.Fatalf("headroom %v from %q, want 0.2 derived", m.MemoryHeadroom, m.MemoryHeadroomSource)
	}
	for _, miss := range m.Verdict.Missing {
		if miss == "memory headroom" {
			t.Errorf("headroom still missing: %+v", m.Verdict)
		}
	}
	// A typed headroom is kept as typed.
	in = demoInputs()
	if r := Compute(in); r.Matrix[0].MemoryHeadroomSource != SourceTyped {
		t.Errorf("typed headroom source %q", r.Matrix[0].MemoryHeadroomSource)
	}
}
