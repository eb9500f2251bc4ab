package web

import (
	"net/url"
	"slices"
	"strings"
	"testing"

	"capplan/web/view"
)

// The scenarios form reads each scenario's burst and day profile, and
// names what was wrong with either.
func TestScenarioFormBurstAndDayProfile(t *testing.T) {
	form := func(burst, profile string) url.Values {
		return url.Values{"scenarios[1].monthly_requests": {"845000"}, "scenarios[1].busy_hour_kind": {"day_share"}, "scenarios[1].busy_hour": {"11 %"},
			"scenarios[1].burst": {burst}, "scenarios[1].day_profile": {profile}}
	}
	ss, errs := readScenarioForm(form("1.5", "9-17 at 4, rest at 1"))
	if len(errs) != 0 || len(ss) != 1 || ss[0].Burst != 1.5 || len(ss[0].DayProfile) != 24 || ss[0].DayProfile[9] != 4 || ss[0].DayProfile[0] != 1 {
		t.Fatalf("read %+v, errors %v", ss, errs)
	}
	v := url.Values{}
	view.ScenarioValues(v, ss)
	if v.Get("scenarios[1].burst") != "1.5" || v.Get("scenarios[1].day_profile") != "9-17 at 4, rest at 1" {
		t.Errorf("read back %q, %q", v.Get("scenarios[1].burst"), v.Get("scenarios[1].day_profile"))
	}
	// Blank: derived burst, no typed profile.
	if ss, errs := readScenarioForm(form("", "")); len(errs) != 0 || ss[0].Burst != 0 || ss[0].DayProfile != nil {
		t.Errorf("blank: %+v %v", ss, errs)
	}
	for _, tc := range []struct{ burst, profile, field, want string }{
		{"0.5", "", "scenarios[1].burst", "1 or more"},
		{"fast", "", "scenarios[1].burst", `must be a number, 1 or more, e.g. 1.5`},
		{"", "1,2,3", "scenarios[1].day_profile", "24 numbers are needed"},
		{"", "9-17 at two", "scenarios[1].day_profile", `the weight "two" is not a number`},
	} {
		_, errs := readScenarioForm(form(tc.burst, tc.profile))
		if msg := errs[tc.field]; !strings.Contains(msg, tc.want) {
			t.Errorf("%q / %q: errors %v, want %q at %s", tc.burst, tc.profile, errs, tc.want, tc.field)
		}
		if keys := mapKeys(errs); !slices.Equal(keys, []string{tc.field}) {
			t.Errorf("%q / %q: errors at %v", tc.burst, tc.profile, keys)
		}
	}
}

func mapKeys(m view.FormErrors) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
