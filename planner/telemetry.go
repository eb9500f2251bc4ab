package planner

import (
	"fmt"
	"math"
	"sort"
)

// GPUSample is one reading of one GPU at one instant, as nvidia-smi or the
// DCGM exporter writes it. At is in Unix seconds. A nil figure was not in
// the log (or was "[N/A]"); it is never a zero.
type GPUSample struct {
	At          float64  `json:"at"`
	GPU         string   `json:"gpu"` // index or UUID; "" for a one-GPU log
	PowerW      *float64 `json:"power_w"`
	MemUsedMiB  *float64 `json:"mem_used_mib"`
	MemTotalMiB *float64 `json:"mem_total_mib"`
	UtilPct     *float64 `json:"util_pct"`
	TempC       *float64 `json:"temp_c"`
}

// Window is the measured time of one row, in Unix seconds. A sample belongs
// to a window when Start <= At <= End: samples on either edge count, because
// a logger sampling once a second would otherwise miss a short row's first
// or last second.
type Window struct {
	Start float64 `json:"start"`
	End   float64 `json:"end"`
}

// Contains reports whether t falls in the window, edges included.
func (w Window) Contains(t float64) bool { return t >= w.Start && t <= w.End }

// RowTelemetry is what the GPU log says about one row's window. Power and
// memory of a box with several GPUs are summed (power) or taken from the
// fullest GPU (memory headroom).
type RowTelemetry struct {
	Window  Window `json:"window"`
	Samples int    `json:"samples"`
	GPUs    int    `json:"gpus"`
	// PowerMeanW is the mean board power over the window (summed over GPUs);
	// PowerPeakW the highest reading (summed per-GPU peaks when several).
	PowerMeanW *float64 `json:"power_watts_mean"`
	PowerPeakW *float64 `json:"power_watts_peak"`
	// MemPeakGiB is the highest memory in use on the fullest GPU, and
	// MemTotalGiB that GPU's total; Headroom = 1 - peak / total.
	MemPeakGiB  *float64 `json:"mem_peak_gib"`
	MemTotalGiB *float64 `json:"mem_total_gib"`
	Headroom    *float64 `json:"memory_headroom"`
	// HeadroomDerived is true when the log names no device total and the
	// headroom was worked out from the contract's device memory
	// (ResolveRows); MemTotalGiB is then that memory.
	HeadroomDerived bool     `json:"headroom_derived,omitempty"`
	UtilMeanPct     *float64 `json:"util_mean_pct"`
	TempMaxC        *float64 `json:"temp_max_c"`
	// OutputTokensPerJoule is the row's output tokens/s over PowerMeanW.
	OutputTokensPerJoule *float64 `json:"output_tokens_per_joule"`
	// Source names the log the figures came from.
	Source string `json:"source"`
	// Note says why a figure is missing (no samples in the window, ...).
	Note string `json:"note,omitempty"`

	// Coverage (docs/method.md, "Measured figures of a row"): Expected is
	// about how many samples one GPU logs over the window at the log's
	// sampling interval (0 when the interval is unknown); Busy the fewest
	// one GPU logged there while the GPU worked; Idle the samples in the
	// window that read an idle GPU, which are left out of every figure.
	// Partial is true when the busy samples fall short of
	// TelemetryFullCoverage of Expected; Coverage then says so, as
	// "68 of ~114 samples (20 idle)".
	Expected int    `json:"expected_samples,omitempty"`
	Busy     int    `json:"busy_samples,omitempty"`
	Idle     int    `json:"idle_samples,omitempty"`
	Partial  bool   `json:"partial,omitempty"`
	Coverage string `json:"coverage,omitempty"`
}

// TelemetryFullCoverage is the share of a row's expected samples a log
// must hold, with the GPU busy, for the row to count as wholly covered.
const TelemetryFullCoverage = 0.9

// TelemetryIdleUtilPct is the utilisation below which a sample reads an
// idle GPU: a row under load keeps utilisation far above it.
const TelemetryIdleUtilPct = 5.0

