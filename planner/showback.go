package planner

import (
	"fmt"
	"math"
	"sort"

	"github.com/shopspring/decimal"
)

// UsageRecord is one request on a shared box, from a per-request usage log:
// the tenant it is billed to, when it ran (Unix seconds) and its tokens.
type UsageRecord struct {
	Tenant       string  `json:"tenant"`
	Start        float64 `json:"start"`
	End          float64 `json:"end"`
	PromptTokens int64   `json:"prompt_tokens"`
	OutputTokens int64   `json:"output_tokens"`
}

// The showback meters.
const (
	MeterTokens    = "tokens"     // prompt + output tokens
	MeterRequests  = "requests"   // one per request
	MeterTimeShare = "time-share" // each Δt of wall time split equally across the requests in flight
)

// DefaultShowbackStepS is the time-share meter's Δt: 50 ms.
const DefaultShowbackStepS = 0.05

// maxShowbackSteps bounds the time-share meter's memory: the log's span
// divided by Δt may not exceed it (a week at 50 ms is 12 million steps).
const maxShowbackSteps = 20_000_000

// stepChunk is how many Δt steps one block of in-flight counters covers;
// blocks exist only where the log has requests.
const stepChunk = 4096

// ShowbackMeter streams usage records into the three meters. Memory grows
// with the tenants and with the stretches of time the log covers, never with
// the number of requests: in-flight counts are kept as per-step differences
// in blocks created only where requests ran.
type ShowbackMeter struct {
	step    float64
	origin  float64
	started bool
	tenants map[string]int
	names   []string
	tokens  []float64
	reqs    []float64
	// diff[block][step*T + tenant] is the change of that tenant's in-flight
	// count at that step.
	diff    map[int64][]int32
	minStep int64
	maxStep int64
	n       int64
	err     error
}

// NewShowbackMeter starts a meter with time-share step stepS (seconds; 0
// means DefaultShowbackStepS).
func NewShowbackMeter(stepS float64) *ShowbackMeter {
	if stepS <= 0 {
		stepS = DefaultShowbackStepS
	}
	return &ShowbackMeter{step: stepS, tenants: map[string]int{}, diff: map[int64][]int32{}}
}

// maxTenants bounds the tenants of one log, so the counters stay small.
const maxTenants = 64

// Add counts one request. It refuses a record without a tenant, with its end
// before its start or negative tokens, and a log whose span or tenant count
// would make the meter unbounded.
func (m *ShowbackMeter) Add(u UsageRecord) error {
	switch {
	case m.err != nil:
		return m.err
	case u.Tenant == "":
		return fmt.Errorf("a request has no tenant")
	case math.IsNaN(u.Start) || math.IsNaN(u.End) || u.End < u.Start:
		return fmt.Errorf("tenant %s: a request ends (%g) before it starts (%g)", u.Tenant, u.End, u.Start)
	case u.PromptTokens < 0 || u.OutputTokens < 0:
		return fmt.Errorf("tenant %s: negative token count", u.Tenant)
	}
	t, ok := m.tenants[u.Tenant]
	if !ok {
		if len(m.names) >= maxTenants {
			m.err = fmt.Errorf("more than %d tenants in one usage log", maxTenants)
			return m.err
		}
		t = len(m.names)
		m.tenants[u.Tenant] = t
		m.names = append(m.names, u.Tenant)
		m.tokens = append(m.tokens, 0)
		m.reqs = append(m.reqs, 0)
		// Every block grows by one tenant column.
		for k, b := range m.diff {
			m.diff[k] = widen(b, t)
		}
	}
	if !m.started {
		m.origin, m.started = math.Floor(u.Start/m.step+1e-3)*m.step, true
	}
	m.tokens[t] += float64(u.PromptTokens + u.OutputTokens)
	m.reqs[t]++
	// The request occupies every step its interval [Start, End) overlaps; a
	// zero-length request occupies the step it falls in.
	// Times a hair from a step boundary are on it (Unix seconds in float64
	// carry a few microseconds of noise; a thousandth of a step is the tolerance).
	s0 := int64(math.Floor((u.Start-m.origin)/m.step + 1e-3))
	s1 := int64(math.Ceil((u.End-m.origin)/m.step-1e-3)) - 1
	if s1 < s0 {
		s1 = s0
	}
	lo, hi := min(m.minStep, s0), max(m.maxStep, s1)
	if m.n == 0 {
		lo, hi = s0, s1
	}
	if hi-lo+1 > maxShowbackSteps {
		m.err = fmt.Errorf("the usage log spans %.0f s, more than %d steps of %g s: choose a longer step", float64(hi-lo+1)*m.step, maxShowbackSteps, m.step)
		return m.err
	}
	m.minStep, m.maxStep = lo, hi
	m.n++
	m.bump(s0, t, 1)
	m.bump(s1+1, t, -1)
	return nil
}

