package web

import (
	"net/url"
	"strings"

	"capplan/planner"
	"capplan/web/view"
)

// contractForm reads the contract form. Numbers that do not parse are
// reported by field; the domain rules are then checked by planner.
func contractForm(f url.Values) (planner.Contract, view.FormErrors) {
	r := newFormReader(f)
	float := func(name string) float64 { return deref(r.float(name)) }
	integer := func(name string) int { return deref(r.integer(name)) }
	c := planner.Contract{
		Environment:     r.str("environment"),
		Service:         r.str("service"),
		ReleaseRevision: r.str("release_revision"),
		BaselineModel:   r.str("baseline_model"),
		Artifact:        r.str("artifact"),
		ArtifactHash:    r.str("artifact_hash"),
		Candidates:      r.str("candidates"),
		VLLMVersion:     r.str("vllm_version"),
		BenchmarkTool:   r.str("benchmark_tool"),
		ToolVersion:     r.str("tool_version"),
		Driver:          r.str("driver"),
		Device:          r.str("device"),
		DeviceMemoryGiB: r.float("device_memory_gib"),
		Host:            r.str("host"),
		TestDate:        r.date("test_date"),
		Workload: planner.Workload{
			PromptTokens: integer("workload.prompt_tokens"),
			OutputTokens: integer("workload.output_tokens"),
			Data:         r.str("workload.data"),
			Prompts:      r.str("workload.prompts"),
			Dataset:      r.str("workload.dataset"),
			Tolerance:    deref(r.percent("workload.tolerance")),
		},
		LoadKind:          planner.LoadKind(r.str("load_kind")),
		RowDurationS:      float("row_duration_s"),
		StopAfterErrors:   integer("stop_after_errors"),
		StopRule:          r.str("stop_rule"),
		SoakHours:         float("soak_hours"),
		RefusedTarget:     r.percent("refused_target"),
		Confidence:        deref(r.percent("confidence")),
		AdmissionProposal: r.str("admission_proposal"),
		Rollback:          r.str("rollback"),
		Owners: planner.Owners{
			TestOwner:     r.str("owners.test_owner"),
			Observer:      r.str("owners.observer"),
			StopAuthority: r.str("owners.stop_authority"),
			Window:        r.str("owners.window"),
		},
		Objective: planner.Objective{
			Percentile:  float("objective.percentile"),
			MinSuccess:  deref(r.percent("objective.min_success")),
			TTFTMax:     r.float("objective.ttft_max_s"),
			E2EMax:      r.float("objective.e2e_max_s"),
			TPOTMax:     r.float("objective.tpot_max_s"),
			ITLMax:      r.float("objective.itl_max_s"),
			MinHeadroom: r.percent("objective.min_headroom"),
			NoOOM:       r.check("objective.no_oom"),
		},
	}
	// The TPOT bound typed as an output speed per user (docs/method.md,
	// "Interactivity"): one bound, converted by planner.
	if speed := r.float("objective.min_speed_tok_s"); speed != nil {
		tpot, err := planner.TPOTForSpeed(*speed)
		switch {
		case err != nil:
			r.refuse("objective.min_speed_tok_s", err.Error())
		case c.Objective.TPOTMax != nil && !planner.SpeedAgrees(*c.Objective.TPOTMax, *speed):
			r.refuse("objective.min_speed_tok_s", "the output speed per user and the TPOT bound are one bound (speed = 1 / ITL, judged on the ITL): "+
				r.str("objective.min_speed_tok_s")+" tok/s/user is TPOT at most "+planner.DisplayNumber(tpot*1000, 0)+" ms, not "+r.str("objective.tpot_max_s")+" s; give one of the two")
		default:
			c.Objective.TPOTMax, c.Objective.TPOTAsSpeed = &tpot, true
		}
	}
	// The objective builder's rows, when the form has them: they write
	// the objective's text, which the planner reads as any other.
	if d, ok := view.ObjectiveDraftOf(f); ok {
		for k := range r.errs {
			if strings.HasPrefix(k, "objective.") {
				delete(r.errs, k)
			}
		}
		text, err := d.Build()
		c.Objective = planner.Objective{}
		switch {
		case err != nil:
			r.domain(err, nil)
		case text != "":
			o, err := planner.ParseObjective(text)
			if err != nil {
				r.refuse("objective", err.Error())
			}
			c.Objective = o
		}
	}
	for _, part := range strings.FieldsFunc(r.str("loads"), func(r rune) bool { return r == ',' || r == ' ' || r == ';' }) {
		v := r.number("loads", part, "numbers separated by commas, e.g. 1, 2, 4, 8, 10")
		if v == nil {
			break
		}
		c.Loads = append(c.Loads, *v)
	}
	r.domain(c.Validate(), nil)
	return c, r.errs
}

// deref is *p, or the zero value for nil.
func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// isDate reports whether s is a YYYY-MM-DD date.
func isDate(s string) bool {
	_, err := view.ParseDate(s)
	return err == nil
}