// telemetryGapsKept bounds the gaps kept to estimate the sampling interval.
const telemetryGapsKept = 4096

// gpuAcc sums one GPU's samples inside one window.
type gpuAcc struct {
	n                       int
	powerSum                float64
	powerN                  int
	powerPeak               float64
	memPeak, memTotal       float64
	memN                    int
	utilSum                 float64
	utilN                   int
	tempMax                 float64
	tempN                   int
	idle                    int
	hasPeakPower, hasMemTot bool
}

// TelemetryAligner assigns a stream of samples to row windows as they
// arrive, keeping only running sums: memory stays bounded by the number of
// windows and GPUs, whatever the length of the log.
type TelemetryAligner struct {
	windows []Window
	acc     []map[string]*gpuAcc
	total   int
	first   float64
	last    float64
	// lastAt is each GPU's previous sample time and gaps the first
	// telemetryGapsKept positive gaps between one GPU's samples, for the
	// sampling interval.
	lastAt map[string]float64
	gaps   []float64
	// idle sums each GPU's power over its idle samples, anywhere in the
	// log (IdlePower).
	idle map[string]*idleAcc
}

// idleAcc sums one GPU's idle samples.
type idleAcc struct {
	n, powerN int
	powerSum  float64
}

// NewTelemetryAligner starts an alignment to the given windows (one per row,
// in row order).
func NewTelemetryAligner(windows []Window) *TelemetryAligner {
	a := &TelemetryAligner{windows: windows, acc: make([]map[string]*gpuAcc, len(windows)), lastAt: map[string]float64{}, idle: map[string]*idleAcc{}}
	for i := range a.acc {
		a.acc[i] = map[string]*gpuAcc{}
	}
	return a
}

// Add files one sample into every window that contains it.
func (a *TelemetryAligner) Add(s GPUSample) {
	if a.total == 0 || s.At < a.first {
		a.first = s.At
	}
	if a.total == 0 || s.At > a.last {
		a.last = s.At
	}
	a.total++
	if prev, ok := a.lastAt[s.GPU]; ok && s.At > prev && len(a.gaps) < telemetryGapsKept {
		a.gaps = append(a.gaps, s.At-prev)
	}
	a.lastAt[s.GPU] = s.At
	idle := s.UtilPct != nil && *s.UtilPct < TelemetryIdleUtilPct
	if idle {
		g := a.idle[s.GPU]
		if g == nil {
			g = &idleAcc{}
			a.idle[s.GPU] = g
		}
		g.n++
		if s.PowerW != nil {
			g.powerSum += *s.PowerW
			g.powerN++
		}
	}
	for i, w := range a.windows {
		if !w.Contains(s.At) {
			continue
		}
		g := a.acc[i][s.GPU]
		if g == nil {
			g = &gpuAcc{}
			a.acc[i][s.GPU] = g
		}
		if idle {
			g.idle++
			continue
		}
		g.n++
		if s.PowerW != nil {
			g.powerSum += *s.PowerW
			g.powerN++
			if !g.hasPeakPower || *s.PowerW > g.powerPeak {
				g.powerPeak, g.hasPeakPower = *s.PowerW, true
			}
		}
		if s.MemUsedMiB != nil {
			g.memN++
			g.memPeak = math.Max(g.memPeak, *s.MemUsedMiB)
		}
		if s.MemTotalMiB != nil {
			g.memTotal, g.hasMemTot = math.Max(g.memTotal, *s.MemTotalMiB), true
		}
		if s.UtilPct != nil {
			g.utilSum += *s.UtilPct
			g.utilN++
		}
		if s.TempC != nil {
			if g.tempN == 0 || *s.TempC > g.tempMax {
				g.tempMax = *s.TempC
			}
			g.tempN++
		}
	}
}

// Span is the time covered by the samples added so far; ok is false when
// none were.
func (a *TelemetryAligner) Span() (first, last float64, ok bool) {
	return a.first, a.last, a.total > 0
}

