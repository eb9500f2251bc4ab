package planner

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// SoakHour is one line of an hour-by-hour soak table: what was sent in that
// hour, what was turned away on purpose (429 at the admission limit, in
// overload or during a drain), what failed, and how the accepted requests
// fared. Latencies are in seconds; InSLO is a fraction of the accepted
// requests. A nil figure was not in the table.
type SoakHour struct {
	Hour        int      `json:"hour"`
	Requests    int64    `json:"requests"`
	Rejected429 int64    `json:"rejected_429"`
	Failed      int64    `json:"failed"`
	InSLO       *float64 `json:"in_slo"`
	TTFTP99     *float64 `json:"ttft_p99_s"`
	TPOTP99     *float64 `json:"tpot_p99_s"`
	TokensPerS  *float64 `json:"tokens_per_s"`
	Watts       *float64 `json:"watts"`
	TempMaxC    *float64 `json:"temp_max_c"`
}

// Accepted is the hour's requests that were not turned away with a 429.
func (h SoakHour) Accepted() int64 { return h.Requests - h.Rejected429 }

// Successes is the hour's accepted requests that did not fail.
func (h SoakHour) Successes() int64 { return h.Requests - h.Rejected429 - h.Failed }

// Drain is one hand-back of the GPU: new arrivals are refused while the
// requests already running finish. EmptyAfterS is the seconds from the
// start of the drain until the GPU held no request.
type Drain struct {
	N           int      `json:"n"`
	Running     int64    `json:"running"`
	Finished    int64    `json:"finished"`
	Lost        int64    `json:"lost"`
	Rejected    int64    `json:"rejected"`
	Arrivals    *int64   `json:"arrivals"` // new requests that arrived during the drain, nil when unknown
	EmptyAfterS *float64 `json:"empty_after_s"`
}

// Soak is the imported evidence of a long run: the hourly table and the
// drains.
type Soak struct {
	Hours  []SoakHour `json:"hours"`
	Drains []Drain    `json:"drains"`
	// MeanPowerW and OutputTokens are the run summary's own figures when
	// the file states them: the run's mean GPU board power and the output
	// tokens it served. nil when it does not.
	MeanPowerW   *float64 `json:"mean_power_w,omitempty"`
	OutputTokens *float64 `json:"output_tokens,omitempty"`
	Source       string   `json:"source"`
	SHA256       string   `json:"sha256"`
}

// SoakDriftFactor is how much worse than the first hour a later hour's p99
// may be at a similar load before it is flagged (0.25 = 25 % worse).
const SoakDriftFactor = 0.25

// SoakSimilarLoad is how close a later hour's accepted requests must be to
// the first hour's to count as a similar load (0.15 = within 15 %).
const SoakSimilarLoad = 0.15

// DriftFinding compares one later hour with the first at a similar load.
type DriftFinding struct {
	Hour   int     `json:"hour"`
	Metric string  `json:"metric"` // "TTFT p99" or "TPOT p99"
	First  float64 `json:"first_s"`
	Later  float64 `json:"later_s"`
	// Worse is later / first - 1 (0.3 = 30 % worse).
	Worse   float64 `json:"worse"`
	Flagged bool    `json:"flagged"`
}

// DrainResult is one drain with whether it lost requests in flight.
type DrainResult struct {
	Drain
	// NoLoss is true when every request running at the drain finished.
	NoLoss bool   `json:"no_loss"`
	Detail string `json:"detail"`
}

