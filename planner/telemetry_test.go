package planner

import (
	"strings"
	"testing"
)

func sample(at, watts, memUsed, util float64) GPUSample {
	return GPUSample{At: at, PowerW: F(watts), MemUsedMiB: F(memUsed), MemTotalMiB: F(81559), UtilPct: F(util), TempC: F(55)}
}

// Two back-to-back row windows [100, 110] and [110, 120], samples every 5 s.
// The sample at 110 lies on both edges and counts in both windows:
//
//	row 0: 100 (400 W), 105 (500 W), 110 (600 W)  mean 500 W, peak 600 W
//	row 1: 110 (600 W), 115 (700 W), 120 (650 W)  mean 650 W, peak 700 W
//
// The samples at 95 and 125 are outside both windows.
func TestTelemetryAlignmentEdges(t *testing.T) {
	a := NewTelemetryAligner([]Window{{100, 110}, {110, 120}})
	for _, s := range []GPUSample{
		sample(95, 9999, 80000, 0),
		sample(100, 400, 60000, 97),
		sample(105, 500, 61000, 97),
		sample(110, 600, 65000, 98),
		sample(115, 700, 70000, 99),
		sample(120, 650, 73399.1, 99),
		sample(125, 9999, 81000, 0),
	} {
		a.Add(s)
	}
	rates := []*float64{F(1000), F(3250)}
	got := a.Result(rates, "smi.csv")
	if got[0].Samples != 3 || got[1].Samples != 3 {
		t.Fatalf("samples = %d, %d; want 3, 3", got[0].Samples, got[1].Samples)
	}
	if !near(*got[0].PowerMeanW, 500) || !near(*got[0].PowerPeakW, 600) {
		t.Errorf("row 0 power = %v / %v", *got[0].PowerMeanW, *got[0].PowerPeakW)
	}
	if !near(*got[1].PowerMeanW, 650) || !near(*got[1].PowerPeakW, 700) {
		t.Errorf("row 1 power = %v / %v", *got[1].PowerMeanW, *got[1].PowerPeakW)
	}
	// Headroom row 0: 1 - 65,000 / 81,559 = 20.30 %.
	if !near(*got[0].Headroom, 1-65000.0/81559) {
		t.Errorf("row 0 headroom = %v", *got[0].Headroom)
	}
	// Row 1: 1 - 73,399.1 / 81,559 = 10.0050 %.
	if !near(*got[1].Headroom, 1-73399.1/81559) || !near(*got[1].MemPeakGiB, 73399.1/1024) {
		t.Errorf("row 1 headroom = %v, peak %v GiB", *got[1].Headroom, *got[1].MemPeakGiB)
	}
	// Tokens per joule: 1,000 tok/s / 500 W = 2; 3,250 / 650 = 5.
	if !near(*got[0].OutputTokensPerJoule, 2) || !near(*got[1].OutputTokensPerJoule, 5) {
		t.Errorf("tokens/J = %v, %v", *got[0].OutputTokensPerJoule, *got[1].OutputTokensPerJoule)
	}
	if got[0].Source != "smi.csv" {
		t.Errorf("source = %q", got[0].Source)
	}
}

func TestTelemetryEmptyWindowAndGPUs(t *testing.T) {
	a := NewTelemetryAligner([]Window{{0, 10}, {50, 60}})
	g := func(gpu string, w, mem float64) GPUSample {
		s := sample(5, w, mem, 90)
		s.GPU = gpu
		return s
	}
	a.Add(g("0", 300, 40000))
	a.Add(g("1", 350, 70000))
	got := a.Result(nil, "")
	// Box power is the sum of the GPUs; headroom is the fullest GPU's.
	if got[0].GPUs != 2 || !near(*got[0].PowerMeanW, 650) || !near(*got[0].Headroom, 1-70000.0/81559) {
		t.Errorf("two GPUs = %+v", got[0])
	}
	if got[1].Samples != 0 || got[1].PowerMeanW != nil || got[1].Headroom != nil || got[1].Note == "" {
		t.Errorf("empty window = %+v", got[1])
	}
}

// Utilisation at 97-99 % while power moves 469 W -> 660 W and throughput 7x.
func TestUtilisationFlatNote(t *testing.T) {
	rows := []RowTelemetry{
		{UtilMeanPct: F(97), PowerMeanW: F(469)},
		{UtilMeanPct: F(98), PowerMeanW: F(540)},
		{UtilMeanPct: F(99), PowerMeanW: F(660)},
	}
	rates := []*float64{F(773), F(2000), F(5389)}
	note := UtilisationFlatNote(rows, rates)
	if !strings.Contains(note, "between 97.0 % and 99.0 %") || !strings.Contains(note, "469 W to 660 W") || !strings.Contains(note, "6.97×") {
		t.Errorf("note = %q", note)
	}
	rows[0].UtilMeanPct = F(40)
	if note := UtilisationFlatNote(rows, rates); note != "" {
		t.Errorf("utilisation moved, note = %q", note)
	}
}