// IdlePower is the box's idle draw from the log (docs/method.md, "Power
// by use"): each GPU's mean power over its idle samples (utilisation under
// TelemetryIdleUtilPct, anywhere in the log: before, between or after the
// rows), summed over the GPUs as a row's power is. nil unless every GPU
// the log names has idle samples with power; samples counts the idle
// samples read.
func (a *TelemetryAligner) IdlePower() (watts *float64, samples int) {
	sum, all := 0.0, len(a.lastAt) > 0
	for gpu := range a.lastAt {
		g := a.idle[gpu]
		if g != nil {
			samples += g.n
		}
		if g == nil || g.powerN == 0 {
			all = false
			continue
		}
		sum += g.powerSum / float64(g.powerN)
	}
	if !all {
		return nil, samples
	}
	return F(sum), samples
}

// Samples is the number of samples added so far.
func (a *TelemetryAligner) Samples() int { return a.total }

// Interval is the log's sampling interval: the median gap between one
// GPU's consecutive samples (over the first gaps seen); 0 when no GPU has
// two samples.
func (a *TelemetryAligner) Interval() float64 {
	if len(a.gaps) == 0 {
		return 0
	}
	g := append([]float64(nil), a.gaps...)
	sort.Float64s(g)
	return g[len(g)/2]
}

