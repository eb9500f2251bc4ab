package view

import (
	"fmt"
	"net/url"
	"strconv"

	"capplan/planner"
)

// ScenarioNames are the demand scenarios a report states, in order.
var ScenarioNames = []string{"low", "expected", "peak"}

// ScenarioValues fills the scenarios form from stored scenarios: each
// busiest hour as it was typed, with its kind.
func ScenarioValues(v url.Values, ss []planner.Scenario) {
	for _, s := range ss {
		for i, name := range ScenarioNames {
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
