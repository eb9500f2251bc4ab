package planner

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestLittlesLaw(t *testing.T) {
	n, text := LittlesLaw(11.3, 13.9)
	if n != 157 {
		t.Errorf("LittlesLaw(11.3, 13.9) = %d, want 157", n)
	}
	if text != "11.3 req/s x 13.9 s = 157.1, rounded down to 157" {
		t.Errorf("text = %q", text)
	}
}

func TestProposeAdmission(t *testing.T) {
	strong := func() []Row {
		rows := matrix([]float64{1, 2, 4, 8, 10}, []float64{5, 6, 8, 12, 16.2})
		return rows
	}
	tests := []struct {
		name         string
		rows         func() []Row
		contract     func(*Contract) // tweaks to the contract and its objective
		in           AdmissionInput
		wantBasis    string
		wantCeiling  *int
		wantMax      *int
		wantWeak     int
		wantQueue    int
		wantAge      float64 // the max queue age when not the 1.4 s of a p95 bound
		wantReason   string
		wantOverride bool
	}{
		{name: "concurrency ceiling with adequate evidence", rows: strong,
			wantBasis: "concurrency", wantCeiling: I(8), wantMax: I(8), wantQueue: 4, wantReason: "the ceiling row ran 8 streams and achieved 8 in flight"},
		{name: "short windows take a margin", rows: func() []Row {
			rows := strong()
			for i := range rows {
				rows[i].DurationS = F(30)
			}
			return rows
		}, contract: func(c *Contract) { c.RowDurationS = 30 }, // the contract's rows are short: they count, but weakly
			wantBasis: "concurrency", wantCeiling: I(8), wantMax: I(6), wantWeak: 2, wantQueue: 3, wantReason: "the first failing row (10 concurrent streams) ran 30 s"},
		{name: "a quick search; 50 requests are enough for a p50", rows: func() []Row {
			rows := matrix([]float64{4, 8}, []float64{8, 24}) // p50 6 s and 18 s
			rows[0].Successful = I(50)
			return rows
		}, contract: func(c *Contract) { // a p50 needs 10 requests (five beyond it), not a flat 100
			c.Objective.Percentile, c.Objective.E2EMax, c.Loads = 50, F(15), []float64{4, 8}
		},
			wantBasis: "concurrency", wantCeiling: I(4), wantMax: I(3), wantWeak: 1, wantQueue: 2, wantAge: 1.75, wantReason: "a quick search: only 2 counted rows"},
		// With per-request records the confidence bound decides, not the
		// count: 80 requests at the ceiling whose 95 % upper bound of the
		// p95 is within 15 s, and 80 at the first failure whose lower
		// bound is beyond it, are adequate (the count rule wants 100).
		{name: "records: bounds conclusive at 80 requests", rows: func() []Row {
			rows := strong()
			rows[3] = withSamples(rows[3], 80, 5, 12)
			rows[4] = withSamples(rows[4], 80, 15.5, 17)
			return rows
		}, wantBasis: "concurrency", wantCeiling: I(8), wantMax: I(8), wantQueue: 4, wantReason: "with per-request records, the p95's 95 % upper bound within the objective's bound"},
		// A first failure whose records leave its p95 open (its lower
		// bound is not beyond the bound) is weak evidence, with 200
		// requests, above the count rule's 100.
		{name: "records: an open failure is weak evidence", rows: func() []Row {
			rows := strong()
			rows[4] = withSamples(rows[4], 200, 10, 15.3)
			return rows
		}, wantBasis: "concurrency", wantCeiling: I(8), wantMax: I(6), wantWeak: 1, wantQueue: 3, wantReason: "the first failing row (10 concurrent streams)'s p95 end-to-end"},
		{name: "a stopped first failure with few requests is weak evidence", rows: func() []Row {
			rows := strong()
			rows[4].Successful, rows[4].Attempted, rows[4].DurationS = I(20), I(20), F(12)
			rows[4].Observed.Stopped = true
			return rows
		}, wantBasis: "concurrency", wantCeiling: I(8), wantMax: I(6), wantWeak: 2, wantQueue: 3, wantReason: "the first failing row (10 concurrent streams) completed 20 requests, fewer than 100"},
		// 10 streams with 4 requests still fails: a measured failure counts
		// whatever its sample, and a thin failure makes the evidence weak.
		{name: "a failing row of too few requests still places the ceiling", rows: func() []Row {
			rows := strong()
			rows[4].Successful, rows[4].Attempted = I(4), I(4)
			return rows
		}, wantBasis: "concurrency", wantCeiling: I(8), wantMax: I(6), wantWeak: 1, wantQueue: 3, wantReason: "the first failing row (10 concurrent streams) completed 4 requests, fewer than 100"},
		{name: "achieved concurrency below the streams", rows: func() []Row {
			rows := strong()
			rows[3].AchievedConcurrency = F(5.6)
			return rows
		}, wantBasis: "concurrency", wantCeiling: I(5), wantMax: I(5), wantQueue: 4, wantReason: "achieved only 5.6 in flight"},
		{name: "rate run by Little's law", rows: func() []Row {
			var rows []Row
			for _, rate := range []float64{5, 8, 11.3, 13} {
				r := concRow(rate, 14)
				r.LoadKind, r.AchievedConcurrency = LoadRate, nil
				r.RequestRate = F(rate)
				r.E2E.Mean = F(13.9)
				rows = append(rows, r)
			}
			rows[3].E2E.P95 = F(20)
			return rows
		}, wantBasis: "littles-law", wantCeiling: I(157), wantMax: I(157), wantQueue: 15, wantReason: "11.3 req/s x 13.9 s"},
		{name: "override with a reason", rows: strong, in: AdmissionInput{OverrideMaxInFlight: I(6), OverrideReason: "shared with batch jobs"},
			wantBasis: "concurrency", wantCeiling: I(8), wantMax: I(6), wantQueue: 3, wantReason: "overridden to 6 by the lead: shared with batch jobs", wantOverride: true},
		{name: "no envelope, no limit", rows: func() []Row { return matrix([]float64{1}, []float64{20}) },
			wantBasis: "none", wantReason: "no demonstrated ceiling"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows, c := tt.rows(), testContract()
			c.Objective = testObjective()
			if rows[0].LoadKind == LoadRate { // a rate search is contracted as one
				c.LoadKind, c.Loads = LoadRate, nil
			}
			if tt.contract != nil {
				tt.contract(&c)
			}
			m, e := JudgeMatrix(rows, c, c.Objective, "")
			a := ProposeAdmission(m, e, c.Objective, c, tt.in)
			if a.Basis != tt.wantBasis {
				t.Errorf("basis = %s, want %s", a.Basis, tt.wantBasis)
			}
			if !reflect.DeepEqual(a.CeilingInFlight, tt.wantCeiling) || !reflect.DeepEqual(a.MaxInFlight, tt.wantMax) {
				t.Errorf("ceiling in flight %v, max %v; want %v, %v", derefI(a.CeilingInFlight), derefI(a.MaxInFlight), derefI(tt.wantCeiling), derefI(tt.wantMax))
			}
			if len(a.WeakEvidence) != tt.wantWeak {
				t.Errorf("weak evidence = %q, want %d items", a.WeakEvidence, tt.wantWeak)
			}
			// The wait budget is the p95 TTFT bound 2 s less the ceiling's
			// p95 TTFT 0.6 s: the queue's max age when there is a queue.
			wantAge := 0.0
			if tt.wantQueue > 0 {
				wantAge = 1.4
				if tt.wantAge > 0 {
					wantAge = tt.wantAge
				}
			}
			if a.QueueSize != tt.wantQueue || math.Abs(a.MaxQueueAgeS-wantAge) > 1e-9 || a.OverloadStatus != 429 || a.NoCapacityStatus != 503 || a.ClientMaxRetries != 2 {
				t.Errorf("queue %d age %v status %d retries %d", a.QueueSize, a.MaxQueueAgeS, a.OverloadStatus, a.ClientMaxRetries)
			}
			if a.Overridden != tt.wantOverride {
				t.Errorf("overridden = %v", a.Overridden)
			}
			if !strings.Contains(strings.Join(a.Reasons, "\n"), tt.wantReason) {
				t.Errorf("reasons %q lack %q", a.Reasons, tt.wantReason)
			}
		})
	}
}

