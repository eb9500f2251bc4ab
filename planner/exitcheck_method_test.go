package planner

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// exitItemOf returns the exit item with id, and whether it is listed.
func exitItemOf(r Result, id string) (ExitItem, bool) {
	for _, it := range r.ExitCheck {
		if it.ID == id {
			return it, true
		}
	}
	return ExitItem{}, false
}

func mustItem(t *testing.T, r Result, id string, pass bool, detail string) {
	t.Helper()
	it, ok := exitItemOf(r, id)
	if !ok {
		t.Fatalf("no %s item", id)
	}
	if it.Pass != pass || !strings.Contains(it.Detail, detail) {
		t.Errorf("%s: pass %v (%q), want %v with %q", id, it.Pass, it.Detail, pass, detail)
	}
	if !pass && r.ExitPass {
		t.Errorf("%s fails but ExitPass is true", id)
	}
}

// loosenedInputs: results exist, then p95 end-to-end 15 s is raised to
// 20 s so that load 10 (16.2 s) passes.
func loosenedInputs() Inputs {
	in := demoInputs()
	orig := in.Contract.Objective.String()
	in.Contract.Objective.E2EMax = F(20)
	in.Amendments = []Amendment{{Field: "objective", OldValue: orig, NewValue: in.Contract.Objective.String(),
		Reason: "the 10-stream row misses by a second", Who: "A. Lead", When: "2026-11-21", ResultsExisted: true}}
	return in
}

func TestExitLoosenedObjectiveNeedsAReviewersAcceptance(t *testing.T) {
	in := loosenedInputs()
	r := Compute(in)
	if !r.ObjectiveLoosened || *r.Envelope.Ceiling != 10 {
		t.Fatalf("loosened %v, envelope %s", r.ObjectiveLoosened, r.Envelope.Text)
	}
	mustItem(t, r, "objective_loosened", false, "end-to-end bound raised from 15s to 20s")

	// Accepted in writing, for this objective: it passes.
	in.LooseningAccepted = &LooseningAcceptance{Objective: r.ObjectiveText, By: "B. Reviewer", At: "2026-11-22", Text: "10 streams at 16 s is fine for the support desk"}
	r = Compute(in)
	mustItem(t, r, "objective_loosened", true, "accepted by B. Reviewer on 2026-11-22")
	if !r.ExitPass {
		t.Errorf("exit check fails: %+v", r.ExitCheck)
	}

	// Loosened again after the acceptance: the acceptance no longer holds.
	older := in.Contract.Objective.String()
	in.Contract.Objective.E2EMax = F(25)
	in.Amendments = append(in.Amendments, Amendment{Field: "objective", OldValue: older, NewValue: in.Contract.Objective.String(), Reason: "more", ResultsExisted: true})
	mustItem(t, Compute(in), "objective_loosened", false, "accept the objective in force")

	// An acceptance without words is none.
	in = loosenedInputs()
	in.LooseningAccepted = &LooseningAcceptance{Objective: Compute(in).ObjectiveText, By: "B. Reviewer"}
	mustItem(t, Compute(in), "objective_loosened", false, "must accept it in writing")
}

func TestExitRestoringTheObjectiveClearsTheMark(t *testing.T) {
	in := loosenedInputs()
	loose := in.Contract.Objective.String()
	in.Contract.Objective.E2EMax = F(15)
	in.Amendments = append(in.Amendments, Amendment{Field: "objective", OldValue: loose, NewValue: in.Contract.Objective.String(),
		Reason: "back to the original", ResultsExisted: true})
	r := Compute(in)
	if r.ObjectiveLoosened || len(r.Loosening) != 0 {
		t.Errorf("still loosened: %q", r.Loosening)
	}
	if _, ok := exitItemOf(r, "objective_loosened"); ok {
		t.Error("the loosened item is still listed")
	}
	if !r.Amendments[0].LoosenedAfterResults {
		t.Error("the first amendment lost its own record")
	}
	if *r.Envelope.Ceiling != 8 || !r.ExitPass {
		t.Errorf("envelope %s, exit pass %v", r.Envelope.Text, r.ExitPass)
	}
}

