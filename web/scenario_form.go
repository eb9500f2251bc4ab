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

// scenarioForm reads the scenarios form: per scenario its monthly requests
// and busy-hour share (a fraction, or a percentage with "%"). A scenario
// left wholly blank is left out; the planner checks the rest.
func readScenarioForm(f url.Values) ([]planner.Scenario, formErrors) {
	errs := formErrors{}
	var out []planner.Scenario
	for i, name := range scenarioNames {
		p := fmt.Sprintf("scenarios[%d]", i)
		reqS := strings.NewReplacer(",", "", "_", "", " ", "").Replace(f.Get(p + ".monthly_requests"))
		shareS := strings.TrimSpace(f.Get(p + ".busy_hour_share"))
		if reqS == "" && shareS == "" {
			continue
		}
		s := planner.Scenario{Name: name}
		if reqS == "" {
			errs[p+".monthly_requests"] = "required: the successful requests wanted a month"
		} else if n, err := strconv.ParseInt(reqS, 10, 64); err != nil {
			errs[p+".monthly_requests"] = "must be a whole number of requests, e.g. 80000; got " + strconv.Quote(f.Get(p+".monthly_requests"))
		} else {
			s.MonthlyRequests = n
		}
		if shareS == "" {
			errs[p+".busy_hour_share"] = "required: the share of the month's requests in its busiest hour, e.g. 0.01"
		} else {
			pctForm := strings.HasSuffix(shareS, "%")
			v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(shareS, "%")), 64)
			if err != nil {
				errs[p+".busy_hour_share"] = "must be a fraction such as 0.01, or a percentage such as 1 %"
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
				if _, seen := errs[k]; !seen {
					errs[k] = msg
				}
			}
		}
		out = append(out, s)
	}
	return out, errs
}

// scenarioValues fills the scenarios form from stored scenarios.
func scenarioValues(v url.Values, ss []planner.Scenario) {
	for _, s := range ss {
		for i, name := range scenarioNames {
			if s.Name == name {
				p := fmt.Sprintf("scenarios[%d]", i)
				v.Set(p+".monthly_requests", strconv.FormatInt(s.MonthlyRequests, 10))
				v.Set(p+".busy_hour_share", strconv.FormatFloat(s.BusyHourShare, 'f', -1, 64))
			}
		}
	}
}
