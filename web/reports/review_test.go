package reports

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"capplan/web/store"
)

// The review steps hold their rules without HTTP: a report is submitted,
// approved only when confirmed, approved reports refuse further steps, a
// send-back needs a comment, and only editors start a revision.
func TestReviewSteps(t *testing.T) {
	ctx := context.Background()
	st := mustOpenDB(t)
	admin, err := st.CreateUser(ctx, "admin", "Admin", store.RoleAdmin, testPassword)
	if err != nil {
		t.Fatal(err)
	}
	rev, err := st.CreateUser(ctx, "rita@example.com", "Rita", store.RoleReviewer, testPassword)
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
	step := func(u store.User) Step {
		r, err := st.Report(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return Step{ReportID: id, BaseVersion: r.Version, User: u}
	}
	if err := svc.Submit(ctx, step(admin)); err != nil {
		t.Fatal(err)
	}

	s := step(rev)
	s.Comment = "   "
	if err := svc.SendBack(ctx, s); KindOf(err) != KindInvalid || !strings.Contains(err.Error(), "Comment: required") {
		t.Errorf("send back without a comment: %v (kind %v)", err, KindOf(err))
	}
	if err := svc.Approve(ctx, step(rev)); KindOf(err) != KindInvalid || !strings.Contains(err.Error(), "Confirm") {
		t.Errorf("approve unconfirmed: %v", err)
	}
	s = step(rev)
	s.Confirmed = true
	if err := svc.Approve(ctx, s); err != nil {
		t.Fatalf("approve: %v", err)
	}
	rep, err := svc.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Review.Approved() || rep.SnapshotAt.IsZero() {
		t.Errorf("approved %v, snapshot at %v", rep.Review.Approved(), rep.SnapshotAt)
	}
	if err := svc.Approve(ctx, s); KindOf(err) != KindConflict || !strings.Contains(err.Error(), "approved") {
		t.Errorf("approving twice: %v", err)
	}
	if err := svc.ReadOnly(ctx, id); KindOf(err) != KindConflict {
		t.Errorf("ReadOnly of an approved report: %v", err)
	}

	if _, err := svc.Revise(ctx, rev, id); !errors.Is(err, ErrForbidden) {
		t.Errorf("a reviewer started a revision: %v", err)
	}
	next, err := svc.Revise(ctx, admin, id)
	if err != nil || next == id {
		t.Fatalf("revise: %d, %v", next, err)
	}
	if err := svc.ReadOnly(ctx, next); err != nil {
		t.Errorf("the revision is read-only: %v", err)
	}
}
