package planner

import (
	"fmt"
	"strconv"
)

// Operations evidence beyond one benchmark: GPU telemetry per row, a soak
// with its drains, showback of a shared box and demand from production.
// Compute folds them into Result here.

// RowKey identifies a row across imports: its file's sha256 and its index
// in the file.
func RowKey(r Row) string { return r.Source.SHA256 + "#" + strconv.Itoa(r.Index) }

// RowTelemetryInput is the telemetry of one row as the report keeps it.
type RowTelemetryInput struct {
	RowKey string       `json:"row_key"`
	Figs   RowTelemetry `json:"telemetry"`
}

// TelemetryInput is an imported GPU log aligned to the rows it covered.
type TelemetryInput struct {
	Source string              `json:"source"`
	SHA256 string              `json:"sha256"`
	Rows   []RowTelemetryInput `json:"rows"`
	// IdlePowerW is the box's idle draw the log measured
	// (TelemetryAligner.IdlePower), nil when it holds none; IdleSamples
	// counts the idle samples it read. Logs imported before these were
	// kept have neither.
	IdlePowerW  *float64 `json:"idle_power_watts,omitempty"`
	IdleSamples int      `json:"idle_samples,omitempty"`
}

// TelemetrySummary is what the report says about the GPU log as a whole.
type TelemetrySummary struct {
	Present bool   `json:"present"`
	Source  string `json:"source"`
	// RowsCovered counts the matrix rows with at least one busy sample,
	// RowsPartial those of them the log covers only in part.
	RowsCovered int `json:"rows_covered"`
	RowsPartial int `json:"rows_partial"`
	// FlatUtilisation notes utilisation that stayed flat while power and
	// throughput moved ("" when it did not).
	FlatUtilisation string `json:"flat_utilisation"`
}

// Sources of a row's measured figures.
const (
	SourceTyped = "typed"
)

// applyTelemetry returns rows with the GPU log's figures of their window
// attached (Row.Telemetry), for the rows it covers with at least one busy
// sample. The typed figures stay as typed; Row.Measured resolves which one
// every section reads (docs/method.md, "Measured figures of a row").
func applyTelemetry(rows []Row, t *TelemetryInput) []Row {
	if t == nil || len(t.Rows) == 0 {
		return rows
	}
	by := map[string]RowTelemetry{}
	for _, rt := range t.Rows {
		by[rt.RowKey] = rt.Figs
	}
	out := make([]Row, len(rows))
	for i, r := range rows {
		if tel, ok := by[RowKey(r)]; ok && tel.Samples > 0 {
			r.Telemetry = &tel
		}
		out[i] = r
	}
	return out
}

// SourceDerived is the source of a headroom worked out from the row's
// peak memory and the contract's device memory.
const SourceDerived = "derived: 1 - peak memory / device memory"

// ResolveRows makes rows ready to be judged: the GPU log's figures of each
// row's window attached (Row.Telemetry), and the memory headroom worked
// out wherever it is missing and the peak memory and the device's memory
// allow: 1 - peak / device memory (docs/method.md, "Measured figures of a
// row"). The peak is the log's when it covers the row and names no device
// total (AIPerf's GPU telemetry), else the one typed or imported with the
// row. It is the one way a row's headroom is derived: the report's
// matrix, every candidate's rows and the command line's envelope judge
// rows through it. A peak above the device's memory derives nothing.
func ResolveRows(rows []Row, t *TelemetryInput, deviceGiB *float64) []Row {
	rows = applyTelemetry(rows, t)
	if deviceGiB == nil || !(*deviceGiB > 0) {
		return rows
	}
	out := make([]Row, len(rows))
	for i, r := range rows {
		if tel := r.Telemetry; tel != nil && tel.Headroom == nil {
			if h := headroomOf(tel.MemPeakGiB, *deviceGiB); h != nil {
				tc := *tel
				tc.Headroom, tc.MemTotalGiB, tc.HeadroomDerived = h, F(*deviceGiB), true
				r.Telemetry = &tc
			}
		}
		if o := r.Observed; o.Headroom == nil {
			if h := headroomOf(o.PeakMemoryGiB, *deviceGiB); h != nil {
				r.Observed.Headroom = h
				r.headroomDerived = true
			}
		}
		out[i] = r
	}
	return out
}

// headroomOf is 1 - peak / device, nil without a peak or when the peak
// is not within the device's memory.
func headroomOf(peakGiB *float64, deviceGiB float64) *float64 {
	if peakGiB == nil || *peakGiB < 0 || *peakGiB > deviceGiB {
		return nil
	}
	return F(1 - *peakGiB/deviceGiB)
}

// resolveCandidates is ResolveRows over each candidate's own rows.
func resolveCandidates(cs []Candidate, t *TelemetryInput, deviceGiB *float64) []Candidate {
	out := make([]Candidate, len(cs))
	for i, c := range cs {
		c.Rows = ResolveRows(c.Rows, t, deviceGiB)
		out[i] = c
	}
	return out
}