func TestExitFailedGateBlocks(t *testing.T) {
	in := demoInputs()
	in.Recommendation.Gates[0] = NonFinancialGate{Name: "data location", Pass: false, Note: "prompts may not leave the EU"}
	mustItem(t, Compute(in), "gates", false, "data location gate fails: prompts may not leave the EU")
	mustItem(t, Compute(demoInputs()), "gates", true, "data location, capability, contract, recovery, exit")
}

func TestExitCostlierDecisionNeedsJustification(t *testing.T) {
	// The demo keeps self-hosting at 36.92 per 1,000 while api-a costs
	// 30.00 in the expected scenario.
	in := demoInputs()
	in.Recommendation.Justification = ""
	mustItem(t, Compute(in), "decision_justified", false, "keeping self-hosting (36.92 per 1,000) while api-a costs 30.00 per 1,000 in the expected scenario: write why")
	in.Recommendation.Justification = "prompts stay on our hardware"
	mustItem(t, Compute(in), "decision_justified", true, "prompts stay on our hardware")

	// Stopping while self-hosting is cheaper needs words too; stopping
	// while the API is cheaper does not.
	in = demoInputs()
	in.Recommendation.Decision, in.Recommendation.Justification = "stop", ""
	mustItem(t, Compute(in), "decision_justified", true, "the cheaper option")
	in.Quotes = []Quote{flatQuote("api-a", "0.09")}
	mustItem(t, Compute(in), "decision_justified", false, "stopping self-hosting")
}

func TestExitCeilingMemoryUnknownFails(t *testing.T) {
	in := demoInputs()
	in.Rows[3].Observed.OOMChecked = false // the ceiling row (8 streams)
	r := Compute(in)
	mustItem(t, r, "ceiling_memory", false, "whether 8 concurrent streams saw an OOM or a restart is not recorded")
	// The row's check says unknown, not a pass.
	for _, c := range r.Matrix[3].Verdict.Checks {
		if c.Criterion == "no_oom" && (c.Pass != nil || c.Text != "OOM or restart not recorded") {
			t.Errorf("no_oom check = %+v", c)
		}
	}
	// (A ceiling row without headroom cannot be: the row would not be
	// judged, so the ceiling would be lower.)
	mustItem(t, Compute(demoInputs()), "ceiling_memory", true, "8 concurrent streams: headroom 20 %, no OOM or restart")
}

func TestExitMixedCurrencies(t *testing.T) {
	in := demoInputs()
	usd := flatQuote("us-api", "0.03")
	usd.Currency = "USD"
	in.Quotes = append(in.Quotes, usd)
	r := Compute(in)
	mustItem(t, r, "currency", false, "quote us-api")
	for _, s := range r.Scenarios {
		for _, o := range s.Options {
			if o.Option == "us-api" {
				t.Errorf("the USD quote is compared in %s: %+v", s.Scenario.Name, o)
			}
		}
	}
	in.ExchangeRates = []ExchangeRate{{Currency: "USD", Rate: Fig("0.92", "EUR/USD", "ECB reference rate", "2026-11-28")}}
	mustItem(t, Compute(in), "currency", true, "USD at 0.92 (ECB reference rate, 2026-11-28)")
}

func TestExitCountedRowWithABlockingProblem(t *testing.T) {
	in := demoInputs()
	in.Rows[3].Warnings = append(in.Rows[3].Warnings, Warning{Code: "rate-mismatch", Message: "requested 8 req/s but achieved 5 req/s"})
	mustItem(t, Compute(in), "counted_rows", false, "row 8 concurrent streams (c.json row 3): requested 8 req/s but achieved 5 req/s")
	// What a run says of itself blocks as well: not valid for submission,
	// requests over the context window.
	for _, code := range []string{"submission-invalid", "context-overflow"} {
		in = demoInputs()
		in.Rows[3].Warnings = append(in.Rows[3].Warnings, Warning{Code: code, Message: "flagged " + code})
		mustItem(t, Compute(in), "counted_rows", false, "row 8 concurrent streams (c.json row 3): flagged "+code)
	}
	// The same problem on a row that does not count blocks nothing.
	in = demoInputs()
	q := qwenRow()
	q.Warnings = []Warning{{Code: "cancelled", Message: "the run was cancelled"}}
	in.Rows = append(in.Rows, q)
	mustItem(t, Compute(in), "counted_rows", true, "1 row off the contract shown and not counted")
}

