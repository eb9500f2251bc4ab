package view

import (
	"fmt"
	"html"
	"strings"
	"testing"

	"capplan/planner"
)

// TestOverviewPointsAtTheRowFigures: with every row lacking the headroom
// the objective needs (sweepReport with no row's memory recorded: every
// row "not judged: missing memory headroom" but load 10's, which fails
// on its latency), the headline's answers and the path's next step name
// the figure and the row and link to that row's figures form on the
// results step, not to the matrix or to the import.
func TestOverviewPointsAtTheRowFigures(t *testing.T) {
	v := sweepReport(t)
	in := v.In
	in.Rows = append([]planner.Row(nil), in.Rows...)
	for i := range in.Rows {
		in.Rows[i].Observed = planner.Observed{OOMChecked: true}
	}
	v = withInputs(v, in)
	body := html.UnescapeString(stepPageOf(t, v, ""))
	link := fmt.Sprintf(`href="/reports/%d/results#observed-%d"`, v.R.ID, sweepRowID(0))
	for _, want := range []string{
		"Not yet: type the memory headroom (or the peak memory) of load 1 concurrent stream (sweep.json row 0) in its row's figures, or import the GPU log of the run; 3 more counted rows lack it.",
		link + `>Open the figures of load 1 concurrent stream</a>`,
		`Next step: Type the memory headroom of load 1 concurrent stream</h2>`,
		link + ` data-testid="path-next-link">Open the row's figures</a>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("overview lacks %q", want)
		}
	}
	for _, bad := range []string{"Next step: Import the results", "Go to Concurrency matrix"} {
		if strings.Contains(body, bad) {
			t.Errorf("overview says %q", bad)
		}
	}
	// The link's anchor is on the results step: the row's form.
	if results := stepPageOf(t, v, "results"); !strings.Contains(results, fmt.Sprintf(`<details id="observed-%d"`, sweepRowID(0))) {
		t.Errorf("results step has no form observed-%d", sweepRowID(0))
	}
}

// TestPathStatesOnTheOverview: a report whose costs, quote and scenarios
// are entered but whose rows lost their memory figures (the demo without
// its GPU log, its recommendation's owner not written and each row's
// figures cleared, as saving an empty figures form does) shows the costs and scenario steps
// done and the results step naming the row's figure, not "Import the
// results".
func TestPathStatesOnTheOverview(t *testing.T) {
	v := demoReport(t)
	in := v.In
	rec := *in.Recommendation
	rec.Owner = ""
	in.Recommendation = &rec
	in.Telemetry = nil // no GPU log to take the headroom from
	in.Rows = append([]planner.Row(nil), in.Rows...)
	for i := range in.Rows {
		in.Rows[i].Observed = planner.Observed{OOMChecked: true}
		in.Rows[i].Telemetry = nil
	}
	v = withInputs(v, in)
	page := html.UnescapeString(stepPageOf(t, v, ""))
	for step, done := range map[string]string{"contract": "true", "freeze": "true", "results": "false", "costs": "true", "scenarios": "true", "recommendation": "false", "submit": "false"} {
		if !strings.Contains(page, `data-testid="path-step-`+step+`" data-done="`+done+`"`) {
			t.Errorf("path step %s is not done=%s:\n%s", step, done, between(page, `data-testid="path"`, "</section>"))
		}
	}
	if !strings.Contains(page, `<h2 id="path-title">Next step: Type the memory headroom of load 1 concurrent stream</h2>`) || strings.Contains(page, "Import the results") {
		t.Errorf("path:\n%s", between(page, `data-testid="path"`, "</section>"))
	}
}
