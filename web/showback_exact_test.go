package web

import (
	"math"
	"testing"

	"capplan/planner"
)

// The demo's showback with the exact time-share: agents 63.58 % and
// search 36.42 % of the box's serving time (a meter in 50 ms steps gave
// 61.74 % / 38.26 %, in favour of search's short requests), while tokens
// charge search 71.38 %: the token meter overcharges the RAG tenant by
// 35.0 points of the bill, the direction measured on a real H100.
func TestDemoShowbackExactTimeShare(t *testing.T) {
	app := newTestApp(t)
	r := demoReport(t, app)
	sb := apiResult(t, app, r.ID).ShowbackDetail
	if sb == nil {
		t.Fatal("the demo has no showback")
	}
	share := map[string]float64{}
	for _, m := range sb.Meters {
		for _, ts := range m.Tenants {
			share[m.Meter+" "+ts.Tenant] = ts.Share
		}
	}
	for key, want := range map[string]string{"time-share agents": "63.6 %", "time-share search": "36.4 %", "tokens search": "71.4 %"} {
		if got := planner.DisplayShare(share[key]); got != want {
			t.Errorf("%s: %s, want %s", key, got, want)
		}
	}
	if a := share["time-share agents"]; math.Abs(a-0.6358) > 0.00005 {
		t.Errorf("agents' time-share %.5f, want 0.6358", a)
	}
	for _, g := range sb.Gaps {
		if g.Tenant == "search" && (g.TokensVsTimePP <= 0 || math.Round(g.TokensVsTimePP*10)/10 != 35.0) {
			t.Errorf("search: tokens minus time-share %.2f points, want +35.0", g.TokensVsTimePP)
		}
	}
}