// Per-row figures are judged on counted rows only, and a row is named by
// its load, its file and its place in it: a not-judged row at load 2 that
// does not count blocks nothing, and the counted row 2 of the same file is
// told apart from it.
func TestExitRowFiguresOnCountedRows(t *testing.T) {
	in := demoInputs()
	off := concRow(2, 6)
	off.Index = 5
	off.Model = "qwen-2.5-7b"
	off.Observed.Headroom, off.Observed.PeakMemoryGiB = nil, nil // not judged, but it does not count
	in.Rows = append(in.Rows, off)
	r := Compute(in)
	mustItem(t, r, "row_figures", true, "every counted row has the figures the objective needs")

	in.Rows[1].Observed.Headroom, in.Rows[1].Observed.PeakMemoryGiB = nil, nil // the counted row 2 of c.json
	it, _ := exitItemOf(Compute(in), "row_figures")
	if it.Pass || !strings.Contains(it.Detail, "row 2 concurrent streams (c.json row 1): not judged") || strings.Contains(it.Detail, "row 5") {
		t.Errorf("row_figures = %+v, want the counted row 2 (c.json row 1) only", it)
	}

	// Rows exist but none counts: nothing is judged, and that fails.
	in = demoInputs()
	for i := range in.Rows {
		in.Rows[i].Model = "qwen-2.5-7b"
	}
	mustItem(t, Compute(in), "row_figures", false, "no counted rows")
}

// amendAfterResults amends in's contract to next as the contract form
// does (Amend, results existing), by A. Lead on 2026-11-21. The test
// contract leaves out owners and rollback, which Amend asks of a frozen
// contract; the amendments it lists are what matters here.
func amendAfterResults(t *testing.T, in *Inputs, next Contract, reason string) {
	t.Helper()
	as, _ := Amend(in.Contract, next, true, reason)
	if len(as) == 0 {
		t.Fatal("Amend lists no amendment")
	}
	for i := range as {
		as[i].Who, as[i].When = "A. Lead", "2026-11-21"
	}
	in.Contract = next
	in.Amendments = append(in.Amendments, as...)
}

