package web

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/store"
)

// viewFixture is the demo report's view model as web/view's component
// tests read it (web/view/testdata/demo_report.json): what the page would
// render for the demo's owner, without the computed Result, which the tests
// compute again from In with planner.Compute.
const viewFixture = "view/testdata/demo_report.json"

// TestWriteViewFixture writes viewFixture from the demo seeded into a
// temporary database, when CAPPLAN_WRITE_VIEW_FIXTURE=1 asks for it (after
// a change of the demo or of the view model):
//
//	CAPPLAN_WRITE_VIEW_FIXTURE=1 go test ./web -run TestWriteViewFixture
func TestWriteViewFixture(t *testing.T) {
	if os.Getenv("CAPPLAN_WRITE_VIEW_FIXTURE") != "1" {
		t.Skip("writes " + viewFixture + " when CAPPLAN_WRITE_VIEW_FIXTURE=1")
	}
	ctx := context.Background()
	st := mustOpenDB(t)
	owner, err := st.CreateUser(ctx, "admin", "A. Lead", store.RoleAdmin, testPassword)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := SeedDemo(ctx, st, dir); err != nil {
		t.Fatal(err)
	}
	list, err := st.Reports(ctx)
	if err != nil || len(list) != 1 {
		t.Fatalf("reports %v %v", list, err)
	}
	rep, err := reports.New(st, dir, time.Now).Load(ctx, list[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	v := viewOf(rep, &owner)
	v.Derived = nil
	v.Result = planner.Result{}
	b, err := json.MarshalIndent(v, "", "\t")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll("view/testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(viewFixture, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}
