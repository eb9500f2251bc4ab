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

// exitItems are the items of the exit check in the order they are shown
// (docs/method.md, "Exit check"). Each looks at the inputs and the report
// computed so far and returns its item, or the zero ExitItem when it does
// not apply to this report. A new item is one function added here.
var exitItems = []func(in Inputs, r *Result) ExitItem{
	exitPlan,
	exitIdentities,
	exitTestDate,
	exitWorkload,
	exitRows,
	exitStopLimits,
	exitObjective,
	exitObjectiveLoosened,
	exitAmendedAfterResults,
	exitCountedRows,
	exitWeakCeiling,
	exitRowFigures,
	exitCeilingMemory,
	exitOverload,
	exitAdmission,
	exitScenarios,
	exitFleet,
	exitCostCategories,
	exitCostPer1000,
	exitEvidenceDates,
	exitCrossover,
	exitCurrency,
	exitRecommendation,
	exitGates,
	exitDecisionJustified,
	exitRegressionGate,
	exitInputsValid,
}

// ExitCheck lists everything a passing report must hold, each with whether
// it holds now and what is missing. r is the report computed from in so far
// (everything but the exit check itself).
func ExitCheck(in Inputs, r *Result) []ExitItem {
	var items []ExitItem
	for _, item := range exitItems {
		if it := item(in, r); it.ID != "" {
			items = append(items, it)
		}
	}
	return items
}

// exitItem is an item that passes when nothing is missing: its detail is
// okDetail when it passes and the missing things otherwise.
func exitItem(id, label, section string, missing []string, okDetail string) ExitItem {
	it := ExitItem{ID: id, Label: label, Section: section, Pass: len(missing) == 0, Detail: okDetail}
	if !it.Pass {
		it.Detail = strings.Join(missing, "; ")
	}
	return it
}

// needText appends "<name> missing" to missing when v is blank.
func needText(missing []string, v, name string) []string {
	if strings.TrimSpace(v) == "" {
		return append(missing, name+" missing")
	}
	return missing
}

func exitIdentities(in Inputs, _ *Result) ExitItem {
	c := in.Contract
	var m []string
	for _, f := range []struct{ v, name string }{
		{c.Environment, "environment"}, {c.Service, "service"}, {c.ReleaseRevision, "release revision"},
		{c.BaselineModel, "baseline model"}, {c.Artifact, "artifact"}, {c.ArtifactHash, "artifact hash"},
		{c.VLLMVersion, "vLLM version"}, {c.BenchmarkTool, "benchmark tool"}, {c.ToolVersion, "tool version"},
		{c.Driver, "driver"}, {c.Device, "device"}, {c.Host, "host"},
	} {
		m = needText(m, f.v, f.name)
	}
	return exitItem("identities", "Identities and versions", "contract", m, "model, artifact, runtime, tool, driver, device and host recorded")
}

func exitTestDate(in Inputs, _ *Result) ExitItem {
	var m []string
	if _, err := time.Parse(DateLayout, in.Contract.TestDate); err != nil {
		m = append(m, "test date missing or not YYYY-MM-DD")
	}
	return exitItem("test_date", "Test date", "contract", m, "tested on "+in.Contract.TestDate)
}

func exitWorkload(in Inputs, _ *Result) ExitItem {
	var m []string
	w := in.Contract.Workload
	if w.PromptTokens <= 0 || w.OutputTokens <= 0 {
		m = append(m, "prompt and output tokens missing")
	}
	m = needText(m, w.Data, "synthetic or dataset")
	m = needText(m, w.Prompts, "identical or varied prompts")
	return exitItem("workload", "Workload", "contract", m, fmt.Sprintf("%d prompt tokens, %d output tokens, %s, %s prompts", w.PromptTokens, w.OutputTokens, w.Data, w.Prompts))
}

