package planner

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// demoInputs is a complete report that passes its exit check: rows 1, 2, 4,
// 8, 10 with 10 failing p95 end-to-end, every cost typed, three scenarios,
// one quote, a passing overload test and a recommendation.
func demoInputs() Inputs {
	rows := matrix([]float64{1, 2, 4, 8, 10}, []float64{5, 6, 8, 12, 16.2})
	rows[3].Observed.PowerWatts = F(700)
	for i := range rows {
		rows[i].Observed.OOMChecked = true
		rows[i].Index = i
	}
	self := flatSelf("2000", "0")
	self.LabourHoursPerMonth, self.LabourRate = Fig("10", "h/month", "ops plan", evDate), Fig("80", "EUR/h", "HR", evDate)
	return Inputs{
		Currency: "EUR", AsOf: "2026-11-29",
		Contract: testContract(),
		Rows:     rows,
		Overload: &OverloadTest{Sent: "20 streams for 60 s", Outcome: OverloadRejected429, RetryAfter: true, WorkerHealthy: true, Recovered: true, Date: "2026-11-02"},
		Candidates: []Candidate{
			{Name: "baseline", Baseline: true, Gate: &RegressionGate{Gate: "extraction-24", Cases: 24, Pass: true, Date: "2026-10-30"}},
		},
		SelfHosted: self,
		Quotes:     []Quote{flatQuote("api-a", "0.03")},
		MaxBoxes:   1,
		Scenarios: []Scenario{
			{Name: "low", MonthlyRequests: 20_000, BusyHourShare: 0.05},
			{Name: "expected", MonthlyRequests: 80_000, BusyHourShare: 0.05},
			{Name: "peak", MonthlyRequests: 100_000, BusyHourShare: 0.05},
		},
		Recommendation: &Recommendation{Decision: "keep", Owner: "A. Lead", ReviewDate: "2027-02-01", Expiry: "2027-06-01",
			Triggers:      []string{"utilisation below 20 %"},
			Justification: "the customer contract keeps prompts on our own hardware",
			Gates:         []NonFinancialGate{{"data location", true, "EU"}, {"capability", true, ""}, {"contract", true, ""}, {"recovery", true, ""}, {"exit", true, ""}}},
	}
}

func TestComputeDemo(t *testing.T) {
	r := Compute(demoInputs())
	for _, it := range r.ExitCheck {
		if !it.Pass {
			t.Errorf("exit item %s (%s) fails: %s", it.ID, it.Section, it.Detail)
		}
	}
	if !r.ExitPass {
		t.Error("ExitPass = false")
	}
	if r.Envelope.State != EnvelopeCeiling || *r.Envelope.Ceiling != 8 {
		t.Errorf("envelope = %s", r.Envelope.Text)
	}
	if *r.Admission.MaxInFlight != 8 {
		t.Errorf("max in flight = %d", *r.Admission.MaxInFlight)
	}
	if r.SelfHosted.PowerWattsSource != "measured at the ceiling row (typed)" {
		t.Errorf("power from %s", r.SelfHosted.PowerWattsSource)
	}
	// Capacity: 8 x 0.4 = 3.2 req/s at 100 % success closed loop; 1.53
	// with random arrivals (8 slots, a queue of 4 for 1.4 s, 0.1 % refused).
	if r.Capacity.PerBoxRate == nil || *r.Capacity.PerBoxRate != 1.53 || *r.Capacity.ClosedLoopPerBox != 3.2 {
		t.Errorf("capacity = %+v", r.Capacity)
	}
	if r.Candidates.Chosen != "baseline" || !strings.Contains(r.Candidates.Decision, "candidate baseline fits with 20 % observed headroom and meets the objective through load 8 concurrent streams") {
		t.Errorf("decision = %q", r.Candidates.Decision)
	}
	if len(r.Crossovers) != 1 || len(r.Chart.Series) != 2 || len(r.Scenarios) != 3 {
		t.Errorf("crossovers %d, series %d, scenarios %d", len(r.Crossovers), len(r.Chart.Series), len(r.Scenarios))
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"exit_pass":true`, `"envelope":`, `"cost_per_1000":`, `"gateway_json":`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("JSON lacks %s", key)
		}
	}
}

func TestComputeEmpty(t *testing.T) {
	r := Compute(Inputs{})
	if r.ExitPass || r.Envelope.State != EnvelopeNoRows || len(r.Problems) == 0 {
		t.Errorf("empty inputs: exit %v, envelope %s, problems %v", r.ExitPass, r.Envelope.State, r.Problems)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"matrix":[]`, `"scenarios":[]`, `"crossovers":[]`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("JSON lacks %s", key)
		}
	}
}