// widen adds one tenant column to a block laid out with t columns.
func widen(b []int32, t int) []int32 {
	out := make([]int32, stepChunk*(t+1))
	for s := 0; s < stepChunk; s++ {
		copy(out[s*(t+1):s*(t+1)+t], b[s*t:s*t+t])
	}
	return out
}

func (m *ShowbackMeter) bump(step int64, t int, d int32) {
	k := floorDiv(step, stepChunk)
	b := m.diff[k]
	T := len(m.names)
	if b == nil {
		b = make([]int32, stepChunk*T)
		m.diff[k] = b
	}
	b[int(step-k*stepChunk)*T+t] += d
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// Requests is the number of requests counted so far.
func (m *ShowbackMeter) Requests() int64 { return m.n }

// TenantShare is one tenant's share under one meter: the fraction of the
// meter, and that fraction of the monthly cost.
type TenantShare struct {
	Tenant string  `json:"tenant"`
	Share  float64 `json:"share"`
	Cost   *Money  `json:"cost,omitempty"`
	// Amount is what the meter counted for the tenant: tokens, requests or
	// seconds of serving time.
	Amount float64 `json:"amount"`
}

// MeterShares is one meter's split of the bill.
type MeterShares struct {
	Meter   string        `json:"meter"`
	Unit    string        `json:"unit"`
	Tenants []TenantShare `json:"tenants"`
}

// ShowbackGap is, for one tenant, how many percentage points more of the
// bill the token or request meter charges than the time-share meter.
type ShowbackGap struct {
	Tenant string `json:"tenant"`
	// TokensVsTimePP is the tokens share minus the time-share, in points.
	TokensVsTimePP   float64 `json:"tokens_vs_time_pp"`
	RequestsVsTimePP float64 `json:"requests_vs_time_pp"`
}

// Showback splits a shared box's monthly cost among its tenants under each
// meter, with each tenant's gap between the meters.
type Showback struct {
	Present  bool          `json:"present"`
	Requests int64         `json:"requests"`
	StepS    float64       `json:"step_s"`
	SpanS    float64       `json:"span_s"`
	Start    float64       `json:"start,omitempty"` // Unix seconds of the log's first step; 0 unknown
	Monthly  *Money        `json:"monthly_cost"`
	Meters   []MeterShares `json:"meters"`
	Gaps     []ShowbackGap `json:"gaps"`
	Source   string        `json:"source"`
	Notes    []string      `json:"notes"`
}

// TenantUsage is what the three meters counted for one tenant.
type TenantUsage struct {
	Tenant   string  `json:"tenant"`
	Tokens   float64 `json:"tokens"`
	Requests float64 `json:"requests"`
	Seconds  float64 `json:"seconds"`
}

// ShowbackUsage is a usage log metered: per tenant, its tokens, requests
// and seconds of serving time. It is small whatever the log's size, and is
// what a report keeps of an imported log.
type ShowbackUsage struct {
	Tenants  []TenantUsage `json:"tenants"`
	Requests int64         `json:"requests"`
	StepS    float64       `json:"step_s"`
	SpanS    float64       `json:"span_s"`
	// Start is when the log's first step begins, Unix seconds (0 for a
	// log metered before it was kept).
	Start  float64 `json:"start,omitempty"`
	Source string  `json:"source"`
	SHA256 string  `json:"sha256"`
}

// Usage is what the meter counted, tenants by name.
func (m *ShowbackMeter) Usage(source string) ShowbackUsage {
	u := ShowbackUsage{Requests: m.n, StepS: m.step, Source: source, Tenants: []TenantUsage{}}
	if m.n == 0 {
		return u
	}
	secs := m.timeShare()
	u.SpanS = float64(m.maxStep-m.minStep+1) * m.step
	u.Start = m.origin + float64(m.minStep)*m.step
	for i, name := range m.names {
		u.Tenants = append(u.Tenants, TenantUsage{Tenant: name, Tokens: m.tokens[i], Requests: m.reqs[i], Seconds: secs[i]})
	}
	sort.Slice(u.Tenants, func(a, b int) bool { return u.Tenants[a].Tenant < u.Tenants[b].Tenant })
	return u
}

// Result splits monthly (nil when the box's monthly cost is unknown) under
// the three meters; see SplitShowback.
func (m *ShowbackMeter) Result(monthly *Money, source string) Showback {
	return SplitShowback(m.Usage(source), monthly)
}

// SplitShowback splits a shared box's monthly cost (nil when unknown) among
// the tenants under each meter: by tokens, by requests and by time-share.
func SplitShowback(u ShowbackUsage, monthly *Money) Showback {
	sb := Showback{Present: u.Requests > 0, Requests: u.Requests, StepS: u.StepS, SpanS: u.SpanS, Start: u.Start, Monthly: monthly, Source: u.Source,
		Meters: []MeterShares{}, Gaps: []ShowbackGap{}, Notes: []string{}}
	if u.Requests == 0 || len(u.Tenants) == 0 {
		return sb
	}
	shares := map[string][]float64{}
	for _, mt := range []struct {
		name, unit string
		v          func(TenantUsage) float64
	}{
		{MeterTokens, "tokens", func(t TenantUsage) float64 { return t.Tokens }},
		{MeterRequests, "requests", func(t TenantUsage) float64 { return t.Requests }},
		{MeterTimeShare, "seconds", func(t TenantUsage) float64 { return t.Seconds }},
	} {
		var sum float64
		for _, t := range u.Tenants {
			sum += mt.v(t)
		}
		ms := MeterShares{Meter: mt.name, Unit: mt.unit, Tenants: []TenantShare{}}
		sh := make([]float64, len(u.Tenants))
		for i, t := range u.Tenants {
			ts := TenantShare{Tenant: t.Tenant, Amount: mt.v(t)}
			if sum > 0 {
				ts.Share = mt.v(t) / sum
			}
			sh[i] = ts.Share
			if monthly != nil {
				c := NewMoney(monthly.Exact.Mul(decimal.NewFromFloat(ts.Share)))
				ts.Cost = &c
			}
			ms.Tenants = append(ms.Tenants, ts)
		}
		shares[mt.name] = sh
		sb.Meters = append(sb.Meters, ms)
	}
	for i, t := range u.Tenants {
		sb.Gaps = append(sb.Gaps, ShowbackGap{
			Tenant:           t.Tenant,
			TokensVsTimePP:   (shares[MeterTokens][i] - shares[MeterTimeShare][i]) * 100,
			RequestsVsTimePP: (shares[MeterRequests][i] - shares[MeterTimeShare][i]) * 100,
		})
	}
	sb.Notes = append(sb.Notes, fmt.Sprintf("time-share splits each %g s of wall time equally across the requests in flight, queueing included", u.StepS))
	if monthly == nil {
		sb.Notes = append(sb.Notes, "the box's monthly cost is not known yet: shares only")
	}
	return sb
}

// timeShare walks the steps in order, keeping each tenant's in-flight count,
// and gives each step's Δt to the requests in flight in equal parts.
func (m *ShowbackMeter) timeShare() []float64 {
	T := len(m.names)
	secs := make([]float64, T)
	keys := make([]int64, 0, len(m.diff))
	for k := range m.diff {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(a, b int) bool { return keys[a] < keys[b] })
	cur := make([]int64, T)
	var total int64
	for j, k := range keys {
		// Whole blocks with no start or end between two blocks keep the
		// counts in flight at the end of the previous one.
		if j > 0 && total > 0 {
			if gap := k - keys[j-1] - 1; gap > 0 {
				share := float64(gap*stepChunk) * m.step / float64(total)
				for t := 0; t < T; t++ {
					secs[t] += float64(cur[t]) * share
				}
			}
		}
		b := m.diff[k]
		for s := 0; s < stepChunk; s++ {
			for t := 0; t < T; t++ {
				d := int64(b[s*T+t])
				cur[t] += d
				total += d
			}
			if total <= 0 {
				continue
			}
			share := m.step / float64(total)
			for t := 0; t < T; t++ {
				secs[t] += float64(cur[t]) * share
			}
		}
	}
	return secs
}