func exitRows(in Inputs, r *Result) ExitItem {
	var m []string
	if len(in.Contract.Loads) == 0 {
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
	return exitItem("rows", "Rows", "matrix", m, fmt.Sprintf("%d rows", len(r.Matrix)))
}

func exitStopLimits(in Inputs, _ *Result) ExitItem {
	c := in.Contract
	var m []string
	if c.RowDurationS <= 0 {
		m = append(m, "per-row duration missing")
	}
	if c.StopAfterErrors <= 0 && strings.TrimSpace(c.StopRule) == "" {
		m = append(m, "stop rule missing")
	}
	return exitItem("stop_limits", "Stop limits", "contract", m, fmt.Sprintf("%s s per row, %s", fmtNum(c.RowDurationS), stopText(c)))
}

func exitObjective(_ Inputs, r *Result) ExitItem {
	var m []string
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
	// Passing, the item states the objective in words ("How figures are
	// shown"): its syntax stays on the contract.
	return exitItem("objective", "Objective", "contract", m, r.Objective.Sentence())
}

// exitRowFigures fails while a counted row lacks a figure the objective
// needs. Rows that do not count are never judged here: they move nothing.
func exitRowFigures(_ Inputs, r *Result) ExitItem {
	var m []string
	counted := 0
	for _, rr := range r.Matrix {
		if !rr.Counted {
			continue
		}
		counted++
		if rr.Verdict.State == VerdictNotJudged {
			m = append(m, rowName(rr)+": "+rr.Verdict.Summary)
		}
	}
	switch {
	case len(r.Matrix) == 0:
		m = append(m, "no rows")
	case counted == 0:
		m = append(m, "no counted rows")
	}
	return exitItem("row_figures", "Per-row figures", "matrix", m, "every counted row has the figures the objective needs")
}

// rowName names a row in the exit check by its load, its file and its
// place in the file, as the matrix lists it, so a counted row and a row
// that does not count at one load are told apart: "row 2 concurrent
// streams (sweep.json row 1)".
func rowName(rr RowResult) string {
	load := "of unknown load"
	if rr.LoadKnown {
		load = loadText(rr.Row.LoadKind, rr.Load)
	}
	if f := rr.Source.File; f != "" {
		return fmt.Sprintf("row %s (%s row %d)", load, f, rr.Row.Index)
	}
	return "row " + load
}

func exitOverload(_ Inputs, r *Result) ExitItem {
	var m []string
	if !r.Overload.Pass {
		m = r.Overload.Reasons
	}
	return exitItem("overload", "Bounded overload result", "overload", m, strings.Join(r.Overload.Reasons, "; "))
}

func exitAdmission(_ Inputs, r *Result) ExitItem {
	var m []string
	if r.Admission.MaxInFlight == nil {
		m = append(m, "no max in flight: "+r.Envelope.Text)
	}
	return exitItem("admission", "Admission limit", "admission", m, admissionText(r.Admission))
}

// exitScenarios fails while a scenario is missing, or while a scenario's
// busy hour needs more boxes than the plan allows and the recommendation
// neither changes the plan (change, stop) nor says why it stands.
func exitScenarios(in Inputs, r *Result) ExitItem {
	var m []string
	byName := map[string]bool{}
	for _, s := range in.Scenarios {
		byName[s.Name] = true
	}
	for _, n := range []string{"low", "expected", "peak"} {
		if !byName[n] {
			m = append(m, n+" scenario missing")
		}
	}
	ok := "low, expected and peak with busy-hour shares"
	var beyond []string
	for _, s := range r.Scenarios {
		if s.BeyondPlan(r.Capacity.MaxBoxes) {
			beyond = append(beyond, s.Scenario.Name+": "+s.ExceedsReason)
		}
	}
	rec := in.Recommendation
	switch {
	case len(beyond) == 0:
	case rec != nil && (rec.Decision == "change" || rec.Decision == "stop"):
		ok += fmt.Sprintf("; %s, and the recommendation is to %s", strings.Join(beyond, "; "), rec.Decision)
	case rec != nil && strings.TrimSpace(rec.BeyondPlan) != "":
		ok += fmt.Sprintf("; %s: the plan stands because %s", strings.Join(beyond, "; "), rec.BeyondPlan)
	default:
		for _, b := range beyond {
			m = append(m, b+": change the plan, or say in the recommendation why it stands")
		}
	}
	return exitItem("scenarios", "Demand scenarios", "scenarios", m, ok)
}

func exitCostCategories(in Inputs, r *Result) ExitItem {
	var m []string
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
	return exitItem("cost_categories", "All cost categories including labour", "costs", m, costOK)
}

func exitCostPer1000(_ Inputs, r *Result) ExitItem {
	var m []string
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
			parts = append(parts, fmt.Sprintf("%s %s per 1,000", o.Option, o.CostPer1000.Display()))
		}
		detail = "expected scenario: " + strings.Join(parts, ", ")
	}
	return exitItem("cost_per_1000", "Arithmetic of both costs per 1,000", "scenarios", m, detail)
}

