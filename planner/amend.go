package planner

import (
	"fmt"
	"strconv"
	"strings"
)

// Amend is the rule for changing a frozen contract. It lists what the
// change from prev to next amends: the objective, the workload and the
// load rows, each with its old and new value as people read them, whether
// results had been imported already, and (for the objective) whether the
// change loosens it. The change is refused (FieldErrors) when it amends
// anything without a reason, or leaves the contract incomplete.
func Amend(prev, next Contract, resultsExisted bool, reason string) ([]Amendment, error) {
	reason = strings.TrimSpace(reason)
	var out []Amendment
	add := func(field, old, new string) {
		out = append(out, Amendment{Field: field, OldValue: old, NewValue: new, Reason: reason, ResultsExisted: resultsExisted})
	}
	if prev.Objective.String() != next.Objective.String() {
		add("objective", prev.Objective.String(), next.Objective.String())
		out[len(out)-1].Loosened, _ = Loosened(prev.Objective, next.Objective)
	}
	if prev.Workload != next.Workload {
		add("workload", prev.Workload.Terms(), next.Workload.Terms())
	}
	if prev.LoadKind != next.LoadKind || FormatLoads(prev.Loads) != FormatLoads(next.Loads) {
		add("rows", string(prev.LoadKind)+" "+FormatLoads(prev.Loads), string(next.LoadKind)+" "+FormatLoads(next.Loads))
	}
	var es FieldErrors
	if len(out) > 0 && reason == "" {
		es.add("reason", "required: say why the frozen "+out[0].Field+" changes")
	}
	if len(next.Missing()) > 0 {
		es.add("contract", "a frozen contract must stay complete; missing: "+strings.Join(next.MissingLabels(), ", "))
	}
	return out, es.err()
}

// String is the workload as people read it: "512 prompt tokens → 256
// output tokens, synthetic (dataset), varied prompts"; "—" when empty.
func (w Workload) String() string {
	if w == (Workload{}) {
		return "—"
	}
	s := fmt.Sprintf("%d prompt tokens → %d output tokens", w.PromptTokens, w.OutputTokens)
	if w.Data != "" {
		s += ", " + w.Data
	}
	if w.Dataset != "" {
		s += " (" + w.Dataset + ")"
	}
	if w.Prompts != "" {
		s += ", " + w.Prompts + " prompts"
	}
	return s
}

// Terms is the workload with the tolerance its rows are held to, as the
// contract shows it and an amendment records it: "512 prompt tokens → 256
// output tokens, synthetic, varied prompts, mean tokens within ±10 %". A
// change of the tolerance alone is a change of the workload.
func (w Workload) Terms() string {
	if w == (Workload{}) {
		return w.String()
	}
	return w.String() + ", mean tokens within ±" + DisplayInput(w.ToleranceOrDefault()*100) + " %"
}

// FormatLoads lists load levels as typed: "1, 2, 4, 8, 10".
func FormatLoads(ls []float64) string {
	parts := make([]string, len(ls))
	for i, l := range ls {
		parts[i] = strconv.FormatFloat(l, 'f', -1, 64)
	}
	return strings.Join(parts, ", ")
}
