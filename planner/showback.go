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

// DefaultShowbackStepS is the step an imported log's figures were once
// metered with (50 ms); the time-share meter now integrates each request's
// share of the box exactly and keeps it only as the log's recorded setting.
const DefaultShowbackStepS = 0.05

// maxShowbackRequests bounds the time-share meter's memory: it keeps each
// request's start and end (16 bytes each) until the log is metered.
const maxShowbackRequests = 4_000_000

// ShowbackMeter streams usage records into the three meters. Tokens and
// requests are summed as they come; for the time-share it keeps each
// request's start and end, and integrates exactly when asked: over every
// stretch of time between two starts or ends, each request in flight is
// given stretch / requests in flight (docs/method.md, "Showback").
type ShowbackMeter struct {
	step    float64
	tenants map[string]int
	names   []string
	tokens  []float64
	reqs    []float64
	events  []showbackEvent
	origin  float64 // the first record's start: events are kept from it
	first   float64
	last    float64
	n       int64
	limit   int64
	err     error
}

// micro rounds seconds to the microsecond: a usage log's times carry no
// finer, and Unix seconds in float64 carry about 0.2 µs of noise that
// would otherwise show in the shares.
func micro(s float64) float64 { return math.Round(s*1e6) / 1e6 }

// showbackEvent is one request starting (delta +1) or ending (-1) at t, in
// seconds from the first record's start.
type showbackEvent struct {
	t      float64
	tenant int32
	delta  int32
}

// NewShowbackMeter starts a meter; stepS (seconds; 0 means
// DefaultShowbackStepS) is recorded with the usage, not used to meter.
func NewShowbackMeter(stepS float64) *ShowbackMeter {
	if stepS <= 0 {
		stepS = DefaultShowbackStepS
	}
	return &ShowbackMeter{step: stepS, tenants: map[string]int{}, limit: maxShowbackRequests}
}

// maxTenants bounds the tenants of one log, so the counters stay small.
const maxTenants = 64

// Add counts one request. It refuses a record without a tenant, with its end
// before its start or negative tokens, and a log with more tenants or
// requests than the meter holds.
func (m *ShowbackMeter) Add(u UsageRecord) error {
	switch {
	case m.err != nil:
		return m.err
	case u.Tenant == "":
		return fmt.Errorf("a request has no tenant")
	case math.IsNaN(u.Start) || math.IsNaN(u.End) || math.IsInf(u.Start, 0) || math.IsInf(u.End, 0) || u.End < u.Start:
		return fmt.Errorf("tenant %s: a request ends (%g) before it starts (%g)", u.Tenant, u.End, u.Start)
	case u.PromptTokens < 0 || u.OutputTokens < 0:
		return fmt.Errorf("tenant %s: negative token count", u.Tenant)
	case m.n >= m.limit:
		m.err = fmt.Errorf("the usage log has more than %d requests: split it into shorter logs", m.limit)
		return m.err
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
	}
	if m.n == 0 {
		m.origin, m.first, m.last = u.Start, u.Start, u.End
	}
	m.first, m.last = min(m.first, u.Start), max(m.last, u.End)
	m.tokens[t] += float64(u.PromptTokens + u.OutputTokens)
	m.reqs[t]++
	m.n++
	if u.End > u.Start {
		m.events = append(m.events, showbackEvent{micro(u.Start - m.origin), int32(t), 1}, showbackEvent{micro(u.End - m.origin), int32(t), -1})
	}
	return nil
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
	u.SpanS = m.last - m.first
	u.Start = m.first
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
	sb.Notes = append(sb.Notes, "time-share gives each stretch of wall time to the requests in flight in equal parts, integrated exactly from each request's start to its end, queueing included")
	if monthly == nil {
		sb.Notes = append(sb.Notes, "the box's monthly cost is not known yet: shares only")
	}
	return sb
}

// timeShare integrates each tenant's share of the box exactly: the starts
// and ends in time order (an end before a start at the same instant, which
// changes nothing), and over each stretch between two of them every
// request in flight gets stretch / in flight.
func (m *ShowbackMeter) timeShare() []float64 {
	T := len(m.names)
	secs := make([]float64, T)
	ev := m.events
	sort.Slice(ev, func(a, b int) bool {
		if ev[a].t != ev[b].t {
			return ev[a].t < ev[b].t
		}
		return ev[a].delta < ev[b].delta
	})
	cur := make([]int64, T)
	var total int64
	for i, e := range ev {
		if i > 0 && total > 0 {
			if dt := e.t - ev[i-1].t; dt > 0 {
				share := dt / float64(total)
				for t := 0; t < T; t++ {
					secs[t] += float64(cur[t]) * share
				}
			}
		}
		cur[e.tenant] += int64(e.delta)
		total += int64(e.delta)
	}
	return secs
}

// WidestGap is the tenant whose share the choice of meter moves most
// (the largest tokens-against-time-share gap, either way); nil without
// tenants. The page's folded showback names it in its one line.
func (s Showback) WidestGap() *ShowbackGap {
	var w *ShowbackGap
	for i := range s.Gaps {
		if w == nil || math.Abs(s.Gaps[i].TokensVsTimePP) > math.Abs(w.TokensVsTimePP) {
			w = &s.Gaps[i]
		}
	}
	return w
}
