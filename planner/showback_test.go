package planner

import (
	"math"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// Three overlapping requests on 50 ms boundaries, times from 0 (the
// exact time-share and one in 50 ms steps agree here):
//
//	A rag    [0.00, 0.10)  3,000 prompt + 100 output tokens
//	B agents [0.05, 0.20)    500 prompt + 400 output tokens
//	C agents [0.10, 0.15)    200 prompt + 300 output tokens
//
// step 0 [0.00,0.05): A alone        A 0.050
// step 1 [0.05,0.10): A, B           A 0.025 B 0.025
// step 2 [0.10,0.15): B, C           B 0.025 C 0.025
// step 3 [0.15,0.20): B alone        B 0.050
//
// rag = 0.075 s, agents = 0.100 + 0.025 = 0.125 s of 0.200 s: 37.5 % / 62.5 %.
// tokens: rag 3,100, agents 1,400 of 4,500: 68.89 % / 31.11 %.
// requests: 1/3 and 2/3. rag's gap tokens - time = 31.39 points.
func TestShowbackHandWorked(t *testing.T) {
	m := NewShowbackMeter(0.05)
	base := 1_700_000_000.0 // an instant on a step boundary
	for _, u := range []UsageRecord{
		{Tenant: "rag", Start: base, End: base + 0.10, PromptTokens: 3000, OutputTokens: 100},
		{Tenant: "agents", Start: base + 0.05, End: base + 0.20, PromptTokens: 500, OutputTokens: 400},
		{Tenant: "agents", Start: base + 0.10, End: base + 0.15, PromptTokens: 200, OutputTokens: 300},
	} {
		if err := m.Add(u); err != nil {
			t.Fatal(err)
		}
	}
	monthly := NewMoney(decimal.NewFromInt(2000))
	sb := m.Result(&monthly, "usage.jsonl")
	shares := map[string]map[string]float64{}
	for _, mt := range sb.Meters {
		shares[mt.Meter] = map[string]float64{}
		for _, ts := range mt.Tenants {
			shares[mt.Meter][ts.Tenant] = ts.Share
		}
	}
	want := map[string]map[string]float64{
		MeterTimeShare: {"rag": 0.375, "agents": 0.625},
		MeterTokens:    {"rag": 3100.0 / 4500, "agents": 1400.0 / 4500},
		MeterRequests:  {"rag": 1.0 / 3, "agents": 2.0 / 3},
	}
	for meter, w := range want {
		for tenant, v := range w {
			if !near(shares[meter][tenant], v) {
				t.Errorf("%s %s = %v, want %v", meter, tenant, shares[meter][tenant], v)
			}
		}
	}
	// Seconds: rag 0.075 s of serving time.
	if ts := sb.Meters[2].Tenants[1]; ts.Tenant != "rag" || !near(ts.Amount, 0.075) {
		t.Errorf("time-share amount = %+v", ts)
	}
	// rag's cost under time-share: 2,000 x 0.375 = 750.00.
	if c := sb.Meters[2].Tenants[1].Cost; c == nil || c.Rounded.String() != "750" {
		t.Errorf("rag time-share cost = %v", c)
	}
	var gap ShowbackGap
	for _, g := range sb.Gaps {
		if g.Tenant == "rag" {
			gap = g
		}
	}
	if !near(gap.TokensVsTimePP, (3100.0/4500-0.375)*100) || math.Round(gap.TokensVsTimePP*100)/100 != 31.39 {
		t.Errorf("rag gap = %v points", gap.TokensVsTimePP)
	}
}

// A long request with a short one inside it: the short one shares its
// 50 ms with the long one.
func TestShowbackLongRequestAcrossBlocks(t *testing.T) {
	m := NewShowbackMeter(0.05)
	_ = m.Add(UsageRecord{Tenant: "a", Start: 0, End: 3600})
	_ = m.Add(UsageRecord{Tenant: "b", Start: 1800, End: 1800.05})
	sb := m.Result(nil, "")
	ts := sb.Meters[2].Tenants
	// b shares 50 ms with a: a gets 3,600 - 0.025 s, b 0.025 s.
	if !near(ts[0].Amount, 3600-0.025) || !near(ts[1].Amount, 0.025) {
		t.Errorf("time-share = %+v", ts)
	}
}

// Three overlapping requests off any 50 ms grid, worked by hand (seconds
// from an instant 1,700,000,000.013 s after the epoch):
//
//	A a [0.00, 0.30)
//	B b [0.12, 0.18)
//	C c [0.15, 0.42)
//
//	[0.00,0.12) A alone     a 0.120
//	[0.12,0.15) A, B        a 0.015  b 0.015
//	[0.15,0.18) A, B, C     a 0.010  b 0.010  c 0.010
//	[0.18,0.30) A, C        a 0.060           c 0.060
//	[0.30,0.42) C alone                       c 0.120
//
// a = 0.205 s, b = 0.025 s, c = 0.190 s of 0.42 s: 48.81 %, 5.95 %,
// 45.24 %. Metered in 50 ms steps, B would take a full share of the steps
// [0.10,0.15) and [0.15,0.20) it only touches: 0.0417 s, 1.67 times its
// exact share.
func TestShowbackExactTimeShare(t *testing.T) {
	m := NewShowbackMeter(0.05)
	base := 1_700_000_000.013
	for _, u := range []UsageRecord{
		{Tenant: "a", Start: base, End: base + 0.30},
		{Tenant: "b", Start: base + 0.12, End: base + 0.18},
		{Tenant: "c", Start: base + 0.15, End: base + 0.42},
	} {
		if err := m.Add(u); err != nil {
			t.Fatal(err)
		}
	}
	sb := m.Result(nil, "usage.csv")
	want := map[string]float64{"a": 0.205, "b": 0.025, "c": 0.190}
	for _, ts := range sb.Meters[2].Tenants {
		if math.Abs(ts.Amount-want[ts.Tenant]) > 1e-6 {
			t.Errorf("%s: %.6f s, want %.3f s", ts.Tenant, ts.Amount, want[ts.Tenant])
		}
		if math.Abs(ts.Share-want[ts.Tenant]/0.42) > 1e-6 {
			t.Errorf("%s: share %.6f, want %.6f", ts.Tenant, ts.Share, want[ts.Tenant]/0.42)
		}
	}
	if math.Abs(sb.SpanS-0.42) > 1e-6 || sb.Start != base {
		t.Errorf("span %v s from %v, want 0.42 s from %v", sb.SpanS, sb.Start, base)
	}
}

func TestShowbackRefusals(t *testing.T) {
	m := NewShowbackMeter(0)
	if err := m.Add(UsageRecord{Start: 0, End: 1}); err == nil {
		t.Error("a request without tenant accepted")
	}
	if err := m.Add(UsageRecord{Tenant: "x", Start: 2, End: 1}); err == nil {
		t.Error("a request ending before it starts accepted")
	}
	// A long span costs nothing; too many requests are refused in words.
	if err := m.Add(UsageRecord{Tenant: "x", Start: 0, End: 1e9}); err != nil {
		t.Errorf("a long span refused: %v", err)
	}
	m.limit = 2
	_ = m.Add(UsageRecord{Tenant: "x", Start: 0, End: 1})
	if err := m.Add(UsageRecord{Tenant: "x", Start: 0, End: 1}); err == nil || !strings.Contains(err.Error(), "more than 2 requests") {
		t.Errorf("a third request past a limit of 2: %v", err)
	}
	if sb := NewShowbackMeter(0).Result(nil, ""); sb.Present || len(sb.Meters) != 0 {
		t.Errorf("empty showback = %+v", sb)
	}
}

func TestShowbackWidestGap(t *testing.T) {
	s := Showback{Gaps: []ShowbackGap{{Tenant: "a", TokensVsTimePP: 5}, {Tenant: "b", TokensVsTimePP: -12.5}, {Tenant: "c", TokensVsTimePP: 12}}}
	if g := s.WidestGap(); g == nil || g.Tenant != "b" {
		t.Errorf("widest gap = %+v, want b's -12.5 points", g)
	}
	if (Showback{}).WidestGap() != nil {
		t.Error("a showback without tenants has a widest gap")
	}
}
