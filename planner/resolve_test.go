package planner

import (
	"strings"
	"testing"
)

// peakOnly is the demo's matrix with each row's peak memory typed and no
// headroom: the headroom must come from the peak and the device memory.
func peakOnly(rows []Row) []Row {
	out := make([]Row, len(rows))
	for i, r := range rows {
		r.Observed.Headroom = nil
		r.Observed.PeakMemoryGiB = F(60) // of 80 GiB: 25 % free
		out[i] = r
	}
	return out
}

// A candidate's rows with their peak memory typed are judged with the
// headroom derived, as the report's own rows are: without it every
// candidate row was "not judged: missing memory headroom" and no candidate
// had an envelope.
func TestCandidateRowsDeriveHeadroom(t *testing.T) {
	in := demoInputs()
	in.Rows = peakOnly(in.Rows)
	cand := peakOnly(matrix([]float64{1, 2, 4, 8, 10}, []float64{5, 6, 8, 12, 16.2}))
	for i := range cand {
		cand[i].Model = "llama-3.1-8b-awq"
		cand[i].Observed.OOMChecked = true
		cand[i].Index = i
		cand[i].Source.SHA256 = "cand"
	}
	in.Candidates = append(in.Candidates, Candidate{Name: "awq", Model: "llama-3.1-8b-awq", Rows: cand,
		Gate: &RegressionGate{Gate: "extraction-24", Cases: 24, Pass: true, Date: "2026-10-30"}})
	r := Compute(in)
	if r.Envelope.Ceiling == nil || *r.Envelope.Ceiling != 8 {
		t.Fatalf("report's envelope = %+v", r.Envelope)
	}
	var awq *CandidateResult
	for i := range r.Candidates.Candidates {
		if r.Candidates.Candidates[i].Name == "awq" {
			awq = &r.Candidates.Candidates[i]
		}
	}
	if awq == nil {
		t.Fatal("no awq candidate")
	}
	if awq.Envelope.Ceiling == nil || *awq.Envelope.Ceiling != 8 {
		t.Errorf("candidate envelope = %q, want a ceiling at 8 (headroom derived)", awq.Envelope.Text)
	}
	for _, rr := range awq.Matrix {
		if rr.MemoryHeadroom == nil || *rr.MemoryHeadroom != 0.25 || rr.MemoryHeadroomSource != SourceDerived {
			t.Errorf("candidate row %g: headroom %v from %q, want 25 %% derived", rr.Load, rr.MemoryHeadroom, rr.MemoryHeadroomSource)
		}
	}
	if awq.Headroom == nil || *awq.Headroom != 0.25 {
		t.Errorf("candidate's worst headroom = %v", awq.Headroom)
	}
}

// A GPU log that names no device total (AIPerf's GPU telemetry) gives the
// peak memory in use; the headroom is derived from the contract's device
// memory, and the row is judged on it.
func TestTelemetryWithoutTotalDerivesHeadroom(t *testing.T) {
	a := NewTelemetryAligner([]Window{{Start: 0, End: 10}})
	for at := 0.0; at <= 10; at++ {
		a.Add(GPUSample{At: at, GPU: "0", PowerW: F(500), MemUsedMiB: F(70 * 1024), UtilPct: F(95)})
		a.Add(GPUSample{At: at, GPU: "1", PowerW: F(500), MemUsedMiB: F(60 * 1024), UtilPct: F(95)})
	}
	figs := a.Result(nil, "gpu_telemetry_export.jsonl")[0]
	if figs.MemPeakGiB == nil || *figs.MemPeakGiB != 70 || figs.Headroom != nil {
		t.Fatalf("aligned figures: peak %v headroom %v; want the fullest GPU's 70 GiB and no headroom of its own", figs.MemPeakGiB, figs.Headroom)
	}
	row := concRow(8, 12)
	row.Observed = Observed{OOMChecked: true}
	row.Source.SHA256 = "f"
	tel := &TelemetryInput{Source: "gpu_telemetry_export.jsonl", Rows: []RowTelemetryInput{{RowKey: RowKey(row), Figs: figs}}}

	if v := Evaluate(ResolveRows([]Row{row}, tel, nil)[0], testObjective()); v.State != VerdictNotJudged {
		t.Errorf("without the device memory: %s, want not judged", v.Summary)
	}
	got := ResolveRows([]Row{row}, tel, F(80))[0]
	m := got.Measured()
	if m.Headroom == nil || *m.Headroom != 0.125 {
		t.Fatalf("headroom = %v, want 12.5 %% (1 - 70/80)", m.Headroom)
	}
	if !strings.HasPrefix(m.MemorySource, "telemetry: gpu_telemetry_export.jsonl") || !strings.Contains(m.MemorySource, "derived") {
		t.Errorf("source = %q", m.MemorySource)
	}
	if v := Evaluate(got, testObjective()); v.State != VerdictPass {
		t.Errorf("verdict = %s, want pass", v.Summary)
	}
	// The report's matrix, through Compute, the same.
	in := demoInputs()
	in.Rows = []Row{row}
	in.Telemetry = tel
	rr := Compute(in).Matrix[0]
	if rr.MemoryHeadroom == nil || *rr.MemoryHeadroom != 0.125 || rr.Verdict.State != VerdictPass {
		t.Errorf("matrix row: headroom %v, %s", rr.MemoryHeadroom, rr.Verdict.Summary)
	}
}

// A typed headroom is never overwritten, and a peak beyond the device's
// memory derives nothing.
func TestResolveRowsKeepsTypedHeadroom(t *testing.T) {
	typed := concRow(1, 5) // headroom 20 % typed, peak 64 GiB
	over := concRow(2, 5)
	over.Observed = Observed{PeakMemoryGiB: F(90)}
	got := ResolveRows([]Row{typed, over}, nil, F(80))
	if h := got[0].Measured(); *h.Headroom != 0.2 || h.MemorySource != SourceTyped {
		t.Errorf("typed headroom became %v from %q", *h.Headroom, h.MemorySource)
	}
	if got[1].Observed.Headroom != nil {
		t.Errorf("a peak of 90 GiB on an 80 GiB device derived %v", *got[1].Observed.Headroom)
	}
}