func exitEvidenceDates(in Inputs, r *Result) ExitItem {
	var m []string
	if in.AsOf == "" {
		m = append(m, "no report date to age evidence against")
	}
	if len(r.Evidence) == 0 {
		m = append(m, "no cost evidence")
	}
	for _, e := range r.Evidence {
		switch {
		case !e.Stale:
		case e.EvidenceDate != "":
			m = append(m, fmt.Sprintf("%s, dated %s: %s", e.Label, e.EvidenceDate, e.Problem))
		default:
			m = append(m, fmt.Sprintf("%s: %s", e.Label, e.Problem))
		}
	}
	return exitItem("evidence_dates", "Evidence dates", "costs", m, fmt.Sprintf("none older than %d days, none after the report date", r.StaleAfterDays))
}

func exitCrossover(_ Inputs, r *Result) ExitItem {
	var m []string
	if len(r.Crossovers) == 0 {
		m = append(m, "no quote to compute a crossover with")
	}
	for _, x := range r.Crossovers {
		if x.Text == "" && x.Reason == "" {
			m = append(m, x.Quote+": neither a crossover nor a reason")
		}
	}
	return exitItem("crossover", "Crossover or the reason for none", "crossover", m, "stated for every quote")
}

func exitRecommendation(in Inputs, _ *Result) ExitItem {
	var m []string
	rec := in.Recommendation
	if rec == nil {
		m = append(m, "no recommendation")
	} else {
		if rec.Decision == "" {
			m = append(m, "decision (keep, change or stop) missing")
		}
		m = needText(m, rec.Owner, "owner")
		m = needText(m, rec.ReviewDate, "review date")
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
	detail := ""
	if rec != nil {
		detail = fmt.Sprintf("%s, owner %s, review %s", rec.Decision, rec.Owner, rec.ReviewDate)
	}
	return exitItem("recommendation", "Recommendation with owner and review date", "recommendation", m, detail)
}

func exitRegressionGate(in Inputs, r *Result) ExitItem {
	var m []string
	switch {
	case len(in.Candidates) == 0:
		m = append(m, "no candidate with a regression gate recorded")
	case r.Candidates.Chosen == "":
		m = append(m, r.Candidates.Decision)
	}
	return exitItem("regression_gate", "Regression gate passed for the selected model", "candidates", m, r.Candidates.Decision)
}

// exitInputsValid fails while any input is refused; it links to every
// section holding one.
func exitInputsValid(_ Inputs, r *Result) ExitItem {
	var m, sections []string
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
	it := exitItem("inputs_valid", "Every input accepted", fixIn, m, "no refused input")
	if len(sections) > 1 {
		it.Sections = sections
	}
	return it
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

// exitFleet holds a report with a fleet to a scaling factor it can stand
// behind and a reserve its target allows (docs/method.md, "Fleets and the
// reserve"); it does not apply without a fleet.
func exitFleet(_ Inputs, r *Result) ExitItem {
	f := r.Fleet
	if f == nil {
		return ExitItem{}
	}
	ok := fmt.Sprintf("scaling %s; reserve %s", f.ScalingText, f.ReserveText)
	return exitItem("fleet", "Fleet: scaling factor and reserve", "fleet", f.Problems, ok)
}