func TestComputeExitFailures(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*Inputs)
		wantID string
	}{
		{"stale evidence", func(in *Inputs) { in.SelfHosted.Hosting.EvidenceDate = "2026-01-01" }, "evidence_dates"},
		{"labour not typed", func(in *Inputs) { in.SelfHosted.LabourRate = nil }, "cost_categories"},
		{"no overload test", func(in *Inputs) { in.Overload = nil }, "overload"},
		{"no peak scenario", func(in *Inputs) { in.Scenarios = in.Scenarios[:2] }, "scenarios"},
		{"gate failed", func(in *Inputs) { in.Candidates[0].Gate.Pass = false }, "regression_gate"},
		{"no owner", func(in *Inputs) { in.Recommendation.Owner = "" }, "recommendation"},
		{"no test date", func(in *Inputs) { in.Contract.TestDate = "" }, "test_date"},
		{"missing vLLM version", func(in *Inputs) { in.Contract.VLLMVersion = "" }, "identities"},
		{"row not judged", func(in *Inputs) { in.Rows[0].Observed.Headroom, in.Rows[0].Observed.PeakMemoryGiB = nil, nil }, "row_figures"},
		{"planned row missing", func(in *Inputs) { in.Rows = in.Rows[1:] }, "rows"},
		{"no envelope", func(in *Inputs) { in.Rows[0].E2E.P95 = F(99) }, "admission"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := demoInputs()
			tt.mutate(&in)
			r := Compute(in)
			if r.ExitPass {
				t.Fatal("ExitPass = true")
			}
			for _, it := range r.ExitCheck {
				if it.ID == tt.wantID {
					if it.Pass {
						t.Errorf("%s passes: %s", it.ID, it.Detail)
					}
					return
				}
			}
			t.Errorf("no exit item %s", tt.wantID)
		})
	}
}

func TestComputeAmendments(t *testing.T) {
	tests := []struct {
		name        string
		amendments  []Amendment
		wantText    string
		wantLoose   bool
		wantCeiling float64
	}{
		{name: "none", wantText: "success>=99%,ttft_p95<=2s,e2e_p95<=15s,headroom>=10%,no_oom", wantCeiling: 8},
		{name: "loosened after results", amendments: []Amendment{{Field: "objective",
			OldValue: "success>=99%,ttft_p95<=2s,e2e_p95<=15s,headroom>=10%,no_oom",
			NewValue: "success>=99%,ttft_p95<=2s,e2e_p95<=20s,headroom>=10%,no_oom",
			Reason:   "make 10 pass", Who: "lead", When: "2026-11-03", ResultsExisted: true}},
			wantText: "e2e_p95<=20s", wantLoose: true, wantCeiling: 10},
		{name: "loosened before results", amendments: []Amendment{{Field: "objective",
			NewValue: "success>=99%,ttft_p95<=2s,e2e_p95<=20s,headroom>=10%,no_oom", Reason: "product asked"}},
			wantText: "e2e_p95<=20s", wantCeiling: 10},
		{name: "tightened after results", amendments: []Amendment{{Field: "objective",
			NewValue: "success>=99%,ttft_p95<=2s,e2e_p95<=10s,headroom>=10%,no_oom", ResultsExisted: true}},
			wantText: "e2e_p95<=10s", wantCeiling: 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := demoInputs()
			in.Amendments = tt.amendments
			if n := len(tt.amendments); n > 0 {
				o, err := ParseObjective(tt.amendments[n-1].NewValue)
				if err != nil {
					t.Fatal(err)
				}
				in.Contract.Objective = o // the web layer stores the amended contract
			}
			r := Compute(in)
			if !strings.Contains(r.ObjectiveText, tt.wantText) {
				t.Errorf("objective in force = %q, want %q", r.ObjectiveText, tt.wantText)
			}
			if r.ObjectiveLoosened != tt.wantLoose {
				t.Errorf("loosened = %v (%q)", r.ObjectiveLoosened, r.Loosening)
			}
			if tt.wantLoose && !strings.Contains(strings.Join(r.Loosening, ";"), "end-to-end bound raised from 15s to 20s (by lead on 2026-11-03, after results existed: make 10 pass)") {
				t.Errorf("loosening = %q", r.Loosening)
			}
			if r.Envelope.Ceiling == nil || *r.Envelope.Ceiling != tt.wantCeiling {
				t.Errorf("envelope = %s", r.Envelope.Text)
			}
			for _, w := range r.ContractWarnings {
				if w.Code == "objective-amendment-mismatch" {
					t.Errorf("unexpected %s", w.Message)
				}
			}
		})
	}
}

