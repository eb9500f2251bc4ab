package planner

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// Telemetry on the ceiling row replaces the typed watts and headroom; the
// matrix row names its source, and the cost model's power is the measured one.
func TestComputeTelemetry(t *testing.T) {
	in := demoInputs()
	for i := range in.Rows {
		in.Rows[i].Source.SHA256 = "abc"
		in.Rows[i].Index = i
	}
	// Row 3 (8 streams, the ceiling) typed 700 W; the log says 612.5 W and
	// 9 % headroom... which fails the objective's 10 %: use 15 %.
	in.Telemetry = &TelemetryInput{Source: "smi.csv", Rows: []RowTelemetryInput{{RowKey: "abc#3", Figs: RowTelemetry{
		Samples: 60, GPUs: 1, PowerMeanW: F(612.5), PowerPeakW: F(640), MemPeakGiB: F(68), MemTotalGiB: F(80), Headroom: F(0.15), Source: "smi.csv"}}}}
	r := Compute(in)
	var ceil RowResult
	for _, m := range r.Matrix {
		if m.Load == 8 {
			ceil = m
		}
	}
	if *ceil.PowerWattsMean != 612.5 || ceil.PowerWattsSource != "telemetry: smi.csv" || *ceil.MemoryHeadroom != 0.15 || ceil.MemoryHeadroomSource != "telemetry: smi.csv" {
		t.Errorf("ceiling row = %v %q %v %q", *ceil.PowerWattsMean, ceil.PowerWattsSource, *ceil.MemoryHeadroom, ceil.MemoryHeadroomSource)
	}
	if *r.SelfHosted.PowerWatts != 612.5 {
		t.Errorf("cost model power = %v", *r.SelfHosted.PowerWatts)
	}
	// Another row keeps its typed headroom.
	if m := r.Matrix[0]; *m.MemoryHeadroom != 0.2 || m.MemoryHeadroomSource != "typed" || m.PowerWattsMean != nil || m.PowerWattsSource != "" {
		t.Errorf("row 1 = %+v", m)
	}
	if !r.Telemetry.Present || r.Telemetry.RowsCovered != 1 {
		t.Errorf("summary = %+v", r.Telemetry)
	}
	// A headroom below the objective's 10 % fails the row.
	in.Telemetry.Rows[0].Figs.Headroom = F(0.05)
	r = Compute(in)
	for _, m := range r.Matrix {
		if m.Load == 8 && m.Verdict.Summary == "pass" {
			t.Errorf("5 %% measured headroom passed the row")
		}
	}
}

func TestComputeSoakExitItem(t *testing.T) {
	in := demoInputs()
	if r := Compute(in); hasItem(r, "soak") {
		t.Error("soak item without a soak asked")
	}
	in.Contract.SoakHours = 6
	r := Compute(in)
	it := item(r, "soak")
	if it == nil || it.Pass || !strings.Contains(it.Detail, "none imported") || r.ExitPass {
		t.Fatalf("soak item = %+v", it)
	}
	in.Soak = &Soak{Hours: soakHours(), Drains: []Drain{{N: 1, Running: 26, Finished: 26}}, Source: "soak.md"}
	r = Compute(in)
	if it = item(r, "soak"); !it.Pass || !r.ExitPass {
		t.Errorf("soak item = %+v", it)
	}
	b, _ := json.Marshal(r)
	for _, key := range []string{`"soak":{"present":true`, `"successes":147434`, `"failures":9`, `"rejected_429":14597`, `"availability":0.99993`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("JSON lacks %s", key)
		}
	}
	in.Soak.Drains[0].Finished, in.Soak.Drains[0].Lost = 25, 1
	if it = item(Compute(in), "soak"); it.Pass {
		t.Error("a lost request passed the soak item")
	}
}

func TestComputeShowback(t *testing.T) {
	in := demoInputs()
	in.Showback = &ShowbackUsage{Requests: 3, StepS: 0.05, SpanS: 0.2, Source: "u.jsonl", Tenants: []TenantUsage{
		{Tenant: "agents", Tokens: 1400, Requests: 2, Seconds: 0.125},
		{Tenant: "rag", Tokens: 3100, Requests: 1, Seconds: 0.075},
	}}
	r := Compute(in)
	if len(r.Showback) != 3 || r.Showback[2].Meter != MeterTimeShare || !near(r.Showback[2].Tenants[1].Share, 0.375) {
		t.Fatalf("showback = %+v", r.Showback)
	}
	// One box's fixed cost split: rag pays 37.5 % under time-share.
	want := r.SelfHosted.FixedPerBox.Exact.Mul(decimalF(0.375)).Round(2)
	if c := r.Showback[2].Tenants[1].Cost; c == nil || !c.Rounded.Equal(want) {
		t.Errorf("rag cost = %v, want %v", c, want)
	}
	b, _ := json.Marshal(r)
	if !strings.Contains(string(b), `"showback":[{"meter":"tokens","unit":"tokens","tenants":[{"tenant":"agents","share":0.3111`) {
		t.Errorf("JSON showback = %s", b[strings.Index(string(b), `"showback"`):][:200])
	}
	if r := Compute(demoInputs()); r.Showback == nil || len(r.Showback) != 0 {
		t.Error("no showback is not an empty list")
	}
}