// Result is the per-window figures. outputTokenRates (output tokens/s per
// row, nil where unknown) give tokens per joule; source names the log.
func (a *TelemetryAligner) Result(outputTokenRates []*float64, source string) []RowTelemetry {
	out := make([]RowTelemetry, len(a.windows))
	interval := a.Interval()
	for i, w := range a.windows {
		rt := RowTelemetry{Window: w, Source: source}
		gpus := a.acc[i]
		keys := make([]string, 0, len(gpus))
		for k := range gpus {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		rt.coverage(gpus, keys, interval)
		for k, g := range gpus {
			if g.n == 0 {
				delete(gpus, k)
			}
		}
		keys = keys[:0]
		for k := range gpus {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		rt.GPUs = len(gpus)
		if len(gpus) == 0 {
			rt.Note = "no telemetry samples inside this row's window"
			if rt.Idle > 0 {
				rt.Note = fmt.Sprintf("only idle samples (%d) inside this row's window", rt.Idle)
			}
			out[i] = rt
			continue
		}
		var pMean, pPeak, utilSum float64
		var powerAll, utilN = true, 0
		var worst, untotalled *float64
		for _, k := range keys {
			g := gpus[k]
			rt.Samples += g.n
			if g.powerN == 0 {
				powerAll = false
			} else {
				pMean += g.powerSum / float64(g.powerN)
				pPeak += g.powerPeak
			}
			if g.utilN > 0 {
				utilSum += g.utilSum / float64(g.utilN)
				utilN++
			}
			if g.tempN > 0 && (rt.TempMaxC == nil || g.tempMax > *rt.TempMaxC) {
				rt.TempMaxC = F(g.tempMax)
			}
			switch {
			case g.memN > 0 && g.hasMemTot && g.memTotal > 0:
				h := 1 - g.memPeak/g.memTotal
				if worst == nil || h < *worst {
					worst = F(h)
					rt.MemPeakGiB = F(g.memPeak / 1024)
					rt.MemTotalGiB = F(g.memTotal / 1024)
				}
			case g.memN > 0 && (untotalled == nil || g.memPeak > *untotalled):
				untotalled = F(g.memPeak)
			}
		}
		if powerAll {
			rt.PowerMeanW, rt.PowerPeakW = F(pMean), F(pPeak)
		} else {
			rt.Note = "the log has no power reading for every GPU in this window"
		}
		if utilN > 0 {
			rt.UtilMeanPct = F(utilSum / float64(utilN))
		}
		rt.Headroom = worst
		if worst == nil && untotalled != nil {
			// A log naming no device total (AIPerf's): the peak alone;
			// ResolveRows derives the headroom from the device memory.
			rt.MemPeakGiB = F(*untotalled / 1024)
		}
		if i < len(outputTokenRates) && outputTokenRates[i] != nil && rt.PowerMeanW != nil && *rt.PowerMeanW > 0 {
			rt.OutputTokensPerJoule = F(*outputTokenRates[i] / *rt.PowerMeanW)
		}
		out[i] = rt
	}
	return out
}

// coverage fills Expected, Busy, Idle, Partial and Coverage for one window
// from its GPUs' counts (keys sorted) and the sampling interval.
func (rt *RowTelemetry) coverage(gpus map[string]*gpuAcc, keys []string, interval float64) {
	busy := -1
	for _, k := range keys {
		g := gpus[k]
		rt.Idle += g.idle
		if busy < 0 || g.n < busy {
			busy = g.n
		}
	}
	rt.Busy = max(busy, 0)
	if interval > 0 {
		rt.Expected = int(math.Round((rt.Window.End - rt.Window.Start) / interval))
	}
	if rt.Busy == 0 {
		return // nothing covers the row: no figures at all
	}
	switch {
	case rt.Expected == 0:
		rt.Partial = true
		rt.Coverage = fmt.Sprintf("%d %s, sampling interval unknown", rt.Busy, plural(rt.Busy, "sample", "samples"))
	case float64(rt.Busy) < TelemetryFullCoverage*float64(rt.Expected):
		rt.Partial = true
		rt.Coverage = fmt.Sprintf("%d of ~%d samples", rt.Busy, rt.Expected)
	}
	if rt.Partial && rt.Idle > 0 {
		rt.Coverage += fmt.Sprintf(" (%d idle)", rt.Idle)
	}
}

// UtilisationFlatNote says, when it is so, that GPU utilisation barely moved
// across the rows while power and throughput did: utilisation counts the
// time any kernel runs, which continuous batching keeps near 100 % at every
// load, so it is no measure of how hard the GPU works and no basis for
// headroom or cost. It returns "" when utilisation moved, or when fewer than
// two rows have utilisation, power and throughput.
func UtilisationFlatNote(rows []RowTelemetry, outputTokenRates []*float64) string {
	var uMin, uMax, pMin, pMax, tMin, tMax float64
	n := 0
	for i, r := range rows {
		if r.UtilMeanPct == nil || r.PowerMeanW == nil || i >= len(outputTokenRates) || outputTokenRates[i] == nil {
			continue
		}
		u, p, t := *r.UtilMeanPct, *r.PowerMeanW, *outputTokenRates[i]
		if n == 0 {
			uMin, uMax, pMin, pMax, tMin, tMax = u, u, p, p, t, t
		}
		uMin, uMax = math.Min(uMin, u), math.Max(uMax, u)
		pMin, pMax = math.Min(pMin, p), math.Max(pMax, p)
		tMin, tMax = math.Min(tMin, t), math.Max(tMax, t)
		n++
	}
	if n < 2 || pMin <= 0 || tMin <= 0 {
		return ""
	}
	// Flat: utilisation within 5 points, while power moved by 15 % or more
	// and throughput by half or more.
	if uMax-uMin > UtilFlatPoints || pMax/pMin < 1+PowerMovedFraction || tMax/tMin < 1+ThroughputMovedFraction {
		return ""
	}
	return fmt.Sprintf("GPU utilisation stayed between %s %% and %s %% while power moved %s W to %s W and output throughput %s× (%s to %s tokens/s): utilisation is not a load signal here, power and output tokens are.",
		DisplayNumber(uMin, 1), DisplayNumber(uMax, 1), DisplayNumber(pMin, 0), DisplayNumber(pMax, 0), DisplayNumber(tMax/tMin, 0), DisplayNumber(tMin, 0), DisplayNumber(tMax, 0))
}

// The thresholds of UtilisationFlatNote.
const (
	UtilFlatPoints          = 5.0  // utilisation range, percentage points
	PowerMovedFraction      = 0.15 // power max / min - 1
	ThroughputMovedFraction = 0.5  // throughput max / min - 1
)
