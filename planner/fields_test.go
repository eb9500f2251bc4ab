package planner

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

func TestFieldLabel(t *testing.T) {
	for _, tc := range []struct{ key, want string }{
		{"self_hosted.labour_rate", "Operator labour loaded rate"},
		{"self_hosted.hosting.evidence_date", "Hosting (evidence date)"},
		{"objective.min_success", "Success rate at least"},
		{"objective.percentile", "Objective percentile"},
		{"routes[0].cold_start_s", "Route 1: cold start"},
		{"scenarios[1].monthly_requests", "Scenario 2: monthly requests"},
		{"quotes[X].input_per_m_tokens", "Quote X: input price per 1M tokens"},
		{"quotes[0].retry_rate.evidence_date", "Quote 1: expected retry/failure rate (evidence date)"},
		{"quotes[2]", "Quote 3"},
		{"quote.output_per_m_tokens", "Output price per 1M tokens"},
		{"scenario.busy_hour_share", "Busy-hour share"},
		{"release_revision", "Proxy / release revision"},
		{"contract.test_date", "Test date"},
		{"workload.prompt_tokens", "Prompt tokens"},
		{"owners.stop_authority", "Stop authority"},
		{"candidates[0].gate.date", "Candidate 1: regression gate date"},
		{"gate.cases", "Regression gate cases"},
		{"recommendation.review_date", "Review date"},
		{"recommendation.gates[1].note", "Gate 2: note"},
		{"admission.client_max_retries", "Client retries at most"},
		{"overload.outcome", "Overload outcome"},
		{"observed.headroom", "Memory headroom at peak"},
		{"rows[3].observed.power_watts", "Row 4: average power (W)"},
		{"headroom", "Memory headroom at peak"},
		{"max_boxes", "Boxes the plan allows"},
		{"a_b.c_d", "a b c d"},
		{"self_hosted.new_thing", "New thing"},
		{"routes[1].new_thing", "Route 2: new thing"},
		{"", ""},
	} {
		if got := FieldLabel(tc.key); got != tc.want {
			t.Errorf("FieldLabel(%q) = %q, want %q", tc.key, got, tc.want)
		}
	}
}

// TestEveryPlannerKeyHasALabel refuses every input the planner validates and
// checks each key it names, and each key Missing returns, has a label of its
// own rather than the fallback.
func TestEveryPlannerKeyHasALabel(t *testing.T) {
	neg := &Figure{Amount: decimal.NewFromInt(-1), EvidenceDate: "yesterday"}
	bad := func(float64) *float64 { return F(-1) }
	in := Inputs{
		AsOf: "soon", StaleAfterDays: -1, TokenBasis: "x", MaxBoxes: -1,
		Contract:   Contract{TestDate: "x", Objective: Objective{Percentile: 200, MinSuccess: 2, TTFTMax: F(-1), E2EMax: F(-1), TPOTMax: F(-1), ITLMax: F(-1), MinHeadroom: F(2)}},
		Admission:  AdmissionInput{OverrideMaxInFlight: I(0), QueueSize: I(-1), MaxQueueAgeS: F(0), RetryAfterS: I(0), ClientMaxRetries: I(9)},
		Overload:   &OverloadTest{Outcome: "x"},
		Candidates: []Candidate{{Gate: &RegressionGate{Date: "x"}}},
		Routes:     []Route{{Residency: "x", MemoryBudgetGiB: F(-1)}},
		SelfHosted: SelfHostedCosts{EquipmentMode: "x", PurchasePrice: neg, RentPerHour: neg, RentHoursPerMonth: neg, PowerWatts: neg,
			PowerPricePerKWh: neg, PUE: neg, PowerHoursPerMonth: neg, Facilities: neg, Hosting: neg, Support: neg, Software: neg,
			Monitoring: neg, Backup: neg, DowntimeAllowance: neg, PerRequest: neg},
		Quotes:         []Quote{{RetryRate: neg, Platform: neg, StorageNetwork: neg, Support: neg, IntegrationLabour: neg, Monitoring: neg}, {}},
		Scenarios:      []Scenario{{MonthlyRequests: -1}},
		Recommendation: &Recommendation{Decision: "x", ReviewDate: "x", Expiry: "x"},
	}
	var keys []string
	add := func(err error) {
		fes, _ := err.(FieldErrors)
		for _, fe := range fes {
			keys = append(keys, fe.Field)
		}
	}
	add(in.Validate())
	add(Contract{LoadKind: "x", Loads: []float64{-1}, RowDurationS: -1, StopAfterErrors: -1, DeviceMemoryGiB: F(0),
		Workload: Workload{PromptTokens: -1, OutputTokens: -1, Data: "x", Prompts: "x"}}.Validate())
	add(Observed{PeakMemoryGiB: bad(0), PowerWatts: bad(0), Headroom: F(2), Stopped: true}.Validate())
	add(AdmissionInput{OverrideMaxInFlight: I(0)}.Validate())
	add(OverloadTest{Outcome: "x", Date: "x"}.Validate())
	add(Candidate{ArtifactSizeGiB: bad(0), LoadedMemoryGiB: bad(0), ColdStartS: bad(0), Gate: &RegressionGate{}}.Validate())
	add(Route{Residency: "x", MemoryBudgetGiB: bad(0), ColdStartS: bad(0), AdmittedConcurrency: I(-1)}.Validate())
	add(SelfHostedCosts{}.Validate())
	add(Quote{}.Validate())
	add(Scenario{}.Validate())
	keys = append(keys, Contract{}.Missing()...)
	if len(keys) < 60 {
		t.Fatalf("only %d keys: %q", len(keys), keys)
	}
	for _, k := range keys {
		if got := FieldLabel(k); got == fallbackLabel(k) || strings.ContainsAny(got, "[]") || strings.Contains(k, "_") && strings.Contains(got, k) {
			t.Errorf("FieldLabel(%q) = %q: no label of its own", k, got)
		}
	}
}

func TestMissingLabels(t *testing.T) {
	c := testContract()
	c.ReleaseRevision, c.Owners = "", Owners{TestOwner: "x", Observer: "y", StopAuthority: "z"}
	c.Objective.TTFTMax, c.Objective.E2EMax = nil, nil
	if got, want := strings.Join(c.Missing(), ", "), "release_revision, objective.ttft_max_s, admission_proposal, rollback, owners.window"; got != want {
		t.Errorf("Missing = %q, want %q", got, want)
	}
	if got, want := strings.Join(c.MissingLabels(), ", "), "Proxy / release revision, A latency bound (TTFT or end-to-end at most), Admission proposal, Rollback, Test window"; got != want {
		t.Errorf("MissingLabels = %q, want %q", got, want)
	}
}
