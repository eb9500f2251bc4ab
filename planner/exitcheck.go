package planner

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// ExitItem is one line of the exit check: something a passing report must
// hold. A report cannot be approved while any item fails. Section is the
// anchor of the report section that fixes it.
type ExitItem struct {
	ID      string `json:"id"`
	Label   string `json:"label"`
	Pass    bool   `json:"pass"`
	Detail  string `json:"detail"`
	Section string `json:"section"`
	// Sections lists every section that fixes the item when there are
	// several (refused inputs in several places); Section is the first.
	Sections []string `json:"sections,omitempty"`
}

// ExitCheck lists everything a passing report must hold, each with whether
// it holds now and what is missing. r is the report computed from in so far
// (everything but the exit check itself).
func ExitCheck(in Inputs, r *Result) []ExitItem {
	c := in.Contract
	var items []ExitItem
	add := func(id, label, section string, missing []string, okDetail string) {
		it := ExitItem{ID: id, Label: label, Section: section, Pass: len(missing) == 0, Detail: okDetail}
		if !it.Pass {
			it.Detail = strings.Join(missing, "; ")
		}
		items = append(items, it)
	}
	need := func(missing *[]string, v, name string) {
		if strings.TrimSpace(v) == "" {
			*missing = append(*missing, name+" missing")
		}
	}

	var m []string
	for _, f := range []struct{ v, name string }{
		{c.Environment, "environment"}, {c.Service, "service"}, {c.ReleaseRevision, "release revision"},
		{c.BaselineModel, "baseline model"}, {c.Artifact, "artifact"}, {c.ArtifactHash, "artifact hash"},
		{c.VLLMVersion, "vLLM version"}, {c.BenchmarkTool, "benchmark tool"}, {c.ToolVersion, "tool version"},
		{c.Driver, "driver"}, {c.Device, "device"}, {c.Host, "host"},
	} {
		need(&m, f.v, f.name)
	}
	add("identities", "Identities and versions", "contract", m, "model, artifact, runtime, tool, driver, device and host recorded")

	m = nil
	if _, err := time.Parse(DateLayout, c.TestDate); err != nil {
		m = append(m, "test date missing or not YYYY-MM-DD")
	}
	add("test_date", "Test date", "contract", m, "tested on "+c.TestDate)

	m = nil
	w := c.Workload
	if w.PromptTokens <= 0 || w.OutputTokens <= 0 {
		m = append(m, "prompt and output tokens missing")
	}
	need(&m, w.Data, "synthetic or dataset")
	need(&m, w.Prompts, "identical or varied prompts")
	add("workload", "Workload", "contract", m, fmt.Sprintf("%d prompt tokens, %d output tokens, %s, %s prompts", w.PromptTokens, w.OutputTokens, w.Data, w.Prompts))

	m = nil
	if len(c.Loads) == 0 {
		m = append(m, "no load rows planned in the contract")
	}
	if len(r.Matrix) == 0 {
		m = append(m, "no rows imported")
	}
	for _, wn := range r.ContractWarnings {
		if wn.Code == "planned-row-missing" {
			m = append(m, wn.Message)
		}
	}
	add("rows", "Rows", "matrix", m, fmt.Sprintf("%d rows", len(r.Matrix)))

	m = nil
	if c.RowDurationS <= 0 {
		m = append(m, "per-row duration missing")
	}
	if c.StopAfterErrors <= 0 && strings.TrimSpace(c.StopRule) == "" {
		m = append(m, "stop rule missing")
	}
	add("stop_limits", "Stop limits", "contract", m, fmt.Sprintf("%s s per row, %s", fmtNum(c.RowDurationS), stopText(c)))

	m = nil
	switch {
	case r.Objective.Empty():
		m = append(m, "not written yet")
	default:
		if err := r.Objective.Validate(); err != nil {
			m = append(m, err.Error())
		}
		if r.Objective.TTFTMax == nil && r.Objective.E2EMax == nil {
			m = append(m, "no latency bound")
		}
	}
	add("objective", "Objective", "contract", m, r.ObjectiveText)
	if r.ObjectiveLoosened {
		// Visible, not failing: the loosening is shown to every reader.
		items = append(items, ExitItem{ID: "objective_loosened", Label: "Objective loosened after results", Section: "contract", Pass: true,
			Detail: "shown to readers: " + strings.Join(r.Loosening, "; ")})
	}

	m = nil
	for _, rr := range r.Matrix {
		if rr.Verdict.State == VerdictNotJudged {
			m = append(m, fmt.Sprintf("row %s: %s", fmtNum(rr.Load), rr.Verdict.Summary))
		}
	}
	if len(r.Matrix) == 0 {
		m = append(m, "no rows")
	}
	add("row_figures", "Per-row figures", "matrix", m, "every row has the figures the objective needs")

	m = nil
	if !r.Overload.Pass {
		m = r.Overload.Reasons
	}
	add("overload", "Bounded overload result", "overload", m, strings.Join(r.Overload.Reasons, "; "))

	m = nil
	if r.Admission.MaxInFlight == nil {
		m = append(m, "no max in flight: "+r.Envelope.Text)
	}
	add("admission", "Admission limit", "admission", m, admissionText(r.Admission))

	m = nil
	byName := map[string]bool{}
	for _, s := range in.Scenarios {
		byName[s.Name] = true
	}
	for _, n := range []string{"low", "expected", "peak"} {
		if !byName[n] {
			m = append(m, n+" scenario missing")
		}
	}
	add("scenarios", "Demand scenarios", "scenarios", m, "low, expected and peak with busy-hour shares")

	m = nil
	for _, l := range r.SelfHosted.Lines {
		if !l.Typed {
			m = append(m, "self-hosted "+strings.ToLower(l.Label)+" not typed")
		}
	}
	if !r.SelfHosted.LabourTyped {
		m = append(m, "operator labour must be typed")
	}
	if len(in.Quotes) == 0 {
		m = append(m, "no API quote")
	}
	for i, q := range in.Quotes {
		if q.InputPerMTokens == nil || q.OutputPerMTokens == nil {
			m = append(m, fmt.Sprintf("quote %s: token prices missing", r.Quotes[i].Name))
		}
	}
	costOK := "every category typed"
	if r.SelfHosted.LabourTypedZero {
		costOK += " (labour typed as zero)"
	}
	add("cost_categories", "All cost categories including labour", "costs", m, costOK)

	m = nil
	var exp *ScenarioResult
	for i := range r.Scenarios {
		if r.Scenarios[i].Scenario.Name == "expected" {
			exp = &r.Scenarios[i]
		}
	}
	switch {
	case exp == nil:
		m = append(m, "no expected scenario to cost")
	case len(exp.Options) < 2:
		m = append(m, "the expected scenario has no API option")
	default:
		for _, o := range exp.Options {
			if o.CostPer1000 == nil {
				m = append(m, o.Option+": no cost per 1,000 (no demand)")
			}
		}
	}
	detail := ""
	if exp != nil && len(m) == 0 {
		var parts []string
		for _, o := range exp.Options {
			parts = append(parts, fmt.Sprintf("%s %s per 1,000", o.Option, o.CostPer1000.Rounded.StringFixed(2)))
		}
		detail = "expected scenario: " + strings.Join(parts, ", ")
	}
	add("cost_per_1000", "Arithmetic of both costs per 1,000", "scenarios", m, detail)

	m = nil
	if in.AsOf == "" {
		m = append(m, "no report date to age evidence against")
	}
	if len(r.Evidence) == 0 {
		m = append(m, "no cost evidence")
	}
	for _, e := range r.Evidence {
		if e.Stale {
			m = append(m, fmt.Sprintf("%s: %s", e.Label, e.Problem))
		}
	}
	add("evidence_dates", "Evidence dates", "costs", m, fmt.Sprintf("none older than %d days", r.StaleAfterDays))

	m = nil
	if len(r.Crossovers) == 0 {
		m = append(m, "no quote to compute a crossover with")
	}
	for _, x := range r.Crossovers {
		if x.Text == "" && x.Reason == "" {
			m = append(m, x.Quote+": neither a crossover nor a reason")
		}
	}
	add("crossover", "Crossover or the reason for none", "crossover", m, "stated for every quote")

	m = nil
	rec := in.Recommendation
	if rec == nil {
		m = append(m, "no recommendation")
	} else {
		if rec.Decision == "" {
			m = append(m, "decision (keep, change or stop) missing")
		}
		need(&m, rec.Owner, "owner")
		need(&m, rec.ReviewDate, "review date")
		gates := map[string]bool{}
		for _, g := range rec.Gates {
			gates[strings.ToLower(g.Name)] = true
		}
		for _, g := range RequiredGates {
			if !gates[g] {
				m = append(m, g+" gate not stated")
			}
		}
		m = append(m, recommendationDates(rec, in.AsOf)...)
	}
	recDetail := ""
	if rec != nil {
		recDetail = fmt.Sprintf("%s, owner %s, review %s", rec.Decision, rec.Owner, rec.ReviewDate)
	}
	add("recommendation", "Recommendation with owner and review date", "recommendation", m, recDetail)

	m = nil
	switch {
	case len(in.Candidates) == 0:
		m = append(m, "no candidate with a regression gate recorded")
	case r.Candidates.Chosen == "":
		m = append(m, r.Candidates.Decision)
	}
	add("regression_gate", "Regression gate passed for the selected model", "candidates", m, r.Candidates.Decision)

	m = nil
	var sections []string
	for _, p := range r.Problems {
		m = append(m, p.Error())
		if s := FieldSection(p.Field); !slices.Contains(sections, s) {
			sections = append(sections, s)
		}
	}
	fixIn := "contract"
	if len(sections) > 0 {
		fixIn = sections[0]
	}
	add("inputs_valid", "Every input accepted", fixIn, m, "no refused input")
	if len(sections) > 1 {
		items[len(items)-1].Sections = sections
	}
	return items
}

func stopText(c Contract) string {
	var parts []string
	if c.StopAfterErrors > 0 {
		parts = append(parts, fmt.Sprintf("stop after %d errors", c.StopAfterErrors))
	}
	if c.StopRule != "" {
		parts = append(parts, c.StopRule)
	}
	return strings.Join(parts, ", ")
}

func admissionText(a Admission) string {
	if a.MaxInFlight == nil {
		return ""
	}
	return fmt.Sprintf("max %d in flight, queue %d, max queue age %s s, %d with Retry-After %d s, at most %d client retries",
		*a.MaxInFlight, a.QueueSize, fmtNum(a.MaxQueueAgeS), a.OverloadStatus, a.RetryAfterS, a.ClientMaxRetries)
}