// SoakResult is the soak judged: totals, availability, in-objective share,
// drift and drains.
type SoakResult struct {
	Present     bool  `json:"present"`
	Hours       int   `json:"hours"`
	Requests    int64 `json:"requests"`
	Successes   int64 `json:"successes"`
	Failures    int64 `json:"failures"`
	Rejected429 int64 `json:"rejected_429"`
	// Availability is successes / (successes + failures): deliberate 429s
	// are counted apart, neither success nor failure.
	Availability *float64 `json:"availability"`
	// InSLO is the share of accepted requests within the objective, the
	// hours' shares weighted by their accepted requests; nil when an hour
	// lacks its share.
	InSLO *float64 `json:"in_slo"`
	// Drift compares each later hour at a similar load with the first.
	Drift        []DriftFinding `json:"drift"`
	DriftFlagged bool           `json:"drift_flagged"`
	DriftNote    string         `json:"drift_note"`
	Drains       []DrainResult  `json:"drains"`
	// NoInFlightLoss is true when there were drains and none lost a request.
	NoInFlightLoss bool `json:"no_in_flight_loss"`

	// The run's totals (docs/method.md, "Soak"), each nil when a figure it
	// needs is missing. MeanPowerW is the run summary's mean power, else
	// the mean of the hours' GPU watts; EnergyMJ and EnergyKWh that over
	// the hours (W x hours x 3,600 s); OutputTokens the summary's, else
	// the hours' tokens/s x 3,600 summed; TokensPerJoule the output
	// tokens over the energy. TokensPerJouleAtCapacity is the ceiling
	// row's output tokens per joule, set by Compute. The bases say where
	// each came from.
	MeanPowerW               *float64 `json:"mean_power_w"`
	MeanPowerBasis           string   `json:"mean_power_basis,omitempty"`
	EnergyMJ                 *float64 `json:"energy_mj"`
	EnergyKWh                *float64 `json:"energy_kwh"`
	OutputTokens             *float64 `json:"output_tokens"`
	OutputTokensBasis        string   `json:"output_tokens_basis,omitempty"`
	TokensPerJoule           *float64 `json:"output_tokens_per_joule"`
	TokensPerJouleAtCapacity *float64 `json:"output_tokens_per_joule_at_capacity"`

	Problems []string `json:"problems"`
	Source   string   `json:"source"`
}

// JudgeSoak totals the hourly table, computes availability and the share of
// accepted requests within the objective, checks for drift and checks the
// drains. s may be nil (no soak imported).
func JudgeSoak(s *Soak) SoakResult {
	r := SoakResult{Drift: []DriftFinding{}, Drains: []DrainResult{}, Problems: []string{}}
	if s == nil || (len(s.Hours) == 0 && len(s.Drains) == 0) {
		return r
	}
	r.Present, r.Source, r.Hours = true, s.Source, len(s.Hours)
	var inSLOw float64
	inSLOAll := len(s.Hours) > 0
	for _, h := range s.Hours {
		if h.Requests < 0 || h.Rejected429 < 0 || h.Failed < 0 || h.Successes() < 0 {
			r.Problems = append(r.Problems, fmt.Sprintf("hour %d: 429s and failures (%d + %d) exceed its %d requests", h.Hour, h.Rejected429, h.Failed, h.Requests))
			continue
		}
		r.Requests += h.Requests
		r.Rejected429 += h.Rejected429
		r.Failures += h.Failed
		r.Successes += h.Successes()
		if h.InSLO == nil {
			inSLOAll = false
		} else {
			inSLOw += *h.InSLO * float64(h.Accepted())
		}
	}
	if d := r.Successes + r.Failures; d > 0 {
		r.Availability = F(float64(r.Successes) / float64(d))
		if inSLOAll {
			r.InSLO = F(inSLOw / float64(d))
		}
	}
	r.Drift, r.DriftFlagged, r.DriftNote = soakDrift(s.Hours)
	r.runTotals(s)

	r.NoInFlightLoss = len(s.Drains) > 0
	for _, d := range s.Drains {
		dr := DrainResult{Drain: d, NoLoss: d.Lost == 0 && d.Finished >= d.Running}
		switch {
		case d.Lost > 0:
			dr.Detail = fmt.Sprintf("%d of %d running requests lost", d.Lost, d.Running)
		case d.Finished < d.Running:
			dr.Detail = fmt.Sprintf("only %d of %d running requests finished", d.Finished, d.Running)
		default:
			dr.Detail = fmt.Sprintf("all %d running requests finished", d.Running)
		}
		if d.Arrivals != nil && d.Rejected < *d.Arrivals {
			dr.Detail += fmt.Sprintf("; %d of %d new arrivals were admitted during the drain", *d.Arrivals-d.Rejected, *d.Arrivals)
		}
		if d.EmptyAfterS != nil {
			dr.Detail += fmt.Sprintf("; empty after %g s", *d.EmptyAfterS)
		}
		r.NoInFlightLoss = r.NoInFlightLoss && dr.NoLoss
		r.Drains = append(r.Drains, dr)
	}
	return r
}

