package web

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"capplan/planner"
)

// scenarioNames are the demand scenarios a report states, in order.
var scenarioNames = []string{"low", "expected", "peak"}

// readScenarioForm reads the scenarios form: per scenario its monthly
// requests and its busiest hour, given as busy_hour_kind (a share of a
// day's requests, a peak rate in req/s, or a share of the month's) with
// its value in busy_hour (a share as a fraction or a percentage with "%").
// A post without a kind (older clients) gives busy_hour_share as a share of
// the month, its old meaning. A scenario left wholly blank is left out; the
// planner checks the rest.
func readScenarioForm(f url.Values) ([]planner.Scenario, formErrors) {
	errs := formErrors{}
	var out []planner.Scenario
	for i, name := range scenarioNames {
		p := fmt.Sprintf("scenarios[%d]", i)
		reqS := strings.NewReplacer(",", "", "_", "", " ", "").Replace(f.Get(p + ".monthly_requests"))
		kind := strings.TrimSpace(f.Get(p + ".busy_hour_kind"))
		valueKey := p + ".busy_hour" // errors are shown at the one input
		valS := strings.TrimSpace(f.Get(valueKey))
		if kind == "" {
			kind, valS = planner.BusyMonthShare, strings.TrimSpace(f.Get(p+".busy_hour_share"))
		}
		burstS := strings.TrimSpace(f.Get(p + ".burst"))
		profileS := strings.TrimSpace(f.Get(p + ".day_profile"))
		if reqS == "" && valS == "" && burstS == "" && profileS == "" {
			continue
		}
		s := planner.Scenario{Name: name, BusyHourKind: kind}
		// The minute-peak burst: blank is derived (from imported traffic,
		// else Poisson arrivals).
		if burstS != "" {
			if v, err := strconv.ParseFloat(normalNumber(strings.TrimSuffix(burstS, "x")), 64); err != nil {
				errs[p+".burst"] = "must be a number, 1 or more, e.g. 1.5 (the busiest minutes half again as busy as the hour); blank derives it; got " + strconv.Quote(burstS)
			} else {
				s.Burst = v
			}
		}
		// The day profile: 24 hourly weights, or ranges ("9-17 at 4, rest
		// at 1"); blank takes imported traffic's day, else flat plus peak.
		if prof, err := planner.ParseDayProfile(profileS); err != nil {
			errs[p+".day_profile"] = err.Error()
		} else {
			s.DayProfile = prof
		}
		if kind == planner.BusyMonthShare {
			s.BusyHourKind = "" // as reports saved before the kinds store it
		}
		if reqS == "" {
			errs[p+".monthly_requests"] = "required: the successful requests wanted a month"
		} else if n, err := strconv.ParseInt(reqS, 10, 64); err != nil {
			errs[p+".monthly_requests"] = "must be a whole number of requests, e.g. 80000; got " + strconv.Quote(f.Get(p+".monthly_requests"))
		} else {
			s.MonthlyRequests = n
		}
		switch {
		case valS == "" && kind == planner.BusyPeakRate:
			errs[valueKey] = "required: the busiest hour's request rate in req/s, e.g. 0.5"
		case valS == "":
			errs[valueKey] = "required: the share of " + shareOf(kind) + " requests in the busiest hour, e.g. 0.1 or 10 %"
		case kind == planner.BusyPeakRate:
			if v, err := strconv.ParseFloat(normalNumber(strings.TrimSuffix(valS, "req/s")), 64); err != nil {
				errs[valueKey] = "must be a request rate in req/s, e.g. 0.5; got " + strconv.Quote(valS)
			} else {
				s.PeakRate = v
			}
		default:
			pctForm := strings.HasSuffix(valS, "%")
			v, err := strconv.ParseFloat(normalNumber(strings.TrimSuffix(valS, "%")), 64)
			if err != nil {
				errs[valueKey] = "must be a fraction such as 0.1, or a percentage such as 10 %"
			} else {
				if pctForm {
					v /= 100
				}
				s.BusyHourShare = v
			}
		}
		if err := s.Validate(); err != nil {
			fe := formErrors{}
			mergeFieldErrors(fe, err)
			for k, msg := range fe {
				k = p + strings.TrimPrefix(k, "scenario")
				if k == p+".busy_hour_share" || k == p+".peak_rate" || k == p+".busy_hour_kind" {
					k = valueKey
				}
				if _, seen := errs[k]; !seen {
					errs[k] = msg
				}
			}
		}
		out = append(out, s)
	}
	return out, errs
}

// shareOf is whose requests a share kind divides: "a day's", "the month's".
func shareOf(kind string) string {
	if kind == planner.BusyDayShare {
		return "a day's"
	}
	return "the month's"
}

// scenarioValues fills the scenarios form from stored scenarios: each
// busiest hour as it was typed, with its kind.
func scenarioValues(v url.Values, ss []planner.Scenario) {
	for _, s := range ss {
		for i, name := range scenarioNames {
			if s.Name == name {
				p := fmt.Sprintf("scenarios[%d]", i)
				v.Set(p+".monthly_requests", strconv.FormatInt(s.MonthlyRequests, 10))
				v.Set(p+".busy_hour_kind", s.Kind())
				if s.Burst != 0 {
					v.Set(p+".burst", planner.DisplayInput(s.Burst))
				}
				if s.DayProfile != nil {
					v.Set(p+".day_profile", planner.FormatDayProfile(s.DayProfile))
				}
				if s.Kind() == planner.BusyPeakRate {
					v.Set(p+".busy_hour", planner.DisplayInput(s.PeakRate))
				} else {
					v.Set(p+".busy_hour", planner.DisplayInput(s.BusyHourShare))
				}
			}
		}
	}
}