func TestAdmissionSettings(t *testing.T) {
	m, e := JudgeMatrix(matrix([]float64{1, 2, 4, 8, 10}, []float64{5, 6, 8, 12, 16.2}), testContract(), testObjective(), "")
	a := ProposeAdmission(m, e, testObjective(), testContract(), AdmissionInput{})
	if !reflect.DeepEqual(a.Settings.VLLMFlags, []string{"--max-num-seqs 8"}) {
		t.Errorf("flags = %q", a.Settings.VLLMFlags)
	}
	if len(a.Settings.VLLMNotes) == 0 || !strings.Contains(a.Settings.VLLMNotes[0], "gateway") {
		t.Errorf("notes = %q", a.Settings.VLLMNotes)
	}
	var g map[string]any
	if err := json.Unmarshal([]byte(a.Settings.GatewayJSON), &g); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]any{"max_in_flight": 8.0, "queue_size": 4.0, "max_queue_age_s": 1.4, "overload_status": 429.0, "no_capacity_status": 503.0, "client_max_retries": 2.0} {
		if g[k] != want {
			t.Errorf("gateway %s = %v, want %v", k, g[k], want)
		}
	}
	if _, ok := g["retry_after_s"]; !ok {
		t.Error("gateway lacks retry_after_s")
	}
}

