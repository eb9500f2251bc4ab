package web

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

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
	reports, _ := st.Reports(ctx)
	if len(reports) != 1 {
		t.Fatalf("%d reports", len(reports))
	}
	ims, _ := st.Imports(ctx, reports[0].ID)
	if len(ims) != 1 || ims[0].FileName != DemoResultsFile || ims[0].Rows != 5 || ims[0].User != "Admin" {
		t.Fatalf("imports %+v", ims)
	}
	if _, err := os.Stat(filepath.Join(dir, ims[0].SHA256[:2], ims[0].SHA256)); err != nil {
		t.Errorf("raw file: %v", err)
	}
	r, _ := st.Report(ctx, reports[0].ID)
	s := &Server{store: st, cfg: Config{Now: time.Now}}
	_, res, err := s.compute(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Envelope.Ceiling; c == nil || *c != 8 {
		t.Errorf("demo envelope %+v, want the ceiling at 8 streams", res.Envelope)
	}
}
