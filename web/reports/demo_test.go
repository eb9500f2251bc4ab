package reports

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"capplan/planner"
	"capplan/web/store"
)

func TestSeedDemoImportsResults(t *testing.T) {
	ctx := context.Background()
	st := mustOpenDB(t)
	if _, err := st.CreateUser(ctx, "admin", "Admin", store.RoleAdmin, testPassword); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for range 2 { // the second call finds the report and does nothing
		if err := SeedDemo(ctx, st, dir); err != nil {
			t.Fatal(err)
		}
	}
	list, _ := st.Reports(ctx)
	if len(list) != 1 {
		t.Fatalf("%d reports", len(list))
	}
	ims, _ := st.Imports(ctx, list[0].ID)
	// The baseline run feeds the matrix; the FP8 candidate has its own.
	if len(ims) != 2 || ims[0].FileName != DemoResultsFile || ims[0].Rows != 5 || ims[0].User != "Admin" || ims[0].CandidateID != 0 || ims[1].CandidateID == 0 {
		t.Fatalf("imports %+v", ims)
	}
	if _, err := os.Stat(filepath.Join(dir, ims[0].SHA256[:2], ims[0].SHA256)); err != nil {
		t.Errorf("raw file: %v", err)
	}
	rep, err := New(st, dir, time.Now).Load(ctx, list[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	res := rep.Result
	if c := res.Envelope.Ceiling; c == nil || *c != 8 {
		t.Errorf("demo envelope %+v, want the ceiling at 8 streams", res.Envelope)
	}
	// The demo is a complete report: every exit-check item holds, and the
	// money side is computed for the quote and all three scenarios.
	for _, it := range res.ExitCheck {
		if !it.Pass {
			t.Errorf("demo exit check fails %q: %s", it.Label, it.Detail)
		}
	}
	if len(res.Quotes) != 1 || len(res.Scenarios) != 3 || len(res.Crossovers) != 1 {
		t.Errorf("demo money: %d quotes, %d scenarios, %d crossovers", len(res.Quotes), len(res.Scenarios), len(res.Crossovers))
	}
	// The demo's busiest hours are a share of the day, as a traffic graph
	// shows them: two to three times the average rate, none implausible.
	// With random arrivals one box holds the objective up to about 0.3
	// req/s (a third of its 0.96 req/s closed-loop ceiling), some 300,000
	// requests a month at the expected busy hour: the expected scenario
	// needs 3 boxes, and owning one for the base and buying the peaks wins
	// (docs/method.md, "The hybrid plan").
	for _, s := range res.Scenarios {
		if r := s.PeakToAverage; s.Scenario.Kind() != planner.BusyDayShare || r == nil || *r < 2 || *r > 3 || s.BusyHourWarning != "" {
			t.Errorf("demo scenario %s: %s (ratio %v) %s", s.Scenario.Name, s.BusyHour, s.PeakToAverage, s.BusyHourWarning)
		}
	}
	if perBox := *res.Capacity.PerBoxRate * 3600 / res.Scenarios[1].Scenario.MonthShare(); perBox < 250_000 || perBox > 350_000 {
		t.Errorf("one demo box serves %.0f a month", perBox)
	}
	exp := res.Scenarios[1]
	if exp.BoxesNeeded == nil || *exp.BoxesNeeded != 3 || exp.Queue == nil || exp.Queue.FewerMeets || exp.Hybrid == nil || !exp.Hybrid.Wins || exp.Hybrid.Options[exp.Hybrid.Best].Boxes != 1 {
		t.Errorf("demo expected scenario: boxes %v, queue %+v, hybrid %+v", exp.BoxesNeeded, exp.Queue, exp.Hybrid)
	}
	if res.Admission.WaitBudgetS == nil || res.Admission.QueueSize != 1 {
		t.Errorf("demo admission: wait budget %v, queue %d", res.Admission.WaitBudgetS, res.Admission.QueueSize)
	}
	if !strings.HasPrefix(res.Headline.Own.Answer, "Partly: own 1 box and buy the peaks") {
		t.Errorf("demo headline %q", res.Headline.Own.Answer)
	}
	// The demo sells the box's tokens internally: the provider view shows
	// the utilisation that covers it, and a positive margin above it.
	if pv := res.Provider; pv == nil || pv.BreakEvenUtilisation == nil || *pv.BreakEvenUtilisation < 0.3 || *pv.BreakEvenUtilisation > 0.6 ||
		pv.MarginAtExpected == nil || !pv.MarginAtExpected.Exact.IsPositive() {
		t.Errorf("demo provider view %+v", pv)
	}
	if res.Candidates.Decision == "" {
		t.Errorf("demo candidates have no decision")
	}
}

// mustOpenDB opens a fresh database file for one test.
func mustOpenDB(tb testing.TB) *store.Store {
	tb.Helper()
	st, err := store.Open(context.Background(), tb.TempDir()+"/capplan.db")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return st
}

const testPassword = "a long enough password"

// The demo's test date follows the day it is made, as its evidence dates
// do: a fixed date would, weeks later, leave evidence dated after the test
// and fail the demo's own exit check.
func TestDemoTestDateFollowsToday(t *testing.T) {
	want := time.Now().UTC().AddDate(0, 0, -demoTestDaysAgo).Format(time.DateOnly)
	c := DemoContract()
	if c.TestDate != want || c.Owners.Window != want+" 09:00-11:00 UTC" {
		t.Errorf("demo test date %q, window %q; want %s, 12 days before today", c.TestDate, c.Owners.Window, want)
	}
}