func TestComputeDemandAgainstAdmission(t *testing.T) {
	in := demoInputs()
	in.Demand = &Demand{Present: true, PeakInFlight: ip64(12)}
	r := Compute(in)
	// The limit in force is 8: a peak of 12 in flight passes it.
	if r.Demand == nil || *r.Demand.AdmissionLimit != 8 || !r.Demand.OverAdmission {
		t.Errorf("demand = %+v", r.Demand)
	}
}

func item(r Result, id string) *ExitItem {
	for i := range r.ExitCheck {
		if r.ExitCheck[i].ID == id {
			return &r.ExitCheck[i]
		}
	}
	return nil
}

func hasItem(r Result, id string) bool { return item(r, id) != nil }

func decimalF(v float64) decimal.Decimal { return decimal.NewFromFloat(v) }

// One source per figure (docs/method.md, "Measured figures of a row"):
// typed 13.0 % and 8 % at loads 8 and 10, typed 640 W at 10; a GPU log
// covering every row says 12.6 % at 8 and 18.8 % and 631 W at 10. The
// matrix, the candidates (the baseline judged on the report's rows), the
// cost model and the side-by-side comparison all read the log's figures,
// and say so.
func TestOneSourcePerRowFigure(t *testing.T) {
	in := demoInputs()
	in.Rows = matrix([]float64{1, 2, 4, 8, 10}, []float64{5, 6, 8, 12, 14})
	typed := []float64{0.18, 0.17, 0.15, 0.13, 0.08}
	logged := []float64{0.18, 0.17, 0.15, 0.126, 0.188}
	in.Telemetry = &TelemetryInput{Source: "smi.csv"}
	for i := range in.Rows {
		in.Rows[i].Source.SHA256, in.Rows[i].Index = "abc", i
		in.Rows[i].Observed.OOMChecked = true
		in.Rows[i].Observed.Headroom = F(typed[i])
		in.Rows[i].Observed.PowerWatts = F(600 + 10*float64(i))
		in.Rows[i].Observed.PeakMemoryGiB = F(70)
		in.Telemetry.Rows = append(in.Telemetry.Rows, RowTelemetryInput{RowKey: RowKey(in.Rows[i]), Figs: RowTelemetry{
			Samples: 60, Busy: 60, Expected: 60, GPUs: 1, PowerMeanW: F(591 + 10*float64(i)), MemPeakGiB: F(80 * (1 - logged[i])), MemTotalGiB: F(80), Headroom: F(logged[i]), Source: "smi.csv"}})
	}
	in.Rows[4].Observed.PowerWatts = F(640)

	// Without the log: typed figures everywhere, and load 10 fails 8 %, below 10 %.
	noLog := in
	noLog.Telemetry = nil
	r := Compute(noLog)
	if *r.Envelope.Ceiling != 8 || !strings.Contains(r.Candidates.Decision, "13 % observed headroom") {
		t.Fatalf("typed: ceiling %v, decision %q", *r.Envelope.Ceiling, r.Candidates.Decision)
	}

	r = Compute(in)
	if r.Envelope.State != EnvelopeLowerBound || *r.Envelope.Ceiling != 10 {
		t.Fatalf("with the log the matrix passes load 10: %s", r.Envelope.Text)
	}
	base := r.Candidates.Candidates[0]
	if *base.Envelope.Ceiling != 10 || !strings.Contains(r.Candidates.Decision, "12.6 % observed headroom") ||
		!strings.Contains(r.Candidates.Decision, "(headroom telemetry: smi.csv)") || base.HeadroomSource != "telemetry: smi.csv" {
		t.Errorf("candidates: ceiling %v, decision %q", *base.Envelope.Ceiling, r.Candidates.Decision)
	}
	for i, m := range r.Matrix {
		c := base.Matrix[i]
		mh, ch := checkOfTest(m, "headroom"), checkOfTest(c, "headroom")
		if *m.MemoryHeadroom != logged[i] || m.MemoryHeadroomSource != "telemetry: smi.csv" || mh.Text != ch.Text || *c.MemoryHeadroom != logged[i] {
			t.Errorf("load %v: matrix %v (%s) %q, candidates %v %q", m.Load, *m.MemoryHeadroom, m.MemoryHeadroomSource, mh.Text, *c.MemoryHeadroom, ch.Text)
		}
		if strings.Contains(ch.Text, " 8 % <") {
			t.Errorf("candidates still judge the typed 8 %%: %q", ch.Text)
		}
	}
	// Power: 631 W measured at the ceiling (load 10), not the typed 640 W.
	ceil := r.Matrix[*r.Envelope.CeilingRow]
	if *ceil.PowerWattsMean != 631 || *r.SelfHosted.PowerWatts != 631 || r.SelfHosted.PowerWattsSource != "measured at the ceiling row (telemetry: smi.csv)" {
		t.Errorf("power: matrix %v, costs %v (%s)", *ceil.PowerWattsMean, *r.SelfHosted.PowerWatts, r.SelfHosted.PowerWattsSource)
	}
	sbs, err := Compare([]CompareSubject{{Name: "a", Contract: in.Contract, Result: r}, {Name: "b", Contract: in.Contract, Result: Compute(noLog)}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if c := sbs.Columns[0]; *c.CeilingWatts != 631 || c.CeilingWattsSource != "telemetry: smi.csv" || !near(*c.TokensPerJ, *ceil.Row.OutputTokenRate/631) {
		t.Errorf("compare: %v W (%s), %v tok/J", *c.CeilingWatts, c.CeilingWattsSource, *c.TokensPerJ)
	}
	if c := sbs.Columns[1]; *c.CeilingWatts != 630 || c.CeilingWattsSource != "typed" {
		t.Errorf("compare without the log: %v W (%s)", *c.CeilingWatts, c.CeilingWattsSource)
	}
	// The typed figures stay as typed: a form shows what the lead typed.
	if *ceil.Row.Observed.Headroom != 0.08 || *ceil.Row.Observed.PowerWatts != 640 {
		t.Errorf("typed figures overwritten: %+v", ceil.Row.Observed)
	}
}

// A row the log covers in part is marked, with over what share, and the
// idle samples in its window count as uncovered, not as the row.
func TestTelemetryPartialCoverage(t *testing.T) {
	// Row 0 is 114 s long; the log starts 26 s into it with 20 s of an idle
	// GPU, then 68 busy samples. Row 1 is covered whole.
	a := NewTelemetryAligner([]Window{{0, 114}, {200, 260}})
	for at := 26.0; at < 46; at++ {
		a.Add(sample(at, 72, 1024, 0))
	}
	for at := 46.0; at <= 113; at++ {
		a.Add(sample(at, 600, 70000, 98))
	}
	for at := 200.5; at < 260; at++ {
		a.Add(sample(at, 650, 71000, 99))
	}
	got := a.Result(nil, "smi.csv")
	p := got[0]
	if p.Samples != 68 || p.Idle != 20 || p.Expected != 114 || !p.Partial || p.Coverage != "68 of ~114 samples (20 idle)" {
		t.Fatalf("partial row = %+v", p)
	}
	if !near(*p.PowerMeanW, 600) {
		t.Errorf("idle samples counted in the mean power: %v", *p.PowerMeanW)
	}
	if got[1].Partial || got[1].Coverage != "" || got[1].Samples != 60 {
		t.Errorf("whole row = %+v", got[1])
	}

	in := demoInputs()
	for i := range in.Rows {
		in.Rows[i].Source.SHA256, in.Rows[i].Index = "abc", i
	}
	in.Telemetry = &TelemetryInput{Source: "smi.csv", Rows: []RowTelemetryInput{{RowKey: "abc#3", Figs: p}}}
	r := Compute(in)
	for _, m := range r.Matrix {
		if m.Load != 8 {
			continue
		}
		if !m.TelemetryPartial || m.PowerWattsSource != "telemetry: smi.csv, 68 of ~114 samples (20 idle)" || !hasWarning(m.Warnings, "telemetry-partial") {
			t.Errorf("partial row in the matrix: %v %q %+v", m.TelemetryPartial, m.PowerWattsSource, m.Warnings)
		}
	}
	if r.Telemetry.RowsCovered != 1 || r.Telemetry.RowsPartial != 1 {
		t.Errorf("summary = %+v", r.Telemetry)
	}
}

func checkOfTest(rr RowResult, criterion string) Check {
	for _, c := range rr.Verdict.Checks {
		if c.Criterion == criterion {
			return c
		}
	}
	return Check{}
}

func hasWarning(ws []Warning, code string) bool {
	for _, w := range ws {
		if w.Code == code {
			return true
		}
	}
	return false
}
