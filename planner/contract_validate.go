package planner

import (
	"fmt"
	"math"
)

// Validate checks the values the contract holds, naming the field and the
// rule each breaks. A draft may leave fields empty; Missing lists what a
// freeze needs.
func (c Contract) Validate() error {
	var es FieldErrors
	switch c.LoadKind {
	case "", LoadConcurrency, LoadRate, LoadSynchronous, LoadThroughput:
	default:
		es.add("load_kind", fmt.Sprintf("%q is not one of concurrency, rate, synchronous, throughput", c.LoadKind))
	}
	for i, l := range c.Loads {
		switch {
		case math.IsNaN(l) || math.IsInf(l, 0) || l <= 0:
			es.add("loads", fmt.Sprintf("row %d (%g) must be a positive number", i+1, l))
		case c.LoadKind == LoadConcurrency && l != math.Trunc(l):
			es.add("loads", fmt.Sprintf("row %d (%g): concurrency must be a whole number", i+1, l))
		case i > 0 && l <= c.Loads[i-1]:
			es.add("loads", fmt.Sprintf("rows must be increasing: %g follows %g", l, c.Loads[i-1]))
		}
	}
	if c.RowDurationS < 0 || math.IsNaN(c.RowDurationS) {
		es.add("row_duration_s", "must be a positive number of seconds")
	}
	if c.Confidence != 0 && !(c.Confidence > 0.5 && c.Confidence < 1) {
		es.add("confidence", fmt.Sprintf("the confidence of the verdicts must lie between 50 %% and 100 %% (95 %% is usual), got %s", fmtPct(c.Confidence)))
	}
	if t := c.RefusedTarget; t != nil && !(*t > 0 && *t < 1) {
		es.add("refused_target", fmt.Sprintf("the share the sizing may refuse must lie above 0 %% and below 100 %% (0.1 %% is usual), got %s", fmtPct(*t)))
	}
	if c.SoakHours < 0 || math.IsNaN(c.SoakHours) {
		es.add("soak_hours", "must be zero (no soak) or a positive number of hours")
	}
	if c.StopAfterErrors < 0 {
		es.add("stop_after_errors", "must be zero (no rule) or a positive count")
	}
	if c.Workload.PromptTokens < 0 {
		es.add("workload.prompt_tokens", "must be a positive number of tokens")
	}
	if c.Workload.OutputTokens < 0 {
		es.add("workload.output_tokens", "must be a positive number of tokens")
	}
	if t := c.Workload.Tolerance; t < 0 || t >= 1 || math.IsNaN(t) {
		es.add("workload.tolerance", "must be a share between 0 % and 100 % (empty: 10 %)")
	}
	switch c.Workload.Data {
	case "", "synthetic", "dataset":
	default:
		es.add("workload.data", "must be synthetic or dataset")
	}
	switch c.Workload.Prompts {
	case "", "identical", "varied":
	default:
		es.add("workload.prompts", "must be identical or varied")
	}
	if c.DeviceMemoryGiB != nil && !(*c.DeviceMemoryGiB > 0) {
		es.add("device_memory_gib", "must be a positive number of GiB")
	}
	if !c.Objective.Empty() { // an empty objective is a draft not yet written
		if err := c.Objective.Validate(); err != nil {
			if oes, ok := err.(FieldErrors); ok {
				es = append(es, oes...)
			} else {
				es.add("objective", err.Error())
			}
		}
	}
	return es.err()
}

// Missing names the fields a contract must have before it can be frozen.
func (c Contract) Missing() []string {
	var m []string
	need := func(ok bool, field string) {
		if !ok {
			m = append(m, field)
		}
	}
	need(c.Environment != "", "environment")
	need(c.Service != "", "service")
	need(c.ReleaseRevision != "", "release_revision")
	need(c.BaselineModel != "", "baseline_model")
	need(c.Artifact != "", "artifact")
	need(c.ArtifactHash != "", "artifact_hash")
	need(c.VLLMVersion != "", "vllm_version")
	need(c.BenchmarkTool != "", "benchmark_tool")
	need(c.ToolVersion != "", "tool_version")
	need(c.Driver != "", "driver")
	need(c.Device != "", "device")
	need(c.Host != "", "host")
	need(c.Workload.PromptTokens > 0, "workload.prompt_tokens")
	need(c.Workload.OutputTokens > 0, "workload.output_tokens")
	need(c.Workload.Data != "", "workload.data")
	need(c.Workload.Prompts != "", "workload.prompts")
	need(c.LoadKind != "", "load_kind")
	need(len(c.Loads) > 0, "loads")
	need(c.RowDurationS > 0, "row_duration_s")
	need(c.StopRule != "" || c.StopAfterErrors > 0, "stop_rule")
	need(c.Objective.Percentile > 0, "objective.percentile")
	need(c.Objective.MinSuccess > 0, "objective.min_success")
	need(c.Objective.TTFTMax != nil || c.Objective.E2EMax != nil, "objective.ttft_max_s")
	need(c.AdmissionProposal != "", "admission_proposal")
	need(c.Rollback != "", "rollback")
	need(c.Owners.TestOwner != "", "owners.test_owner")
	need(c.Owners.Observer != "", "owners.observer")
	need(c.Owners.StopAuthority != "", "owners.stop_authority")
	need(c.Owners.Window != "", "owners.window")
	return m
}
