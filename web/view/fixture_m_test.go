package view

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"capplan/planner"
	"capplan/web/store"
)

// printOf is the print view of v, which shows every section.
func printOf(t *testing.T, v Report) string {
	t.Helper()
	return stepPageOf(t, v, PrintStep)
}

// sweepRows are concurrency rows 1, 2, 4, 8, 10 of 60 s and 600 requests
// each, every one with 20 % memory headroom; 10 fails p95 end-to-end
// (16.2 s, above the 15 s bound), so the ceiling is 8. They come from
// file, whose content hashes to sha.
func sweepRows(file, sha string) []planner.Row {
	var rows []planner.Row
	for i, l := range []float64{1, 2, 4, 8, 10} {
		e2e := 6 + l*0.8
		if l == 10 {
			e2e = 16.2
		}
		rows = append(rows, planner.Row{
			Source: planner.Source{File: file, SHA256: sha, Format: "guidellm", ToolVersion: "0.5.0"},
			Model:  "meta-llama/Llama-3.1-8B-Instruct", Index: i,
			LoadKind: planner.LoadConcurrency, Load: planner.F(l), AchievedConcurrency: planner.F(l * 0.98),
			Attempted: planner.I(600), Successful: planner.I(600), Errored: planner.I(0), Incomplete: planner.I(0),
			DurationS: planner.F(60), RequestRate: planner.F(l / 7), OutputTokenRate: planner.F(l * 30),
			PromptTokensMean: planner.F(512), OutputTokensMean: planner.F(256),
			TTFT:     planner.Stat{P50: planner.F(0.1 * l), P95: planner.F(0.15 * l), P99: planner.F(0.19 * l)},
			E2E:      planner.Stat{Mean: planner.F(e2e - 0.5), P50: planner.F(e2e - 1), P95: planner.F(e2e), P99: planner.F(e2e + 1)},
			Warnings: []planner.Warning{},
			Observed: planner.Observed{Headroom: planner.F(0.2), PeakMemoryGiB: planner.F(64)},
		})
	}
	return rows
}

// sweepRowID is the stored id of sweepReport's row i (load 1 is row 0).
func sweepRowID(i int) int64 { return int64(101 + i) }

// sweepReport is a draft report (id 2) with the demo's frozen contract
// (meta-llama/Llama-3.1-8B-Instruct on 80 GiB, loads 1 to 10, p95 TTFT
// 2 s and end-to-end 15 s, 99 % success, 10 % headroom, no OOM) and the
// rows of sweepRows imported from sweep.json (import 1, rows stored as
// sweepRowID), nothing else entered, as its owner sees it.
func sweepReport(t *testing.T) Report {
	t.Helper()
	demo := demoReport(t)
	in := planner.Inputs{
		AsOf:     demo.In.AsOf,
		Contract: demo.In.Contract,
		Workflow: &planner.Workflow{Frozen: true, State: planner.WorkflowDraft},
		Rows:     sweepRows("sweep.json", strings.Repeat("ab", 32)),
	}
	im := ImportItem{Import: store.Import{ID: 1, ReportID: 2, FileName: "sweep.json", SHA256: in.Rows[0].Source.SHA256, Format: "guidellm",
		ToolVersion: "0.5.0", Model: in.Contract.BaselineModel, SizeBytes: 1234, User: "A. Lead", At: time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)}}
	for i, r := range in.Rows {
		im.Table = append(im.Table, ImportRow{ID: sweepRowID(i), Row: r, Warnings: r.Warnings})
	}
	v := Report{
		R: store.Report{ID: 2, Title: "Matrix", Owner: "A. Lead", Version: 3, Contract: in.Contract, FrozenBy: "A. Lead",
			FrozenAt: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC), UpdatedAt: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)},
		CanEdit: true, CanEditCosts: true, CanSubmit: true,
		Imports: Imports{ReportID: 2, Version: 3, CanEdit: true, Frozen: true, Imports: []ImportItem{im}, Total: 1},
	}
	return withInputs(v, in)
}

// inReviewState is v as its owner sees it once the report is in state
// (store.StateInReview or store.StateApproved): the workflow the planner
// reads says so too, and no edit form is offered (as web's viewOf does).
func inReviewState(v Report, state store.State) Report {
	in := v.In
	w := planner.Workflow{Frozen: true, State: planner.WorkflowInReview}
	if state == store.StateApproved {
		w = planner.Workflow{Frozen: true, State: planner.WorkflowApproved, By: "B. Reviewer"}
		v.Review.ApprovedBy = "B. Reviewer"
		v.Review.ApprovedAt = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	}
	in.Workflow = &w
	v.Review.State = state
	v.CanRevise = v.CanEdit && state == store.StateApproved
	v.Locked = v.CanEdit || v.CanEditCosts
	v.CanEdit, v.CanEditCosts, v.CanSubmit = false, false, false
	v.CanWithdraw = state == store.StateInReview
	v.Imports.CanEdit = false
	return withInputs(v, in)
}

// withRowExtras is in with its rows' Source, Samples and Telemetry read
// back from testdata/demo_rows.json: planner.Row leaves them out of its
// JSON, and without them the demo's figures are not the app's (the rows'
// per-request records bound the percentiles; the GPU log joins the rows by
// their files).
func withRowExtras(t *testing.T, in planner.Inputs) planner.Inputs {
	t.Helper()
	b, err := os.ReadFile("testdata/demo_rows.json")
	if err != nil {
		t.Fatal(err)
	}
	type extras struct {
		Source    planner.Source
		Samples   []planner.Sample
		Telemetry *planner.RowTelemetry
	}
	var m map[string][]extras
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	set := func(rows []planner.Row, key string) []planner.Row {
		ex := m[key]
		if len(ex) != len(rows) {
			t.Fatalf("testdata/demo_rows.json: %d rows under %q, the fixture has %d: write both again (TestWriteViewFixture)", len(ex), key, len(rows))
		}
		out := append([]planner.Row(nil), rows...)
		for i := range out {
			out[i].Source, out[i].Samples, out[i].Telemetry = ex[i].Source, ex[i].Samples, ex[i].Telemetry
		}
		return out
	}
	in.Rows = set(in.Rows, "rows")
	in.Candidates = append([]planner.Candidate(nil), in.Candidates...)
	for i, c := range in.Candidates {
		in.Candidates[i].Rows = set(c.Rows, "candidate "+c.Name)
	}
	return in
}

// withJudgedRows is v with its main matrix's import tables holding in's
// rows (matched by file SHA-256 and index) and, as ImportRow.Warnings
// says, the warnings planner.Compute judged for each (the row's own and
// the checks against the contract), as web's importsViewOf fills them.
func withJudgedRows(v Report) Report {
	type key struct {
		sha   string
		index int
	}
	judged := map[key]planner.RowResult{}
	for _, rr := range v.Result.Matrix {
		judged[key{rr.Source.SHA256, rr.Row.Index}] = rr
	}
	items := append([]ImportItem(nil), v.Imports.Imports...)
	for i, im := range items {
		if im.CandidateID != 0 {
			continue
		}
		table := append([]ImportRow(nil), im.Table...)
		for j, ir := range table {
			if rr, ok := judged[key{ir.Row.Source.SHA256, ir.Row.Index}]; ok {
				table[j].Row, table[j].Warnings = rr.Row, rr.Warnings
			}
		}
		items[i].Table = table
	}
	v.Imports.Imports = items
	return v
}
