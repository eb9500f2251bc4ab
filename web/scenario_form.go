package web

import (
	"fmt"
	"net/url"
	"strings"

	"capplan/planner"
	"capplan/web/view"
)

// readScenarioForm reads the scenarios form: per scenario its monthly
// requests and its busiest hour, given as busy_hour_kind (a share of a
// day's requests, a peak rate in req/s, or a share of the month's) with
// its value in busy_hour (a share as a fraction or a percentage with "%").
// A post without a kind (older clients) gives busy_hour_share as a share of
// the month, its old meaning. A scenario left wholly blank is left out; the
// planner checks the rest.
func readScenarioForm(f url.Values) ([]planner.Scenario, view.FormErrors) {
	r := newFormReader(f)
	var out []planner.Scenario
	for i, name := range view.ScenarioNames {
		p := fmt.Sprintf("scenarios[%d]", i)
		reqKey, valueKey := p+".monthly_requests", p+".busy_hour" // errors are shown at the one input
		kind, valS := r.str(p+".busy_hour_kind"), r.str(valueKey)
		if kind == "" {
			kind, valS = planner.BusyMonthShare, r.str(p+".busy_hour_share")
		}
		burstS, profileS := r.str(p+".burst"), r.str(p+".day_profile")
		if r.str(reqKey) == "" && valS == "" && burstS == "" && profileS == "" {
			continue
		}
		s := planner.Scenario{Name: name, BusyHourKind: kind}
		// The minute-peak burst: blank is derived (from imported traffic,
		// else Poisson arrivals).
		if v := r.number(p+".burst", strings.TrimSuffix(burstS, "x"), "a number, 1 or more, e.g. 1.5 (the busiest minutes half again as busy as the hour); blank derives it"); v != nil {
			s.Burst = *v
		}
		// The day profile: 24 hourly weights, or ranges ("9-17 at 4, rest
		// at 1"); blank takes imported traffic's day, else flat plus peak.
		if prof, err := planner.ParseDayProfile(profileS); err != nil {
			r.refuse(p+".day_profile", err.Error())
		} else {
			s.DayProfile = prof
		}
		if kind == planner.BusyMonthShare {
			s.BusyHourKind = "" // as reports saved before the kinds store it
		}
		if r.str(reqKey) == "" {
			r.refuse(reqKey, "required: the successful requests wanted a month")
		} else if n := r.integerAs(reqKey, "a whole number of requests, e.g. 80000"); n != nil {
			s.MonthlyRequests = int64(*n)
		}
		switch {
		case valS == "" && kind == planner.BusyPeakRate:
			r.refuse(valueKey, "required: the busiest hour's request rate in req/s, e.g. 0.5")
		case valS == "":
			r.refuse(valueKey, "required: the share of "+shareOf(kind)+" requests in the busiest hour, e.g. 0.1 or 10 %")
		case kind == planner.BusyPeakRate:
			if v := r.number(valueKey, strings.TrimSuffix(valS, "req/s"), "a request rate in req/s, e.g. 0.5"); v != nil {
				s.PeakRate = *v
			}
		default:
			if v := r.number(valueKey, strings.TrimSuffix(valS, "%"), "a fraction such as 0.1, or a percentage such as 10 %"); v != nil {
				s.BusyHourShare = *v
				if strings.HasSuffix(valS, "%") {
					s.BusyHourShare /= 100
				}
			}
		}
		r.domain(s.Validate(), func(k string) string {
			k = p + strings.TrimPrefix(k, "scenario")
			if k == p+".busy_hour_share" || k == p+".peak_rate" || k == p+".busy_hour_kind" {
				k = valueKey
			}
			return k
		})
		out = append(out, s)
	}
	return out, r.errs
}

// shareOf is whose requests a share kind divides: "a day's", "the month's".
func shareOf(kind string) string {
	if kind == planner.BusyDayShare {
		return "a day's"
	}
	return "the month's"
}
