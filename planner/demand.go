package planner

import (
	"fmt"
	"sort"
	"time"
)

// TrafficBucket is one line of aggregate production traffic: the requests
// that arrived in [Start, Start+LengthS), and optionally the most requests
// in flight at once and the tokens. It carries counts only, no request
// content, so it is safe to share.
type TrafficBucket struct {
	Start        time.Time `json:"start"`
	LengthS      float64   `json:"length_s"` // 3600 for hourly, 60 for per-minute counts
	Requests     int64     `json:"requests"`
	PeakInFlight *int64    `json:"peak_in_flight"`
	PromptTokens *int64    `json:"prompt_tokens"`
	OutputTokens *int64    `json:"output_tokens"`
}

// daysPerMonth turns daily demand into monthly: DaysPerMonth (365 / 12),
// the same month as the cost model's.
var daysPerMonth = DaysPerMonth.InexactFloat64()

// dayAcc is one calendar day of traffic, by clock hour.
type dayAcc struct {
	day   string
	hours [24]int64
	total int64
	// covered is the seconds of the day the buckets covered.
	covered float64
}

// DemandMeter streams traffic buckets into per-day, per-hour totals; memory
// grows with the days covered, not with the number of buckets.
type DemandMeter struct {
	days         map[string]*dayAcc
	n            int
	total        int64
	first, last  time.Time
	peakInFlight *int64
	peakAt       time.Time
	prompt, out  int64
	tokensKnown  bool
	peakRate     float64
	peakRateAt   time.Time
	bucketS      float64
}

// NewDemandMeter starts an empty meter.
func NewDemandMeter() *DemandMeter {
	return &DemandMeter{days: map[string]*dayAcc{}, tokensKnown: true}
}

// Add counts one bucket. Buckets longer than an hour or with negative
// counts are refused; buckets must not straddle a clock hour.
func (m *DemandMeter) Add(b TrafficBucket) error {
	switch {
	case b.LengthS <= 0 || b.LengthS > 3600:
		return fmt.Errorf("%s: a bucket must be between 1 s and one hour long, not %g s", b.Start.Format(time.RFC3339), b.LengthS)
	case b.Requests < 0:
		return fmt.Errorf("%s: negative request count", b.Start.Format(time.RFC3339))
	}
	if m.n == 0 || b.Start.Before(m.first) {
		m.first = b.Start
	}
	end := b.Start.Add(time.Duration(b.LengthS * float64(time.Second)))
	if m.n == 0 || end.After(m.last) {
		m.last = end
	}
	if m.bucketS == 0 || b.LengthS < m.bucketS {
		m.bucketS = b.LengthS
	}
	m.n++
	m.total += b.Requests
	key := b.Start.Format(DateLayout)
	d := m.days[key]
	if d == nil {
		d = &dayAcc{day: key}
		m.days[key] = d
	}
	d.hours[b.Start.Hour()] += b.Requests
	d.total += b.Requests
	d.covered += b.LengthS
	if rate := float64(b.Requests) / b.LengthS; rate > m.peakRate {
		m.peakRate, m.peakRateAt = rate, b.Start
	}
	if b.PeakInFlight != nil && (m.peakInFlight == nil || *b.PeakInFlight > *m.peakInFlight) {
		v := *b.PeakInFlight
		m.peakInFlight, m.peakAt = &v, b.Start
	}
	if b.PromptTokens != nil && b.OutputTokens != nil {
		m.prompt += *b.PromptTokens
		m.out += *b.OutputTokens
	} else {
		m.tokensKnown = false
	}
	return nil
}

// DemandScenario is a proposed demand scenario with the data it came from.
type DemandScenario struct {
	Scenario Scenario `json:"scenario"`
	Basis    string   `json:"basis"`
}

// Demand is what aggregate production traffic says about demand.
type Demand struct {
	Present  bool    `json:"present"`
	Buckets  int     `json:"buckets"`
	BucketS  float64 `json:"bucket_s"`
	From     string  `json:"from"`
	To       string  `json:"to"`
	Days     int     `json:"days"`
	FullDays int     `json:"full_days"`
	Requests int64   `json:"requests"`
	// BusiestHour is the clock hour with the most requests, and
	// BusyHourShare the busiest full day's busiest hour over that day's
	// requests (a share of a day's requests, BusyDayShare).
	BusiestHour         string   `json:"busiest_hour"`
	BusiestHourRequests int64    `json:"busiest_hour_requests"`
	BusyHourShare       *float64 `json:"busy_hour_share"`
	// PeakRate is the highest rate of any bucket, req/s.
	PeakRate   float64 `json:"peak_rate"`
	PeakRateAt string  `json:"peak_rate_at"`
	// Burst is the peak bucket's rate over the busiest hour's mean rate,
	// when the buckets are shorter than an hour (minute peaks); nil
	// otherwise. BurstBasis shows the arithmetic.
	Burst      *float64 `json:"burst,omitempty"`
	BurstBasis string   `json:"burst_basis,omitempty"`
	// HourShares is the mean full day's share of its requests in each
	// clock hour (24 shares), nil without a full day: the hybrid plan's
	// monthly shape.
	HourShares []float64 `json:"hour_shares,omitempty"`
	// PeakInFlight is the most requests in flight at once, when recorded;
	// AdmissionLimit the report's limit in force, and Over whether the
	// peak passed it.
	PeakInFlight   *int64 `json:"peak_in_flight"`
	PeakInFlightAt string `json:"peak_in_flight_at,omitempty"`
	AdmissionLimit *int   `json:"admission_limit"`
	OverAdmission  bool   `json:"over_admission"`
	// Tokens per request, when the data carries token totals.
	PromptTokensPerRequest *float64         `json:"prompt_tokens_per_request"`
	OutputTokensPerRequest *float64         `json:"output_tokens_per_request"`
	Proposed               []DemandScenario `json:"proposed"`
	Notes                  []string         `json:"notes"`
	Source                 string           `json:"source"`
	SHA256                 string           `json:"sha256"`
}

