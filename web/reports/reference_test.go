package reports

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"capplan/planner"
	"capplan/web/store"
)

// demoReference is a reference row for the demo's box (an H100, Llama
// 3.1 8B in BF16, 512/256 tokens) at concurrency conc.
func demoReference(conc, intvty, perGPU float64) planner.ReferenceRow {
	return planner.ReferenceRow{Source: "InferenceX", File: "agg_bmk.json", Date: "2026-11-20", Format: "inferencex-json",
		GPU: "h100", Model: "Llama-3.1-8B-Instruct", Precision: "bf16", Framework: "vllm", ISL: 512, OSL: 256,
		Concurrency: planner.F(conc), Interactivity: intvty, OutputPerGPU: perGPU, RandomIgnoreEOS: true, PrefixCacheOff: true}
}

// withoutReference is a serialised Result without its reference-only
// fields: the top-level "reference" and the headline's.
func withoutReference(t *testing.T, res planner.Result) []byte {
	t.Helper()
	res.Reference = nil
	res.Headline.Reference = nil
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestReferenceRowsLeaveTheDemoAlone stores a reference row at every load
// of the demo report, each matched, and compares the computed report
// loaded before and after byte for byte but for the reference-only fields:
// the ceiling, admission, capacity, costs and exit check are the same.
func TestReferenceRowsLeaveTheDemoAlone(t *testing.T) {
	ctx := context.Background()
	st := mustOpenDB(t)
	admin, err := st.CreateUser(ctx, "admin", "Admin", store.RoleAdmin, testPassword)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := SeedDemo(ctx, st, dir); err != nil {
		t.Fatal(err)
	}
	list, _ := st.Reports(ctx)
	id := list[0].ID
	svc := New(st, dir, time.Now)
	before, err := svc.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	ref := &planner.ReferenceInput{}
	for i, m := range before.Result.Matrix {
		ref.Rows = append(ref.Rows, demoReference(m.Load, 200-float64(i)*30, 3000-float64(i)*300))
	}
	r, _ := st.Report(ctx, id)
	if err := st.SaveSection(ctx, store.Edit{ReportID: id, BaseVersion: r.Version, UserID: admin.ID, Action: "reference rows imported", Section: SecReference}, SecReference, ref); err != nil {
		t.Fatal(err)
	}
	after, err := svc.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	rf := after.Result.Reference
	if rf == nil || rf.Matched != len(before.Result.Matrix) || rf.Plan || rf.Ratio == nil {
		t.Fatalf("reference = %+v", rf)
	}
	if a, b := withoutReference(t, before.Result), withoutReference(t, after.Result); !bytes.Equal(a, b) {
		i := 0
		for i < len(a) && i < len(b) && a[i] == b[i] {
			i++
		}
		t.Errorf("the reference rows changed the report at byte %d:\n%s\n%s", i, a[max(0, i-100):min(len(a), i+100)], b[max(0, i-100):min(len(b), i+100)])
	}
	if !after.Result.ExitPass {
		t.Error("the demo's exit check fails with reference rows")
	}
}

// TestPlanIsNotApprovable: a report of reference rows only is a plan; it
// can be submitted only with its failing items confirmed, and a reviewer's
// approval is refused, saying why.
func TestPlanIsNotApprovable(t *testing.T) {
	ctx := context.Background()
	st := mustOpenDB(t)
	lead, err := st.CreateUser(ctx, "lead@example.com", "Lead", store.RoleLead, testPassword)
	if err != nil {
		t.Fatal(err)
	}
	rev, err := st.CreateUser(ctx, "rita@example.com", "Rita", store.RoleReviewer, testPassword)
	if err != nil {
		t.Fatal(err)
	}
	id, err := st.CreateReport(ctx, lead, "Plan for an H100")
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SaveContract(ctx, store.Edit{ReportID: id, BaseVersion: 1, UserID: lead.ID, Action: "contract edited", Section: "contract"}, DemoContract(), nil); err != nil {
		t.Fatal(err)
	}
	ref := &planner.ReferenceInput{Rows: []planner.ReferenceRow{demoReference(4, 120, 2500), demoReference(32, 40, 6000)}}
	if err := st.SaveSection(ctx, store.Edit{ReportID: id, BaseVersion: 2, UserID: lead.ID, Action: "reference rows imported", Section: SecReference}, SecReference, ref); err != nil {
		t.Fatal(err)
	}
	svc := New(st, "", time.Now)
	rep, err := svc.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if rf := rep.Result.Reference; rf == nil || !rf.Plan || !strings.HasPrefix(rep.Result.Headline.Line, "Plan") {
		t.Fatalf("not a plan: %+v, line %q", rf, rep.Result.Headline.Line)
	}
	step := func(u store.User, confirmed bool) Step {
		r, _ := st.Report(ctx, id)
		return Step{ReportID: id, BaseVersion: r.Version, User: u, Confirmed: confirmed}
	}
	if err := svc.Submit(ctx, step(lead, false)); err == nil || !strings.Contains(err.Error(), "Evidence from the box, not only the public frontier") {
		t.Fatalf("submit of a plan: %v", err)
	}
	if err := svc.Submit(ctx, step(lead, true)); err != nil {
		t.Fatal(err)
	}
	err = svc.Approve(ctx, step(rev, true))
	if err == nil || !strings.Contains(err.Error(), "Evidence from the box, not only the public frontier") {
		t.Fatalf("approval of a plan: %v", err)
	}
	if rv, _ := st.Review(ctx, id); rv.Approved() {
		t.Fatal("a plan was approved")
	}
}