func TestAdmissionSettingsWithoutACeiling(t *testing.T) {
	failing := matrix([]float64{1, 2}, []float64{20, 30}) // both fail e2e <= 15 s: no envelope
	tests := []struct {
		name      string
		rows      []Row
		in        AdmissionInput
		wantBlock bool
		wantMIF   int
	}{
		{"no envelope, no override: no block", failing, AdmissionInput{}, false, 0},
		{"no rows: no block", nil, AdmissionInput{}, false, 0},
		{"no envelope, the lead's override: a block", failing, AdmissionInput{OverrideMaxInFlight: I(3), OverrideReason: "product limit"}, true, 3},
		{"envelope: a block", matrix([]float64{1, 2, 4}, []float64{5, 6, 8}), AdmissionInput{}, true, 3}, // 4 x 0.75 (weak evidence)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, e := JudgeMatrix(tt.rows, testContract(), testObjective(), "")
			s := ProposeAdmission(m, e, testObjective(), testContract(), tt.in).Settings
			if !tt.wantBlock {
				if s.GatewayJSON != "" || s.Gateway != (Gateway{}) || len(s.VLLMFlags) != 0 {
					t.Errorf("gateway %q, flags %q: want none", s.GatewayJSON, s.VLLMFlags)
				}
				if len(s.GatewayNotes) != 1 || !strings.Contains(s.GatewayNotes[0], "no gateway block proposed") {
					t.Errorf("gateway notes = %q", s.GatewayNotes)
				}
				return
			}
			var g Gateway
			if err := json.Unmarshal([]byte(s.GatewayJSON), &g); err != nil {
				t.Fatal(err)
			}
			if g.MaxInFlight != tt.wantMIF || g.MaxInFlight < 1 || len(s.GatewayNotes) != 1 || !strings.Contains(s.GatewayNotes[0], "HTTP 503") {
				t.Errorf("gateway %+v, notes %q, want max in flight %d", g, s.GatewayNotes, tt.wantMIF)
			}
		})
	}
}

func TestJudgeOverload(t *testing.T) {
	ok := OverloadTest{Sent: "20 streams for 60 s", Outcome: OverloadRejected429, RetryAfter: true, WorkerHealthy: true, Recovered: true}
	tests := []struct {
		name     string
		t        *OverloadTest
		want     bool
		wantText string
	}{
		{"not recorded", nil, false, "not recorded"},
		{"429 with Retry-After", &ok, true, "429 and Retry-After"},
		{"bounded queue", func() *OverloadTest { o := ok; o.Outcome = OverloadBoundedQueue; return &o }(), true, "bounded queue"},
		{"429 without Retry-After", func() *OverloadTest { o := ok; o.RetryAfter = false; return &o }(), false, "without Retry-After"},
		{"timeouts", func() *OverloadTest { o := ok; o.Outcome, o.Notes = OverloadOther, "clients timed out"; return &o }(), false, "clients timed out"},
		{"worker unhealthy", func() *OverloadTest { o := ok; o.WorkerHealthy = false; return &o }(), false, "did not stay healthy"},
		{"no recovery", func() *OverloadTest { o := ok; o.Recovered = false; return &o }(), false, "did not recover"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := JudgeOverload(tt.t)
			if r.Pass != tt.want || !strings.Contains(strings.Join(r.Reasons, "; "), tt.wantText) {
				t.Errorf("JudgeOverload = %v %q, want %v with %q", r.Pass, r.Reasons, tt.want, tt.wantText)
			}
		})
	}
}