// Result summarises the traffic and proposes low, expected and peak
// scenarios from full days: low from the quietest day, expected from the
// mean full day and peak from the busiest day, each times daysPerMonth, each
// with its own busiest hour's share. admission is the limit in force (nil
// when none).
func (m *DemandMeter) Result(admission *int, source string) Demand {
	d := Demand{Present: m.n > 0, Buckets: m.n, BucketS: m.bucketS, Requests: m.total, Source: source,
		AdmissionLimit: admission, Proposed: []DemandScenario{}, Notes: []string{}}
	if m.n == 0 {
		return d
	}
	d.From, d.To = m.first.Format(time.RFC3339), m.last.Format(time.RFC3339)
	d.PeakRate, d.PeakRateAt = m.peakRate, m.peakRateAt.Format(time.RFC3339)
	d.PeakInFlight = m.peakInFlight
	if m.peakInFlight != nil {
		d.PeakInFlightAt = m.peakAt.Format(time.RFC3339)
		if admission != nil {
			d.OverAdmission = *m.peakInFlight > int64(*admission)
		}
	} else {
		d.Notes = append(d.Notes, "the data has no peak in-flight column: it cannot be compared with the admission limit")
	}
	if m.tokensKnown && m.total > 0 {
		d.PromptTokensPerRequest = F(float64(m.prompt) / float64(m.total))
		d.OutputTokensPerRequest = F(float64(m.out) / float64(m.total))
	}
	days := make([]*dayAcc, 0, len(m.days))
	for _, v := range m.days {
		days = append(days, v)
	}
	sort.Slice(days, func(a, b int) bool { return days[a].day < days[b].day })
	d.Days = len(days)
	var full []*dayAcc
	for _, v := range days {
		for h, n := range v.hours {
			if n > d.BusiestHourRequests {
				d.BusiestHourRequests = n
				d.BusiestHour = fmt.Sprintf("%s %02d:00", v.day, h)
			}
		}
		if v.covered >= 86400-1e-6 {
			full = append(full, v)
		}
	}
	if m.bucketS < 3600 && d.BusiestHourRequests > 0 {
		hourRate := float64(d.BusiestHourRequests) / 3600
		if b := m.peakRate / hourRate; b > 1 {
			d.Burst = F(b)
			d.BurstBasis = fmt.Sprintf("the busiest %s s bucket's %s req/s over the busiest hour's %s req/s", fmtNum(m.bucketS), fmtNum(m.peakRate), fmtNum(hourRate))
		}
	}
	d.FullDays = len(full)
	if len(full) > 0 {
		var hours [24]float64
		var all float64
		for _, v := range full {
			for h, n := range v.hours {
				hours[h] += float64(n)
				all += float64(n)
			}
		}
		if all > 0 {
			d.HourShares = make([]float64, 24)
			for h := range hours {
				d.HourShares[h] = hours[h] / all
			}
		}
	}
	if len(full) == 0 {
		d.Notes = append(d.Notes, "no full day of data (24 hours of buckets): no scenarios proposed")
		return d
	}
	sort.SliceStable(full, func(a, b int) bool { return full[a].total < full[b].total })
	low, high := full[0], full[len(full)-1]
	var sum int64
	var busiestMean float64
	for _, v := range full {
		sum += v.total
		busiestMean += float64(maxHour(v))
	}
	mean := float64(sum) / float64(len(full))
	busiestMean /= float64(len(full))
	// Demand rounds up (docs/method.md, "Rounding").
	month := func(perDay float64) int64 { return RoundRequests(RequestsOf(perDay*daysPerMonth), Wanted) }
	// Shares of the day's requests (BusyDayShare), as traffic graphs show
	// them.
	share := func(hour, perDay float64) float64 {
		if perDay <= 0 {
			return 0
		}
		return hour / perDay
	}
	peakShare := share(float64(maxHour(high)), float64(high.total))
	d.BusyHourShare = F(peakShare)
	d.Proposed = append(d.Proposed,
		DemandScenario{Scenario: Scenario{Name: "low", BusyHourKind: BusyDayShare, MonthlyRequests: month(float64(low.total)), BusyHourShare: share(float64(maxHour(low)), float64(low.total))},
			Basis: fmt.Sprintf("quietest full day %s: %d requests × %.4g days; its busiest hour %d requests", low.day, low.total, daysPerMonth, maxHour(low))},
		DemandScenario{Scenario: Scenario{Name: "expected", BusyHourKind: BusyDayShare, MonthlyRequests: month(mean), BusyHourShare: share(busiestMean, mean)},
			Basis: fmt.Sprintf("mean of %d full %s: %.0f requests a day × %.4g days; mean busiest hour %.0f requests", len(full), plural(len(full), "day", "days"), mean, daysPerMonth, busiestMean)},
		DemandScenario{Scenario: Scenario{Name: "peak", BusyHourKind: BusyDayShare, MonthlyRequests: month(float64(high.total)), BusyHourShare: peakShare},
			Basis: fmt.Sprintf("busiest full day %s: %d requests × %.4g days; its busiest hour %d requests", high.day, high.total, daysPerMonth, maxHour(high))},
	)
	if len(full) < 7 {
		d.Notes = append(d.Notes, fmt.Sprintf("only %d full %s of data: a week or more shows the weekly pattern", len(full), plural(len(full), "day", "days")))
	}
	return d
}

func maxHour(d *dayAcc) int64 {
	var m int64
	for _, n := range d.hours {
		m = max(m, n)
	}
	return m
}
