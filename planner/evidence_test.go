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
