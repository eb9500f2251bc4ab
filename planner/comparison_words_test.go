package planner

import (
	"regexp"
	"strings"
	"testing"
)

// Sentences for people say a comparison in words ("16.2 s, above the
// 15 s bound", "at least 99 %", "within 2 s"), never as the objective's
// syntax writes it (<=, >=): the objective itself keeps its syntax
// (Objective.String), but a check, a basis or a reason is read, not
// pasted.
func TestComparisonsInWords(t *testing.T) {
	symbol := regexp.MustCompile(`<=|>=| < | > `)
	check := func(what, text string, want ...string) {
		t.Helper()
		if symbol.MatchString(text) {
			t.Errorf("%s says a comparison as a symbol: %q", what, text)
		}
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s = %q, want it to contain %q", what, text, w)
			}
		}
	}
	o := testObjective()

	pass := Evaluate(concRow(8, 12.1), o)
	var texts []string
	for _, c := range pass.Checks {
		texts = append(texts, c.Text)
	}
	check("a passing row's checks", strings.Join(texts, "; "), "success 100 %, at least 99 %", "p95 end-to-end 12.1 s, within the 15 s bound")
	fail := concRow(10, 16.2)
	fail.Observed.Headroom = F(0.08)
	check("a failing row's summary", Evaluate(fail, o).Summary, "p95 end-to-end 16.2 s, above the 15 s bound", "memory headroom 8 %, below 10 %")

	g, ok, why := CountGoodput(samples(10), o)
	if !ok {
		t.Fatal(why)
	}
	check("goodput's bounds", g.Bounds, "TTFT within 2 s, end-to-end within 15 s")

	fits := CheckResidency([]Route{{Name: "a", Residency: "resident", MemoryBudgetGiB: F(40)}}, F(80), o)
	check("residency that fits", strings.Join(fits.Reasons, "; "), "= 40 GiB, within the 72 GiB usable")
	over := CheckResidency([]Route{{Name: "a", Residency: "resident", MemoryBudgetGiB: F(40)}, {Name: "b", Residency: "resident", MemoryBudgetGiB: F(35)}}, F(80), o)
	check("residency that does not fit", strings.Join(over.Reasons, "; "), "= 75 GiB, more than the 72 GiB usable")

	self := SelfHostedMonthly(flatSelf("3000", "0.01"), nil)
	x := FindCrossover(self, QuoteMonthly(flatQuote("api", "0.005"), 256, 128, "contract"), bigCapacity(), 0.1)
	check("no crossover", x.Text+" "+x.Reason, "(V_api 0.005, at most V_local 0.01)")

	r := Compute(fleetInputs())
	if low := r.Scenarios[0].Sizing; low == nil || low.Serving != 1 {
		t.Fatalf("fleet's low scenario sizing %+v", low)
	} else {
		check("one serving box's basis", low.Basis, " is at most ", ": 1 serving")
	}

	q := Compute(queueExampleInputs()).Capacity.Queue
	if q == nil {
		t.Fatal("no queue sizing")
	}
	check("sizing with arrivals", q.Basis, "the highest rate at which p95 client TTFT (queue wait included) is within 2 s and at most")
}