// runTotals derives the run's mean power, energy, output tokens and
// output tokens per joule from the run summary's figures, else from the
// hours (every hour must have the figure). The run lasts as many hours as
// the table has.
func (r *SoakResult) runTotals(s *Soak) {
	n := len(s.Hours)
	if n == 0 {
		return
	}
	var watts, toks float64
	allW, allT := true, true
	for _, h := range s.Hours {
		if h.Watts == nil {
			allW = false
		} else {
			watts += *h.Watts
		}
		if h.TokensPerS == nil {
			allT = false
		} else {
			toks += *h.TokensPerS * 3600
		}
	}
	switch {
	case s.MeanPowerW != nil:
		r.MeanPowerW, r.MeanPowerBasis = F(*s.MeanPowerW), "the run summary's mean power"
	case allW:
		r.MeanPowerW, r.MeanPowerBasis = F(watts/float64(n)), fmt.Sprintf("the mean of the %d hours' GPU watts", n)
	}
	switch {
	case s.OutputTokens != nil:
		r.OutputTokens, r.OutputTokensBasis = F(*s.OutputTokens), "the run summary's output tokens"
	case allT:
		r.OutputTokens, r.OutputTokensBasis = F(toks), fmt.Sprintf("the %d hours' tokens/s x 3,600 s", n)
	}
	if r.MeanPowerW == nil {
		return
	}
	j := *r.MeanPowerW * float64(n) * 3600
	r.EnergyMJ, r.EnergyKWh = F(j/1e6), F(j/3.6e6)
	if r.OutputTokens != nil && j > 0 {
		r.TokensPerJoule = F(*r.OutputTokens / j)
	}
}

// soakDrift compares every later hour whose accepted requests are within
// SoakSimilarLoad of the first hour's with the first hour, for TTFT and
// TPOT p99, and flags a p99 more than SoakDriftFactor worse.
func soakDrift(hours []SoakHour) ([]DriftFinding, bool, string) {
	out := []DriftFinding{}
	if len(hours) < 2 {
		return out, false, "drift needs at least two hours"
	}
	first := hours[0]
	base := float64(first.Accepted())
	flagged := false
	compared := 0
	for _, h := range hours[1:] {
		if base <= 0 || math.Abs(float64(h.Accepted())/base-1) > SoakSimilarLoad {
			continue
		}
		compared++
		for _, m := range []struct {
			name        string
			first, last *float64
		}{{"TTFT p99", first.TTFTP99, h.TTFTP99}, {"TPOT p99", first.TPOTP99, h.TPOTP99}} {
			if m.first == nil || m.last == nil || *m.first <= 0 {
				continue
			}
			f := DriftFinding{Hour: h.Hour, Metric: m.name, First: *m.first, Later: *m.last, Worse: *m.last / *m.first - 1}
			f.Flagged = f.Worse > SoakDriftFactor
			flagged = flagged || f.Flagged
			out = append(out, f)
		}
	}
	switch {
	case compared == 0:
		return out, false, fmt.Sprintf("no later hour ran within %.0f %% of the first hour's load, so drift could not be checked", SoakSimilarLoad*100)
	case flagged:
		return out, true, driftNote(out)
	}
	return out, false, fmt.Sprintf("no drift: %d later %s at a similar load stayed within %.0f %% of the first hour's p99", compared, plural(compared, "hour", "hours"), SoakDriftFactor*100)
}

// driftNote names each flagged finding, worst first: the hour, the figure,
// both values and the change, "hour 6's TTFT p99 is 340 ms against the
// first hour's 271 ms, 25.5 % worse, at a similar load (more than 25 %
// worse is drift)".
func driftNote(fs []DriftFinding) string {
	var flagged []DriftFinding
	for _, f := range fs {
		if f.Flagged {
			flagged = append(flagged, f)
		}
	}
	sort.SliceStable(flagged, func(i, j int) bool { return flagged[i].Worse > flagged[j].Worse })
	parts := make([]string, len(flagged))
	for i, f := range flagged {
		parts[i] = fmt.Sprintf("hour %d's %s is %s against the first hour's %s, %s worse",
			f.Hour, f.Metric, driftMS(f.Later), driftMS(f.First), DisplayPercent(f.Worse, 0))
	}
	return strings.Join(parts, "; ") + fmt.Sprintf(", at a similar load (more than %.0f %% worse than the first hour is drift)", SoakDriftFactor*100)
}

// driftMS writes a p99 in seconds as milliseconds by the display rule.
func driftMS(s float64) string { return DisplayNumber(s*1000, 0) + " ms" }
