package web

import (
	"errors"
	"math"
	"net/url"
	"strconv"
	"strings"

	"capplan/planner"
)

// contractForm reads the contract form. Numbers that do not parse are
// reported by field; the domain rules are then checked by planner.
func contractForm(f url.Values) (planner.Contract, formErrors) {
	errs := formErrors{}
	str := func(name string) string { return strings.TrimSpace(f.Get(name)) }
	float := func(name string) float64 {
		s := str(name)
		if s == "" {
			return 0
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			errs[name] = "must be a number"
		}
		return v
	}
	optFloat := func(name string) *float64 {
		if str(name) == "" {
			return nil
		}
		v := float(name)
		return &v
	}
	integer := func(name string) int {
		s := str(name)
		if s == "" {
			return 0
		}
		v, err := strconv.Atoi(s)
		if err != nil {
			errs[name] = "must be a whole number"
		}
		return v
	}
	// percent reads "99" or "99 %" as the fraction 0.99.
	percent := func(name string) *float64 {
		s := strings.TrimSpace(strings.TrimSuffix(str(name), "%"))
		if s == "" {
			return nil
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) {
			errs[name] = "must be a percentage, e.g. 99"
			return nil
		}
		if v < 0 || v > 100 {
			errs[name] = "must be between 0 and 100 %"
		}
		v /= 100
		return &v
	}

	c := planner.Contract{
		Environment:     str("environment"),
		Service:         str("service"),
		ReleaseRevision: str("release_revision"),
		BaselineModel:   str("baseline_model"),
		Artifact:        str("artifact"),
		ArtifactHash:    str("artifact_hash"),
		Candidates:      str("candidates"),
		VLLMVersion:     str("vllm_version"),
		BenchmarkTool:   str("benchmark_tool"),
		ToolVersion:     str("tool_version"),
		Driver:          str("driver"),
		Device:          str("device"),
		DeviceMemoryGiB: optFloat("device_memory_gib"),
		Host:            str("host"),
		TestDate:        str("test_date"),
		Workload: planner.Workload{
			PromptTokens: integer("workload.prompt_tokens"),
			OutputTokens: integer("workload.output_tokens"),
			Data:         str("workload.data"),
			Prompts:      str("workload.prompts"),
			Dataset:      str("workload.dataset"),
		},
		LoadKind:          planner.LoadKind(str("load_kind")),
		RowDurationS:      float("row_duration_s"),
		StopAfterErrors:   integer("stop_after_errors"),
		StopRule:          str("stop_rule"),
		AdmissionProposal: str("admission_proposal"),
		Rollback:          str("rollback"),
		Owners: planner.Owners{
			TestOwner:     str("owners.test_owner"),
			Observer:      str("owners.observer"),
			StopAuthority: str("owners.stop_authority"),
			Window:        str("owners.window"),
		},
	}
	if c.TestDate != "" && !isDate(c.TestDate) {
		errs["test_date"] = "must be a date, YYYY-MM-DD"
	}
	for _, part := range strings.FieldsFunc(str("loads"), func(r rune) bool { return r == ',' || r == ' ' || r == ';' }) {
		v, err := strconv.ParseFloat(part, 64)
		if err != nil {
			errs["loads"] = "must be numbers separated by commas, e.g. 1, 2, 4, 8, 10; " + strconv.Quote(part) + " is not a number"
			break
		}
		c.Loads = append(c.Loads, v)
	}
	o := &c.Objective
	o.Percentile = float("objective.percentile")
	if p := percent("objective.min_success"); p != nil {
		o.MinSuccess = *p
	}
	o.TTFTMax = optFloat("objective.ttft_max_s")
	o.E2EMax = optFloat("objective.e2e_max_s")
	o.TPOTMax = optFloat("objective.tpot_max_s")
	o.ITLMax = optFloat("objective.itl_max_s")
	o.MinHeadroom = percent("objective.min_headroom")
	o.NoOOM = f.Get("objective.no_oom") != ""

	if err := c.Validate(); err != nil {
		var fes planner.FieldErrors
		if errors.As(err, &fes) {
			for _, fe := range fes {
				if _, seen := errs[fe.Field]; !seen {
					errs[fe.Field] = fe.Message
				}
			}
		} else {
			errs["contract"] = err.Error()
		}
	}
	return c, errs
}

// isDate reports whether s is a YYYY-MM-DD date.
func isDate(s string) bool {
	_, err := parseDate(s)
	return err == nil
}
