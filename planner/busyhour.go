package planner

import (
	"fmt"
	"math"
)

// How a scenario's busiest hour is given (docs/method.md, "Demand
// scenarios"). A scenario stored before the kind existed has no kind and
// means BusyMonthShare, so an older report keeps its numbers.
const (
	// BusyDayShare: the share of a day's requests that arrive in its
	// busiest hour (0.1 = 10 %), in BusyHourShare.
	BusyDayShare = "day_share"
	// BusyPeakRate: the busiest hour's request rate, req/s, in PeakRate.
	BusyPeakRate = "peak_rate"
	// BusyMonthShare: the share of the month's requests that arrive in
	// its busiest hour, in BusyHourShare (reports saved before the kind).
	BusyMonthShare = "month_share"
)

// BusyHourKinds are the kinds a form offers, the usual first.
var BusyHourKinds = []string{BusyDayShare, BusyPeakRate, BusyMonthShare}

// BusyHourKindLabel is what a kind means, in the form's words.
func BusyHourKindLabel(kind string) string {
	switch kind {
	case BusyDayShare:
		return "share of a day's requests"
	case BusyPeakRate:
		return "peak request rate (req/s)"
	default:
		return "share of the month's requests"
	}
}

// secondsPerMonth is the average month (DaysPerMonth days) in seconds.
func secondsPerMonth() float64 { return daysPerMonth * 86400 }

// Kind is how the busiest hour is given; "" reads as BusyMonthShare.
func (s Scenario) Kind() string {
	switch s.BusyHourKind {
	case BusyDayShare, BusyPeakRate:
		return s.BusyHourKind
	}
	return BusyMonthShare
}

// BusyRate is the busiest hour's request rate, req/s, whichever way it
// was given: the month's requests x share / 3600; a day's requests (the
// month / DaysPerMonth) x share / 3600; or the typed rate.
func (s Scenario) BusyRate() float64 {
	switch s.Kind() {
	case BusyPeakRate:
		return s.PeakRate
	case BusyDayShare:
		return float64(s.MonthlyRequests) / daysPerMonth * s.BusyHourShare / 3600
	}
	return BusyHourRate(s.MonthlyRequests, s.BusyHourShare)
}

// MonthShare is the share of the month's requests that arrive in the
// busiest hour: busy rate x 3600 / monthly requests; 0 without demand.
// It carries the scenario's peak-to-average ratio to other demand levels
// (the crossover, the chart).
func (s Scenario) MonthShare() float64 {
	if s.Kind() == BusyMonthShare {
		return s.BusyHourShare
	}
	if s.MonthlyRequests <= 0 {
		return 0
	}
	return s.BusyRate() * 3600 / float64(s.MonthlyRequests)
}

// DayShare is the share of an average day's requests that arrive in the
// busiest hour (the month share x DaysPerMonth); 0 without demand.
func (s Scenario) DayShare() float64 {
	if s.Kind() == BusyDayShare {
		return s.BusyHourShare
	}
	return s.MonthShare() * daysPerMonth
}

// PeakToAverage is the busiest hour's rate over the month's average rate
// (monthly requests / the seconds of an average month); nil without
// demand. 1 is flat traffic; 24 puts a whole day's requests in one hour.
func (s Scenario) PeakToAverage() *float64 {
	if s.MonthlyRequests <= 0 {
		return nil
	}
	return F(s.BusyRate() / (float64(s.MonthlyRequests) / secondsPerMonth()))
}

// BusyHourWarning says why a scenario's busiest hour is implausible, ""
// when it is not: more requests in the busiest hour than in an average
// day (a peak-to-average ratio above 24), or a busiest hour quieter than
// the month's average (below 1).
func (s Scenario) BusyHourWarning() string {
	ratio := s.PeakToAverage()
	if ratio == nil {
		return ""
	}
	day := float64(s.MonthlyRequests) / daysPerMonth
	hour := s.BusyRate() * 3600
	r := *ratio
	switch {
	case r > 24+1e-9:
		w := fmt.Sprintf("the busiest hour holds %s requests, more than an average day's %s (%s times the month's average rate)",
			groupDigits(int64(math.Round(hour))), groupDigits(int64(math.Round(day))), fmtNum(r))
		if s.Kind() == BusyMonthShare {
			w += ": this share is of the month's requests; a share of a day's requests is what most traffic graphs show"
		}
		return w
	case r < 1-1e-9:
		return fmt.Sprintf("the busiest hour (%s req/s) is quieter than the month's average rate (%s req/s): a busiest hour is at least the average",
			fmtNum(s.BusyRate()), fmtNum(float64(s.MonthlyRequests)/secondsPerMonth()))
	}
	return ""
}

// BusyHourTyped states the busiest hour as it was typed: "11 % of a
// day's requests", "0.5 req/s at peak".
func (s Scenario) BusyHourTyped() string {
	switch s.Kind() {
	case BusyPeakRate:
		return fmtNum(s.PeakRate) + " req/s at peak"
	case BusyDayShare:
		return DisplayShare(s.BusyHourShare) + " of a day's requests"
	}
	return DisplayShare(s.BusyHourShare) + " of the month's requests"
}

// DisplayRatio writes a peak-to-average ratio to 3 significant figures
// (DisplayNumber): "2.40×", "58.4×"; "–" when unknown.
func DisplayRatio(r *float64) string {
	if r == nil || math.IsNaN(*r) || math.IsInf(*r, 0) {
		return "–"
	}
	return DisplayNumber(*r, 0) + "×"
}

// BusyHourText states the busiest hour as typed and what it implies:
// "11 % of a day's requests: 0.1466 req/s, 2.64 times the average rate".
func (s Scenario) BusyHourText() string {
	typed := s.BusyHourTyped()
	ratio := s.PeakToAverage()
	if ratio == nil {
		return typed
	}
	return fmt.Sprintf("%s: %s req/s, %s times the average rate", typed, fmtNum(s.BusyRate()), fmtNum(*ratio))
}