func derefI(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// Seed 000's numbers: a rate search whose ceiling is 11.3 req/s at 13.9 s
// mean end-to-end (157 in flight by Little's law) and 0.31 s TTFT at p99,
// against a p99 TTFT bound of 2 s. The queue is what the bound affords:
// a wait budget of 2 - 0.31 = 1.69 s, which 157 slots freeing at
// 157 / 13.9 = 11.29 req/s drain 19 requests of; not 157 waiting 30 s
// (about 14 s of waiting, every queued request past the bound).
func TestAdmissionQueueWithinTheBound(t *testing.T) {
	var rows []Row
	for _, rate := range []float64{5, 8, 11.3, 13} {
		r := concRow(rate, 14)
		r.LoadKind, r.AchievedConcurrency = LoadRate, nil
		r.RequestRate = F(rate)
		r.E2E.Mean = F(13.9)
		r.TTFT.P99 = F(0.31)
		r.E2E.P99 = F(14.5)
		r.Successful, r.Attempted = I(600), I(600)
		rows = append(rows, r)
	}
	rows[3].TTFT.P99 = F(2.5) // 13 req/s misses the bound
	c := testContract()
	c.LoadKind, c.Loads = LoadRate, nil
	c.Objective = Objective{Percentile: 99, MinSuccess: 0.99, TTFTMax: F(2)}
	m, e := JudgeMatrix(rows, c, c.Objective, "")
	a := ProposeAdmission(m, e, c.Objective, c, AdmissionInput{})
	if a.MaxInFlight == nil || *a.MaxInFlight != 157 {
		t.Fatalf("max in flight %v, want 157 (%q)", derefI(a.MaxInFlight), a.Reasons)
	}
	if a.WaitBudgetS == nil || math.Abs(*a.WaitBudgetS-1.69) > 1e-9 || a.QueueSize != 19 || math.Abs(a.MaxQueueAgeS-1.69) > 1e-9 {
		t.Errorf("budget %v, queue %d, age %v; want 1.69 s, 19, 1.69 s", a.WaitBudgetS, a.QueueSize, a.MaxQueueAgeS)
	}
	reasons := strings.Join(a.Reasons, "\n")
	for _, want := range []string{
		"wait budget 1.69 s: the p99 TTFT bound 2 s less the ceiling's p99 TTFT 0.31 s",
		"queue size 19: what the slots drain within the wait budget",
		// 20 ahead (19 queued and the refused one) at 11.29 req/s: 1.77 s.
		"Retry-After 2 s: the 20 requests ahead",
		"HTTP 503 when no replica is up",
		"from a summary, 500 or more requests (five beyond the p99", // the p99 wording
		"the p99's 95 % upper bound within the objective's bound",
	} {
		if !strings.Contains(reasons, want) {
			t.Errorf("reasons lack %q:\n%s", want, reasons)
		}
	}
	// A tighter bound leaves less than one request's drain time: no queue,
	// 429 at once, and the reason says so.
	c.Objective.TTFTMax = F(0.38) // 0.07 s of budget, under 1 / 11.29 s
	m, e = JudgeMatrix(rows, c, c.Objective, "")
	a = ProposeAdmission(m, e, c.Objective, c, AdmissionInput{})
	if a.QueueSize != 0 || a.MaxQueueAgeS != 0 || !strings.Contains(strings.Join(a.Reasons, "\n"), "no queue: the wait budget 0.07 s") {
		t.Errorf("queue %d age %v, reasons %q", a.QueueSize, a.MaxQueueAgeS, a.Reasons)
	}
}
