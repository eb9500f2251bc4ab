package reports

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"capplan/planner"
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

// Withdrawing from review: only a report in review, only by one who may
// edit it, only from the version they saw; it returns the report to draft
// with a history entry carrying the reason, and leaves no comment that
// would make the draft read as sent back by a reviewer.
func TestWithdrawFromReview(t *testing.T) {
	ctx := context.Background()
	st := mustOpenDB(t)
	user := func(email, name string, role store.Role) store.User {
		u, err := st.CreateUser(ctx, email, name, role, testPassword)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	admin := user("admin", "Admin", store.RoleAdmin)
	owner := user("lena@example.com", "Lena", store.RoleLead)
	editor := user("eddie@example.com", "Eddie", store.RoleLead)
	other := user("otto@example.com", "Otto", store.RoleLead)
	rev := user("rita@example.com", "Rita", store.RoleReviewer)
	id, err := st.CreateReport(ctx, owner, "Withdrawn")
	if err != nil {
		t.Fatal(err)
	}
	svc := New(st, t.TempDir(), time.Now)
	step := func(u store.User) Step {
		t.Helper()
		r, err := st.Report(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return Step{ReportID: id, BaseVersion: r.Version, User: u, Confirmed: true}
	}
	if err := st.SetEditors(ctx, store.Edit{ReportID: id, BaseVersion: step(owner).BaseVersion, UserID: owner.ID, Action: "editors", Section: "editors"}, []int64{editor.ID}); err != nil {
		t.Fatal(err)
	}
	// unchanged fails the test when a refused withdrawal moved the report:
	// its state, version or history.
	type seen struct {
		state   store.State
		version int
		changes int
	}
	look := func() seen {
		t.Helper()
		rv, err := st.Review(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		h, err := st.History(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return seen{rv.State, step(owner).BaseVersion, len(h)}
	}
	refused := func(what string, u store.User, base int, kind Kind, words string) {
		t.Helper()
		before := look()
		s := step(u)
		if base != 0 {
			s.BaseVersion = base
		}
		s.Comment = "refused anyway"
		err := svc.Withdraw(ctx, s)
		if err == nil || KindOf(err) != kind || !strings.Contains(err.Error(), words) {
			t.Errorf("%s: %v (kind %v), want kind %v saying %q", what, err, KindOf(err), kind, words)
		}
		if after := look(); after != before {
			t.Errorf("%s changed the report: %+v, was %+v", what, after, before)
		}
	}

	refused("a draft", owner, 0, KindConflict, "not in review: it is a draft")
	if err := svc.Submit(ctx, step(owner)); err != nil {
		t.Fatal(err)
	}
	const who = "only the report's owner, the leads it names as editors, or an admin may withdraw it from review"
	refused("a reviewer", rev, 0, KindForbidden, who)
	refused("a lead who is not an editor", other, 0, KindForbidden, who)
	if err := svc.Withdraw(ctx, step(other)); !errors.Is(err, ErrForbidden) {
		t.Errorf("a lead who is not an editor: %v, want ErrForbidden", err)
	}
	refused("a stale page", owner, step(owner).BaseVersion-1, KindConflict, "")
	stale := step(owner)
	stale.BaseVersion--
	var ce *store.ConflictError
	if err := svc.Withdraw(ctx, stale); !errors.As(err, &ce) {
		t.Errorf("a stale page: %v, want a store.ConflictError", err)
	}

	// A named editor withdraws it, saying why.
	s := step(editor)
	s.Comment = "  The fleet is one box short.  "
	if err := svc.Withdraw(ctx, s); err != nil {
		t.Fatalf("the editor withdraws: %v", err)
	}
	rep, err := svc.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Review.State != store.StateDraft || !rep.Review.Withdrawn || rep.Version != s.BaseVersion+1 {
		t.Errorf("withdrawn: %+v at version %d, want a withdrawn draft at %d", rep.Review, rep.Version, s.BaseVersion+1)
	}
	want := store.Change{Action: "withdrawn from review", Section: "review", Before: "in review", After: "draft: The fleet is one box short.", User: "Eddie", Version: s.BaseVersion + 1}
	if got := rep.History[0]; got.Action != want.Action || got.Section != want.Section || got.Before != want.Before || got.After != want.After || got.User != want.User || got.Version != want.Version {
		t.Errorf("history entry %+v, want %+v", got, want)
	}
	if len(rep.Comments) != 0 {
		t.Errorf("withdrawing left comments: %+v", rep.Comments)
	}
	refused("a draft withdrawn already", editor, 0, KindConflict, "not in review")

	// Sent back, submitted again, then withdrawn without a reason: a draft
	// of its editors, no longer the reviewer's send-back, on the page and
	// in the list alike.
	if err := svc.Submit(ctx, step(owner)); err != nil {
		t.Fatal(err)
	}
	s = step(rev)
	s.Comment = "Name the owner."
	if err := svc.SendBack(ctx, s); err != nil {
		t.Fatal(err)
	}
	rep, _ = svc.Load(ctx, id)
	if store.SentBack(rep.Review, rep.Comments) == nil || rep.In.Workflow.State != planner.WorkflowSentBack {
		t.Fatalf("sent back: %+v, workflow %+v", rep.Review, rep.In.Workflow)
	}
	if err := svc.Submit(ctx, step(owner)); err != nil {
		t.Fatal(err)
	}
	if err := svc.Withdraw(ctx, step(admin)); err != nil {
		t.Fatalf("an admin withdraws: %v", err)
	}
	rep, _ = svc.Load(ctx, id)
	if h := rep.History[0]; h.Action != "withdrawn from review" || h.After != "draft" {
		t.Errorf("withdrawn without a reason: %+v", h)
	}
	if sent := store.SentBack(rep.Review, rep.Comments); sent != nil || rep.In.Workflow.State != planner.WorkflowDraft {
		t.Errorf("withdrawn after a send-back: still sent back by %+v, workflow %+v", sent, rep.In.Workflow)
	}
	statuses, err := st.ReviewStatuses(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := statuses[id]; got.Label() != "draft" {
		t.Errorf("the list reads the withdrawn report as %q", got.Label())
	}

	// Approved: refused, naming who approved it.
	if err := svc.Submit(ctx, step(owner)); err != nil {
		t.Fatal(err)
	}
	e := store.Edit{ReportID: id, BaseVersion: step(rev).BaseVersion, UserID: rev.ID, Action: "approved", Section: "review"}
	if err := st.Approve(ctx, e, nil); err != nil {
		t.Fatal(err)
	}
	refused("an approved report", owner, 0, KindConflict, "approved by Rita")
}