func TestExitAmendmentAfterResultsNeedsAReviewersAcceptance(t *testing.T) {
	// Results exist, then the workload's output tokens go from 128 to
	// 135 (within tolerance, so every row still counts).
	in := demoInputs()
	if it, ok := exitItemOf(Compute(in), "amended_after_results"); ok {
		t.Fatalf("nothing amended, yet %+v", it)
	}
	next := in.Contract
	next.Workload.OutputTokens = 135
	amendAfterResults(t, &in, next, "the prompts file was trimmed")
	r := Compute(in)
	want := "workload: changed from 256 prompt tokens → 128 output tokens, synthetic, varied prompts, mean tokens within ±10 % to 256 prompt tokens → 135 output tokens"
	if len(r.AmendedAfterResults) != 1 || !strings.HasPrefix(r.AmendedAfterResults[0], want) {
		t.Fatalf("amended = %q, want %q", r.AmendedAfterResults, want)
	}
	mustItem(t, r, "amended_after_results", false, "(by A. Lead on 2026-11-21: the prompts file was trimmed)): a reviewer must accept it in writing before approval")

	in.AmendmentAccepted = &AmendmentAcceptance{Terms: r.AmendedTerms, By: "B. Reviewer", At: "2026-11-22", Text: "135 tokens is what production sends"}
	r = Compute(in)
	mustItem(t, r, "amended_after_results", true, "accepted by B. Reviewer on 2026-11-22: 135 tokens is what production sends")
	if !r.ExitPass {
		t.Errorf("exit check fails: %+v", r.ExitCheck)
	}

	// Amended again: the acceptance names other terms.
	next = in.Contract
	next.Workload.OutputTokens = 138
	amendAfterResults(t, &in, next, "again")
	mustItem(t, Compute(in), "amended_after_results", false, "accept the terms in force")

	// Restored to the workload results were judged against: nothing to accept.
	next = in.Contract
	next.Workload.OutputTokens = 128
	amendAfterResults(t, &in, next, "back to the original")
	if it, ok := exitItemOf(Compute(in), "amended_after_results"); ok {
		t.Errorf("restored workload still shows %+v", it)
	}

	// Widening the tolerance alone changes what counts: it is an amendment.
	in = demoInputs()
	next = in.Contract
	next.Workload.Tolerance = 0.25
	amendAfterResults(t, &in, next, "the dataset's lengths vary")
	mustItem(t, Compute(in), "amended_after_results", false, "mean tokens within ±10 % to 256 prompt tokens → 128 output tokens, synthetic, varied prompts, mean tokens within ±25 %")

	// An amendment recorded before amendments held the tolerance still
	// compares: its old value is the workload without it.
	in = demoInputs()
	in.Amendments = []Amendment{{Field: "workload", OldValue: in.Contract.Workload.String(), NewValue: in.Contract.Workload.String(), ResultsExisted: true}}
	if it, ok := exitItemOf(Compute(in), "amended_after_results"); ok {
		t.Errorf("an old amendment of an unchanged workload shows %+v", it)
	}

	// A workload amended before results needs nothing.
	in = demoInputs()
	next = in.Contract
	next.Workload.OutputTokens = 135
	as, _ := Amend(in.Contract, next, false, "before the run")
	in.Contract, in.Amendments = next, as
	if it, ok := exitItemOf(Compute(in), "amended_after_results"); ok {
		t.Errorf("an amendment before results shows %+v", it)
	}

	// A tightened objective after results needs the acceptance too; a
	// loosened one has its own item and not this one.
	in = demoInputs()
	old := in.Contract.Objective.String()
	next = in.Contract
	next.Objective.E2EMax = F(13)
	amendAfterResults(t, &in, next, "support wants faster")
	mustItem(t, Compute(in), "amended_after_results", false, "objective: changed from "+old+" to ")
	if it, ok := exitItemOf(Compute(loosenedInputs()), "amended_after_results"); ok {
		t.Errorf("a loosening shows the amendment item too: %+v", it)
	}
}

// A scenario whose busy hour needs more boxes than the plan allows fails
// "Demand scenarios" unless the recommendation changes the plan or says
// why it stands.
func TestExitScenarioBeyondThePlan(t *testing.T) {
	in := demoInputs()
	in.Scenarios[2].MonthlyRequests = 2_000_000 // 27.8 req/s in the busy hour, one box serves 1.53 with arrivals
	r := Compute(in)
	mustItem(t, r, "scenarios", false, "peak: the busy hour needs 19 boxes (27.78 req/s at 1.53 req/s per box), more than the plan's 1: change the plan, or say in the recommendation why it stands")
	in.Recommendation.BeyondPlan = "the peak is a yearly campaign served by the API fallback"
	mustItem(t, Compute(in), "scenarios", true, "the plan stands because the peak is a yearly campaign served by the API fallback")
	in.Recommendation.BeyondPlan, in.Recommendation.Decision = "", "change"
	mustItem(t, Compute(in), "scenarios", true, "and the recommendation is to change")
	in.MaxBoxes = 19
	in.Recommendation.Decision = "keep"
	mustItem(t, Compute(in), "scenarios", true, "low, expected and peak with busy-hour shares")
}

// The exit check's costs per 1,000 read as the scenarios show them (three
// significant figures under a cent), never rounded to cents: an API at
// 0.00647 per 1,000 is not "0.01".
func TestExitCostPer1000ShownAsTheScenarios(t *testing.T) {
	self, api := NewMoney(decimal.RequireFromString("0.0312")), NewMoney(decimal.RequireFromString("0.006472"))
	r := &Result{Scenarios: []ScenarioResult{{Scenario: Scenario{Name: "expected"}, Options: []OptionCost{
		{Option: "self-hosted", Kind: "self-hosted", CostPer1000: &self},
		{Option: "API X", Kind: "api", CostPer1000: &api},
	}}}}
	it := exitCostPer1000(Inputs{}, r)
	want := "expected scenario: self-hosted 0.0312 per 1,000, API X 0.00647 per 1,000"
	if !it.Pass || it.Detail != want {
		t.Errorf("exit check's costs = %q (pass %v), want %q", it.Detail, it.Pass, want)
	}
}
