package reports

import (
	"context"
	"fmt"
	"strings"

	"capplan/planner"
	"capplan/web/store"
)

// Refusal is a step of the workflow refused for a reason the user can act
// on: its text is meant for them, its kind sets the answer's status.
type Refusal struct {
	Msg  string
	kind Kind
}

func (e *Refusal) Error() string { return e.Msg }

// ErrorKind is the refusal's kind.
func (e *Refusal) ErrorKind() Kind { return e.kind }

// forbiddenRefusal is a refusal saying who may do what was asked; it is
// ErrForbidden for errors.Is.
type forbiddenRefusal struct{ Refusal }

func (e *forbiddenRefusal) Is(target error) bool { return target == ErrForbidden }

func refuse(kind Kind, format string, args ...any) error {
	return &Refusal{Msg: fmt.Sprintf(format, args...), kind: kind}
}

// Step is one review step asked for by a user, from the version of the
// report they saw.
type Step struct {
	ReportID    int64
	BaseVersion int
	User        store.User
	Confirmed   bool   // approve: the reviewer ticked that they read the exit check; submit: the lead ticked to submit with items failing
	Comment     string // send back: what must change; withdraw: why, if the lead says
}

func (st Step) edit(action string) store.Edit {
	return store.Edit{ReportID: st.ReportID, BaseVersion: st.BaseVersion, UserID: st.User.ID, Action: action, Section: "review"}
}

// ReadOnly refuses a change to an approved report, naming who approved it.
func (s *Service) ReadOnly(ctx context.Context, reportID int64) error {
	rv, err := s.Store.Review(ctx, reportID)
	if err != nil {
		return err
	}
	if rv.Approved() {
		ro := &store.ReadOnlyError{ReportID: reportID, ApprovedBy: rv.ApprovedBy, ApprovedAt: rv.ApprovedAt}
		return refuse(KindConflict, "%s.", capitalize(ro.Error()))
	}
	return nil
}

// Submit sends a draft for review. While exit-check items fail it asks
// first: it is refused, naming them, unless the lead confirmed that the
// report goes to review with them failing (a reviewer cannot approve it
// until each holds).
func (s *Service) Submit(ctx context.Context, st Step) error {
	rep, err := s.Load(ctx, st.ReportID)
	if err != nil {
		return err
	}
	if failing := FailingItems(rep.Result.ExitCheck); len(failing) > 0 && !st.Confirmed {
		n := "1 exit-check item fails"
		if len(failing) > 1 {
			n = fmt.Sprintf("%d exit-check items fail", len(failing))
		}
		return refuse(KindInvalid, "%s: %s. A reviewer cannot approve the report until each holds: tick “Submit with these items failing” to submit it as it is, or go back and fix them first.", n, strings.Join(failing, "; "))
	}
	e := st.edit("submitted for review")
	e.Before, e.After = store.StateDraft.Label(), store.StateInReview.Label()
	return s.Store.Transition(ctx, e, store.StateInReview, "")
}

// Approve approves a report in review: refused while it is approved
// already, while any exit-check item fails, and unless the reviewer
// confirmed (approving makes the report read-only).
func (s *Service) Approve(ctx context.Context, st Step) error {
	rep, err := s.Load(ctx, st.ReportID)
	if err != nil {
		return err
	}
	if rep.Review.Approved() {
		return s.ReadOnly(ctx, st.ReportID)
	}
	if failing := FailingItems(rep.Result.ExitCheck); len(failing) > 0 {
		return refuse(KindInvalid, "The report cannot be approved while exit-check items fail: %s.", strings.Join(failing, "; "))
	}
	if !st.Confirmed {
		return refuse(KindInvalid, "Confirm: tick “I have read the exit check” to approve; an approved report is read-only for everyone.")
	}
	// Every input as approved: the report is computed from it from now on.
	snap, err := EncodeSnapshot(rep.In)
	if err != nil {
		return err
	}
	e := st.edit("approved")
	e.Before, e.After = store.StateInReview.Label(), store.StateApproved.Label()+" (every input kept as approved, quotes' figures included)"
	return s.Store.Approve(ctx, e, snap)
}

// SendBack returns a report in review to its authors with a comment.
func (s *Service) SendBack(ctx context.Context, st Step) error {
	if err := s.ReadOnly(ctx, st.ReportID); err != nil {
		return err
	}
	comment := strings.TrimSpace(st.Comment)
	if comment == "" {
		return refuse(KindInvalid, "Comment: required when sending a report back; say what must change before it can be approved.")
	}
	e := st.edit(store.ActionSentBack)
	e.Before, e.After = store.StateInReview.Label(), "sent back: "+comment
	return s.Store.Transition(ctx, e, store.StateDraft, comment)
}

// Withdraw returns a report in review to draft at the asking of one who
// may edit it (its owner, the leads it names as editors, an admin), so it
// can be changed and submitted again; the reason, when given, is kept in
// the history entry. It is refused for anyone else, for an approved report
// (naming who approved it) and for a draft. No comment is recorded, so the
// draft does not read as sent back by a reviewer.
func (s *Service) Withdraw(ctx context.Context, st Step) error {
	r, err := s.Store.Report(ctx, st.ReportID)
	if err != nil {
		return err
	}
	if !r.CanEdit(st.User) {
		return &forbiddenRefusal{Refusal{Msg: "only the report's owner, the leads it names as editors, or an admin may withdraw it from review", kind: KindForbidden}}
	}
	rv, err := s.Store.Review(ctx, st.ReportID)
	if err != nil {
		return err
	}
	if rv.Approved() {
		return s.ReadOnly(ctx, st.ReportID)
	}
	if rv.State != store.StateInReview {
		return refuse(KindConflict, "The report is not in review: it is a %s, so there is nothing to withdraw; its editors may change it as it is.", rv.State.Label())
	}
	e := st.edit(store.ActionWithdrawn)
	e.Before, e.After = store.StateInReview.Label(), store.StateDraft.Label()
	if reason := strings.TrimSpace(st.Comment); reason != "" {
		e.After += ": " + reason
	}
	return s.Store.Transition(ctx, e, store.StateDraft, "")
}

// Revise starts a new revision of an approved report; it returns the new
// report's id.
func (s *Service) Revise(ctx context.Context, u store.User, reportID int64) (int64, error) {
	r, err := s.Store.Report(ctx, reportID)
	if err != nil {
		return 0, err
	}
	if !r.CanEdit(u) {
		return 0, &forbiddenRefusal{Refusal{Msg: "only the report's owner, the leads it names as editors, or an admin may start a revision of it", kind: KindForbidden}}
	}
	return s.Store.Revise(ctx, u, reportID)
}

// FailingItems names the exit-check items that fail.
func FailingItems(items []planner.ExitItem) []string {
	var out []string
	for _, it := range items {
		if !it.Pass {
			out = append(out, it.Label+" ("+it.Detail+")")
		}
	}
	return out
}

// capitalize upper-cases the first letter of a message.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
