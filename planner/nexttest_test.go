package planner

import (
	"strings"
	"testing"
)

// A sweep whose ceiling is 8 and first failure 16, with per-request
// records: the next test proposes 10, 12 and 14 streams, the requests each
// needs, the GPU minutes and a GuideLLM command built from the contract's
// workload.
func TestNextTestBetweenCeilingAndFailure(t *testing.T) {
	rows := matrix([]float64{1, 2, 4, 8, 16}, []float64{5, 6, 8, 12, 20})
	for i, hi := range []float64{5, 6, 8, 12, 20} {
		rows[i] = withSamples(rows[i], 200, hi*0.5, hi*1.02)
	}
	c := testContract()
	c.Loads = []float64{1, 2, 4, 8, 16}
	c.Device = "8x H100 80GB"
	m, e := JudgeMatrix(rows, c, testObjective(), "")
	if e.Ceiling == nil || *e.Ceiling != 8 || e.FirstFailure == nil || *e.FirstFailure != 16 {
		t.Fatalf("envelope %s", e.Text)
	}
	nt := e.Next
	if nt == nil || len(nt.Runs) != 3 {
		t.Fatalf("next test %+v", nt)
	}
	if nt.GPUs != 8 {
		t.Errorf("GPUs %v (%s)", nt.GPUs, nt.GPUsSource)
	}
	total := 0.0
	for i, want := range []float64{10, 12, 14} {
		r := nt.Runs[i]
		if r.Load != want || r.Requests < MinSamplesForBound(0.95, 0.95) || r.Rate <= 0 || r.Seconds < 60 {
			t.Errorf("run %d: %+v", i, r)
		}
		// GPU minutes at the measured rate: the run's seconds / 60 x 8.
		if got := r.Seconds / 60 * 8; got < r.GPUMinutes-0.05 || got > r.GPUMinutes+0.05 {
			t.Errorf("run %d: %v GPU minutes for %v s", i, r.GPUMinutes, r.Seconds)
		}
		if r.Seconds < float64(r.Requests)/r.Rate {
			t.Errorf("run %d: %v s cannot hold %d requests at %v req/s", i, r.Seconds, r.Requests, r.Rate)
		}
		total += r.GPUMinutes
		// The contract names GuideLLM 0.4.1: "guidellm benchmark" with --profile.
		for _, want := range []string{"guidellm benchmark --target http://localhost:8000 --model llama-3.1-8b-instruct",
			"--data prompt_tokens=256,output_tokens=128", "--profile concurrent --rate " + fmtNum(want), "--max-seconds " + fmtNum(r.Seconds)} {
			if !strings.Contains(r.GuideLLM, want) {
				t.Errorf("run %d: GuideLLM %q lacks %q", i, r.GuideLLM, want)
			}
		}
		if !strings.Contains(r.VLLM, "--max-concurrency "+fmtNum(want)) || !strings.Contains(r.VLLM, "--random-input-len 256 --random-output-len 128") {
			t.Errorf("run %d: vLLM %q", i, r.VLLM)
		}
	}
	// 10 streams is expected to pass (its interpolated p95 is 14 s), 12 and
	// 14 to fail: those get the fewest requests with which a bound exists.
	if !strings.Contains(nt.Runs[2].Basis, "expected to fail") || nt.Runs[2].Requests != 59 || strings.Contains(nt.Runs[0].Basis, "expected to fail") {
		t.Errorf("bases %q / %q", nt.Runs[0].Basis, nt.Runs[2].Basis)
	}
	if d := nt.GPUMinutes - total; d > 0.1 || d < -0.1 {
		t.Errorf("total %v, runs %v", nt.GPUMinutes, total)
	}
	if nt.Estimate == nil || *nt.Estimate <= 8 || *nt.Estimate >= 16 || !strings.HasPrefix(nt.EstimateText, "estimate, not a measurement") {
		t.Errorf("estimate %v %q", deref(nt.Estimate), nt.EstimateText)
	}
	if !strings.Contains(nt.Text, "next test: 3 runs at 10, 12 and 14 concurrent streams") {
		t.Errorf("text %q", nt.Text)
	}
	// The estimate is never the capacity.
	if c := PerBoxCapacity(m, e, 1, testObjective()); c.CeilingRate == nil || *c.CeilingRate != *SuccessfulRate(m[*e.CeilingRow].Row) {
		t.Errorf("capacity from %v", c.CeilingRate)
	}
}

func TestNextTestRerunsAWeakCeiling(t *testing.T) {
	_, e := JudgeMatrix(weakMatrix(), testContract(), testObjective(), "")
	nt := e.Next
	if nt == nil || len(nt.Runs) == 0 || nt.Runs[0].Load != 1 || nt.Runs[0].Requests != 100 || !strings.Contains(nt.Runs[0].Why, "weak evidence") {
		t.Fatalf("next test %+v", nt)
	}
	if !strings.Contains(nt.Runs[0].Basis, "cannot be computed from a summary") {
		t.Errorf("basis %q", nt.Runs[0].Basis)
	}
}

func TestNoNextTestWhenAdjacent(t *testing.T) {
	rows := matrix([]float64{1, 2, 3}, []float64{5, 6, 16})
	_, e := JudgeMatrix(rows, testContract(), testObjective(), "")
	if e.Next != nil {
		t.Errorf("next test for adjacent loads: %+v", e.Next)
	}
}

// The GuideLLM command takes the form of the tool's version: 0.7 and later
// "guidellm run" with objects, 0.4 to 0.6 "guidellm benchmark --profile",
// earlier --rate-type.
func TestGuideLLMCommandByVersion(t *testing.T) {
	run := NextRun{Load: 12, LoadKind: LoadConcurrency, Seconds: 150}
	for _, tt := range []struct{ version, want string }{
		{"0.7.3", "guidellm run --backend kind=openai_http,target=http://localhost:8000,model=m --profile kind=concurrent,streams=12 --data kind=synthetic_text,prompt_tokens=256,output_tokens=128 --constraint kind=max_duration,seconds=150"},
		{"", "guidellm run --backend"},
		{"0.5.3", "guidellm benchmark --target http://localhost:8000 --model m --data prompt_tokens=256,output_tokens=128 --profile concurrent --rate 12 --max-seconds 150"},
		{"v0.3.1", "guidellm benchmark --target http://localhost:8000 --model m --data prompt_tokens=256,output_tokens=128 --rate-type concurrent --rate 12 --max-seconds 150"},
	} {
		if got := guidellmCommand(tt.version, "m", "", false, 256, 128, run); !strings.HasPrefix(got, tt.want) {
			t.Errorf("%q: %s\nwant %s", tt.version, got, tt.want)
		}
	}
	rate := NextRun{Load: 2.5, LoadKind: LoadRate, Seconds: 60}
	if got := guidellmCommand("0.8.1", "m", "", false, 256, 128, rate); !strings.Contains(got, "--profile kind=constant,rate=2.5") {
		t.Errorf("rate: %s", got)
	}
}