func TestMatrixWarningsLoadKinds(t *testing.T) {
	rate := func(rps float64) Row {
		r := concRow(rps, 5)
		r.LoadKind, r.Load, r.AchievedConcurrency = LoadRate, F(rps), nil
		return r
	}
	sync := concRow(1, 5)
	sync.LoadKind = LoadSynchronous
	// A contract of no load kind counts rows of every kind; the test
	// contract's (concurrency) leaves rate rows out.
	tests := []struct {
		name    string
		rows    []Row
		loads   []float64
		anyKind bool
		want    []string // "code: message" of every warning, in order
	}{
		{"rate 10 and concurrency 10 are not duplicates", []Row{concRow(10, 5), rate(10)}, []float64{10}, true, nil},
		{"rows of another kind do not count, and mix nothing", []Row{concRow(10, 5), rate(10)}, []float64{10}, false, nil},
		{"two concurrency rows at 10", []Row{concRow(10, 5), concRow(10, 6)}, []float64{10}, false,
			[]string{"duplicate-load: 2 rows at load 10 concurrent streams"}},
		{"two rate rows at 2.5", []Row{rate(2.5), rate(2.5), rate(2.5)}, nil, true,
			[]string{"duplicate-load: 3 rows at load 2.5 req/s"}},
		{"rows that do not count are no duplicates", []Row{rate(2.5), rate(2.5), rate(2.5)}, nil, false, nil},
		{"synchronous is concurrency 1", []Row{sync, concRow(1, 5)}, []float64{1}, false,
			[]string{"duplicate-load: 2 rows at load 1 concurrent stream"}},
		{"a rate row does not fill a planned concurrency row", []Row{concRow(2, 5), rate(4)}, []float64{2, 4}, false, []string{
			"planned-row-missing: the contract plans load 4 concurrent streams but no row has it"}},
		{"every missing planned row in one warning", []Row{concRow(2, 5)}, []float64{1, 2, 4, 8}, false, []string{
			"planned-row-missing: the contract plans loads 1, 4 and 8 concurrent streams but no row has them"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := testContract()
			c.Loads = tt.loads
			if tt.anyKind {
				c.LoadKind = ""
			}
			m, _ := JudgeMatrix(tt.rows, c, c.Objective, c.BaselineModel)
			var got []string
			for _, w := range matrixWarnings(m, c) {
				got = append(got, w.Code+": "+w.Message)
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestExitCheckRefusedInputs(t *testing.T) {
	tests := []struct {
		name         string
		mutate       func(*Inputs)
		wantPass     bool
		wantSection  string
		wantSections []string
		wantDetail   string
		wantObjFail  string // the objective item's detail, "" when it passes
	}{
		{name: "objective not written yet is not a refused input", mutate: func(in *Inputs) { in.Contract.Objective = Objective{} },
			wantPass: true, wantSection: "contract", wantObjFail: "not written yet"},
		{name: "a half-written objective is refused", mutate: func(in *Inputs) { in.Contract.Objective = Objective{MinSuccess: 0.99, E2EMax: F(15)} },
			wantSection: "contract", wantDetail: "Objective percentile: must be between 0 and 100, got 0", wantObjFail: "Objective percentile: must be between 0 and 100, got 0"},
		{name: "labour lives in the costs", mutate: func(in *Inputs) { in.SelfHosted.LabourRate = nil },
			wantSection: "costs", wantDetail: "Operator labour loaded rate: operator labour must be typed"},
		{name: "a quote lives in the costs", mutate: func(in *Inputs) { in.Quotes[0].InputPerMTokens = nil },
			wantSection: "costs", wantDetail: "Quote 1: input price per 1M tokens: required"},
		{name: "scenarios", mutate: func(in *Inputs) { in.Scenarios[1].BusyHourShare = 2 },
			wantSection: "scenarios", wantDetail: "Scenario 2: busy-hour share: a fraction above 0 and at most 1"},
		{name: "recommendation", mutate: func(in *Inputs) { in.Recommendation.Expiry = "soon" },
			wantSection: "recommendation", wantDetail: "Expiry: want a date YYYY-MM-DD"},
		{name: "admission", mutate: func(in *Inputs) { in.Admission.OverrideMaxInFlight = I(4) },
			wantSection: "envelope", wantDetail: "Reason for the override: an override of max in flight needs a reason"},
		{name: "routes", mutate: func(in *Inputs) { in.Routes = []Route{{Name: "a", Residency: "sometimes"}} },
			wantSection: "residency", wantDetail: "Route 1: resident or switched: want resident or switched"},
		{name: "two places", mutate: func(in *Inputs) { in.Scenarios[0].MonthlyRequests = -1; in.SelfHosted.LabourRate = nil },
			wantSection: "costs", wantSections: []string{"costs", "scenarios"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := demoInputs()
			tt.mutate(&in)
			r := Compute(in)
			for _, it := range r.ExitCheck {
				switch it.ID {
				case "inputs_valid":
					if it.Pass != tt.wantPass || it.Section != tt.wantSection || !slices.Equal(it.Sections, tt.wantSections) || !strings.Contains(it.Detail, tt.wantDetail) {
						t.Errorf("inputs_valid = pass %v, fix in %s %v, detail %q; want pass %v in %s %v with %q",
							it.Pass, it.Section, it.Sections, it.Detail, tt.wantPass, tt.wantSection, tt.wantSections, tt.wantDetail)
					}
				case "objective":
					if tt.wantObjFail == "" && !it.Pass || tt.wantObjFail != "" && (it.Pass || !strings.Contains(it.Detail, tt.wantObjFail)) {
						t.Errorf("objective = pass %v, %q; want %q", it.Pass, it.Detail, tt.wantObjFail)
					}
				}
			}
		})
	}
}
