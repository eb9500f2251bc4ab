package view

import (
	"net/url"
	"strconv"
	"strings"

	"capplan/planner"
)

// objectiveDraft is what the builder shows: the rows as typed after a
// refusal, else the stored objective's; then spare rows up to three and
// at least one (a blank objective starts with first tokens and whole
// answers chosen, at the usual 95th percentile).
func (v ContractEditView) objectiveDraft() planner.ObjectiveDraft {
	d, typed := ObjectiveDraftOf(v.Form)
	if !typed {
		d = v.C.Objective.Draft()
		if len(d.Bounds) == 0 {
			d.Bounds = []planner.ObjectiveBound{{Figure: "ttft"}, {Figure: "e2e"}}
		}
	}
	p := "95"
	for _, b := range d.Bounds {
		if strings.TrimSpace(b.Percentile) != "" {
			p = b.Percentile
			break
		}
	}
	for i := range d.Bounds {
		if !typed && d.Bounds[i].Percentile == "" {
			d.Bounds[i].Percentile = p
		}
		if d.Bounds[i].Unit == "" {
			d.Bounds[i].Unit = "s"
		}
	}
	for len(d.Bounds) < 3 || d.Bounds[len(d.Bounds)-1].Figure != "" || d.Bounds[len(d.Bounds)-1].Bound != "" {
		d.Bounds = append(d.Bounds, planner.ObjectiveBound{Percentile: p, Unit: "s"})
	}
	return d
}

// detailsMissing counts the folded fields a freeze still needs.
func (v ContractEditView) detailsMissing() int {
	n := 0
	for _, k := range v.C.Missing() {
		if contains(detailsFields, k) {
			n++
		}
	}
	return n
}

// detailsOpen: the details are shown open when one of them was refused,
// so the error is in sight.
func (v ContractEditView) detailsOpen() bool {
	for _, k := range detailsFields {
		if _, bad := v.Errs[k]; bad {
			return true
		}
	}
	return false
}

// refusedTargetText is the share the sizing may refuse, "0.1 %" by
// default.
func refusedTargetText(c planner.Contract) string {
	t := planner.DisplayShare(c.RefusedTargetOrDefault())
	if c.RefusedTarget == nil {
		t += " (the default)"
	}
	return t
}

// ObjectiveDraftOf reads the objective builder's fields from a form;
// false when the form has no builder rows (a client posting the bounds
// as objective.ttft_max_s and the like).
func ObjectiveDraftOf(f url.Values) (planner.ObjectiveDraft, bool) {
	rows := -1
	for k := range f {
		rest, ok := strings.CutPrefix(k, "objective.bounds[")
		if !ok {
			continue
		}
		idx, _, ok := strings.Cut(rest, "]")
		if n, err := strconv.Atoi(idx); ok && err == nil && n >= 0 && n < 20 {
			rows = max(rows, n)
		}
	}
	if rows < 0 {
		return planner.ObjectiveDraft{}, false
	}
	d := planner.ObjectiveDraft{
		Success:  f.Get("objective.min_success"),
		Headroom: f.Get("objective.min_headroom"),
		NoOOM:    f.Get("objective.no_oom") != "",
	}
	for i := 0; i <= rows; i++ {
		get := func(part string) string { return f.Get(planner.ObjectiveBoundKey(i, part)) }
		d.Bounds = append(d.Bounds, planner.ObjectiveBound{Figure: get("figure"), Percentile: get("percentile"), Bound: get("bound"), Unit: get("unit")})
	}
	return d, true
}

// detailsFields are the contract fields folded as details for the record.
var detailsFields = []string{
	"environment", "service", "release_revision", "artifact", "artifact_hash", "candidates",
	"benchmark_tool", "tool_version", "driver", "host", "test_date",
	"workload.dataset", "workload.tolerance", "confidence", "refused_target", "soak_hours",
	"admission_proposal", "rollback", "owners.test_owner", "owners.observer", "owners.stop_authority", "owners.window",
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