// fillMeasured copies the row's resolved power and memory headroom, with
// their sources, into the result, and the log's figures of its window.
func (rr *RowResult) fillMeasured() {
	m := rr.Row.Measured()
	rr.PowerWattsMean, rr.PowerWattsSource = m.PowerWatts, m.PowerSource
	rr.MemoryHeadroom, rr.MemoryHeadroomSource = m.Headroom, m.MemorySource
	rr.PeakMemoryGiB = m.PeakMemoryGiB
	rr.TelemetryPartial, rr.TelemetryCoverage = m.Partial, m.Coverage
	rr.Telemetry = rr.Row.Telemetry
	if m.Partial {
		rr.Warnings = append(rr.Warnings, Warning{Code: "telemetry-partial", Message: fmt.Sprintf("the GPU log covers only part of this row (%s): its power and memory are over that part", m.Coverage)})
	}
}

// measuredSources fills the telemetry summary: the rows a log covers (in
// whole or in part) and whether utilisation stayed flat.
func (r *Result) measuredSources(in Inputs) {
	if in.Telemetry != nil {
		r.Telemetry.Present = true
		r.Telemetry.Source = in.Telemetry.Source
	}
	var tels []RowTelemetry
	var rates []*float64
	for _, m := range r.Matrix {
		if m.Telemetry == nil {
			continue
		}
		r.Telemetry.RowsCovered++
		if m.Telemetry.Partial {
			r.Telemetry.RowsPartial++
		}
		tels = append(tels, *m.Telemetry)
		rates = append(rates, m.Row.OutputTokenRate)
	}
	r.Telemetry.FlatUtilisation = UtilisationFlatNote(tels, rates)
}

// evidence judges the soak, splits the showback and relates demand to the
// admission limit.
func (r *Result) evidence(in Inputs) {
	r.Soak = JudgeSoak(in.Soak)
	if r.Soak.Present && r.Envelope.CeilingRow != nil {
		r.Soak.TokensPerJouleAtCapacity = r.Matrix[*r.Envelope.CeilingRow].Row.OutputTokensPerJoule()
	}
	r.Showback = []MeterShares{}
	if in.Showback != nil {
		var monthly *Money
		if r.SelfHosted.FixedPerBox.Exact.IsPositive() {
			m := r.SelfHosted.FixedPerBox
			monthly = &m
		}
		sb := SplitShowback(*in.Showback, monthly)
		if monthly != nil {
			sb.Notes = append(sb.Notes, "the cost split is one box's fixed monthly cost")
		}
		r.Showback = sb.Meters
		r.ShowbackDetail = &sb
	}
	if in.Demand != nil {
		d := *in.Demand
		d.AdmissionLimit = r.Admission.MaxInFlight
		d.OverAdmission = d.PeakInFlight != nil && d.AdmissionLimit != nil && *d.PeakInFlight > int64(*d.AdmissionLimit)
		r.Demand = &d
	}
}

// SoakExitItem is the exit check's soak item, present only when the
// contract asks for a soak: the soak must be imported, cover the hours
// asked, lose no request in flight at a drain, show no drift and meet the
// objective's success rate on availability.
func SoakExitItem(c Contract, s SoakResult) (ExitItem, bool) {
	if c.SoakHours <= 0 {
		return ExitItem{}, false
	}
	it := ExitItem{ID: "soak", Label: "Soak and drains", Section: "evidence-soak"}
	var missing []string
	switch {
	case !s.Present:
		missing = append(missing, fmt.Sprintf("the contract asks for a %g-hour soak: none imported", c.SoakHours))
	default:
		if float64(s.Hours) < c.SoakHours {
			missing = append(missing, fmt.Sprintf("%d of %g hours soaked", s.Hours, c.SoakHours))
		}
		if s.Availability == nil {
			missing = append(missing, "no availability (no accepted requests)")
		} else if min := c.Objective.MinSuccess; min > 0 && *s.Availability < min {
			missing = append(missing, fmt.Sprintf("availability %.3f %% below the objective's %.3g %%", *s.Availability*100, min*100))
		}
		if s.DriftFlagged {
			missing = append(missing, s.DriftNote)
		}
		if len(s.Drains) == 0 {
			missing = append(missing, "no drains recorded")
		} else if !s.NoInFlightLoss {
			missing = append(missing, "a drain lost requests in flight")
		}
		missing = append(missing, s.Problems...)
	}
	it.Pass = len(missing) == 0
	if it.Pass {
		it.Detail = fmt.Sprintf("%d hours, availability %.3f %%, %d drains with no in-flight loss", s.Hours, *s.Availability*100, len(s.Drains))
	} else {
		it.Detail = joinSemi(missing)
	}
	return it, true
}

func joinSemi(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += "; "
		}
		out += x
	}
	return out
}
