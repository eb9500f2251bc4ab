package planner

import (
	"strings"
	"testing"
	"time"
)

func ip64(v int64) *int64 { return &v }

// Two full days of hourly counts: day 1 has 100 requests an hour except
// 09:00 with 700 (3,000 a day); day 2 has 50 an hour except 10:00 with 350
// (1,500 a day). Peak in flight 180 at day 1 09:00, against a limit of 157.
func TestDemandFromTraffic(t *testing.T) {
	m := NewDemandMeter()
	t0 := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	for d := 0; d < 2; d++ {
		for h := 0; h < 24; h++ {
			n, busy := int64(100), 9
			if d == 1 {
				n, busy = 50, 10
			}
			pif := ip64(20)
			if h == busy {
				n *= 7
				pif = ip64(180 - int64(d)*100)
			}
			b := TrafficBucket{Start: t0.Add(time.Duration(d*24+h) * time.Hour), LengthS: 3600, Requests: n, PeakInFlight: pif}
			if err := m.Add(b); err != nil {
				t.Fatal(err)
			}
		}
	}
	limit := 157
	d := m.Result(&limit, "traffic.csv")
	if d.Requests != 4500 || d.FullDays != 2 || d.BusiestHour != "2026-03-02 09:00" || d.BusiestHourRequests != 700 {
		t.Fatalf("demand = %+v", d)
	}
	if d.PeakInFlight == nil || *d.PeakInFlight != 180 || !d.OverAdmission {
		t.Errorf("peak in flight = %v over=%v", d.PeakInFlight, d.OverAdmission)
	}
	want := map[string]Scenario{
		// A month is 365 / 12 days; shares are of the day's requests.
		// low: 1,500 x 30.4167 = 45,625; its busiest hour 350 of 1,500
		"low": {MonthlyRequests: 45625, BusyHourShare: 350 / 1500.0},
		// expected: mean 2,250 a day -> 68,437.5 -> 68,438 (half away from zero); mean busiest hour 525
		"expected": {MonthlyRequests: 68438, BusyHourShare: 525 / 2250.0},
		// peak: 3,000 -> 91,250; 700 of 3,000
		"peak": {MonthlyRequests: 91250, BusyHourShare: 700 / 3000.0},
	}
	if len(d.Proposed) != 3 {
		t.Fatalf("proposed = %+v", d.Proposed)
	}
	for _, p := range d.Proposed {
		w := want[p.Scenario.Name]
		if p.Scenario.MonthlyRequests != w.MonthlyRequests || !near(p.Scenario.BusyHourShare, w.BusyHourShare) || p.Scenario.Kind() != BusyDayShare || p.Basis == "" {
			t.Errorf("%s = %+v, want %+v", p.Scenario.Name, p, w)
		}
	}
	if !strings.Contains(d.Proposed[2].Basis, "2026-03-02") {
		t.Errorf("peak basis does not cite its day: %q", d.Proposed[2].Basis)
	}
}

func TestDemandPartialDay(t *testing.T) {
	m := NewDemandMeter()
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	for i := 0; i < 60; i++ {
		_ = m.Add(TrafficBucket{Start: t0.Add(time.Duration(i) * time.Minute), LengthS: 60, Requests: 30})
	}
	d := m.Result(nil, "")
	if d.Requests != 1800 || len(d.Proposed) != 0 || d.PeakRate != 0.5 || d.BusiestHourRequests != 1800 {
		t.Errorf("partial day = %+v", d)
	}
	if err := m.Add(TrafficBucket{Start: t0, LengthS: 7200}); err == nil {
		t.Error("a two-hour bucket accepted")
	}
}
