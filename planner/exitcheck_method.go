package planner

import (
	"fmt"
	"strings"
)

// The exit-check items that guard the method rather than the presence of
// inputs (docs/method.md, "Exit check"): what counts, whether the bar
// moved, and whether the decision follows from what was measured.

// blockingRowWarnings are the row warnings that make a counted row's
// figures unfit to stand behind: a rate the server did not reach, a run
// cancelled before it finished or marked invalid by its own tool, requests
// that did not fit the context window, a row written by another tool than
// the contract names, and percentiles computed by capplan from per-request
// lists that include warmup or cooldown requests.
var blockingRowWarnings = map[string]bool{
	"rate-mismatch": true, "cancelled": true, "tool-mismatch": true,
	"submission-invalid": true, "context-overflow": true,
}

// blockingProblems lists what makes a counted row's figures unfit.
func blockingProblems(rr RowResult) []string {
	var out []string
	for _, w := range rr.Warnings {
		switch {
		case blockingRowWarnings[w.Code]:
			out = append(out, w.Message)
		case w.Code == "warmup-included" && (rr.Row.TTFT.Computed || rr.Row.E2E.Computed):
			out = append(out, w.Message+" (and the percentiles were computed from them)")
		}
	}
	return out
}

// exitCountedRows fails while a counted row carries a blocking problem:
// such a row moves the envelope with figures nobody can stand behind.
func exitCountedRows(_ Inputs, r *Result) ExitItem {
	var m []string
	counted, off := 0, 0
	for _, rr := range r.Matrix {
		if !rr.Counted {
			off++
			continue
		}
		counted++
		for _, p := range blockingProblems(rr) {
			m = append(m, rowName(rr)+": "+p)
		}
	}
	detail := fmt.Sprintf("%d counted %s, none with a blocking problem", counted, plural(counted, "row", "rows"))
	if off > 0 {
		detail += fmt.Sprintf("; %d %s off the contract shown and not counted", off, plural(off, "row", "rows"))
	}
	return exitItem("counted_rows", "No counted row with a blocking problem", "matrix", m, detail)
}

// LooseningAcceptance is a reviewer's written acceptance of an objective
// loosened after results existed. It holds for the objective it names
// only: loosening it further needs a new acceptance.
type LooseningAcceptance struct {
	// Objective is the objective accepted, in the objective syntax.
	Objective string `json:"objective"`
	By        string `json:"by"`
	At        string `json:"at"`
	// Text is the reviewer's reason, in words.
	Text string `json:"text"`
}

// exitObjectiveLoosened fails while the objective in force is looser than
// the one results were first judged against, unless a reviewer accepted
// this very objective in writing. It does not appear when nothing was
// loosened (restoring the original objective clears it).
func exitObjectiveLoosened(in Inputs, r *Result) ExitItem {
	if !r.ObjectiveLoosened {
		return ExitItem{}
	}
	it := ExitItem{ID: "objective_loosened", Label: "Objective loosened after results: accepted by a reviewer", Section: "contract"}
	loose := strings.Join(r.Loosening, "; ")
	a := in.LooseningAccepted
	switch {
	case a == nil || strings.TrimSpace(a.Text) == "":
		it.Detail = "loosened after results (" + loose + "): a reviewer must accept it in writing before approval"
	case a.Objective != r.ObjectiveText:
		it.Detail = fmt.Sprintf("a reviewer accepted %q, but the objective is now %q: accept the objective in force", a.Objective, r.ObjectiveText)
	default:
		it.Pass = true
		it.Detail = fmt.Sprintf("accepted by %s on %s: %s (loosened: %s)", orNone(a.By), orNone(a.At), a.Text, loose)
	}
	return it
}

// AmendmentAcceptance is a reviewer's written acceptance of the workload
// and objective in force after an amendment made once results existed. It
// holds for the terms it names only: amending them again needs a new
// acceptance.
type AmendmentAcceptance struct {
	// Terms is the workload and objective accepted (AmendedTerms).
	Terms string `json:"terms"`
	By    string `json:"by"`
	At    string `json:"at"`
	// Text is the reviewer's reason, in words.
	Text string `json:"text"`
}

// exitAmendedAfterResults fails while the workload or the objective in
// force differs from what results were first judged against, unless a
// reviewer accepted these very terms in writing (a loosened objective has
// its own item). It does not appear when nothing differs.
func exitAmendedAfterResults(in Inputs, r *Result) ExitItem {
	if len(r.AmendedAfterResults) == 0 {
		return ExitItem{}
	}
	it := ExitItem{ID: "amended_after_results", Label: "Contract amended after results: accepted by a reviewer", Section: "contract"}
	what := strings.Join(r.AmendedAfterResults, "; ")
	a := in.AmendmentAccepted
	switch {
	case a == nil || strings.TrimSpace(a.Text) == "":
		it.Detail = "amended after results (" + what + "): a reviewer must accept it in writing before approval"
	case a.Terms != r.AmendedTerms:
		it.Detail = fmt.Sprintf("a reviewer accepted %q, but the contract is now %q: accept the terms in force", a.Terms, r.AmendedTerms)
	default:
		it.Pass = true
		it.Detail = fmt.Sprintf("accepted by %s on %s: %s (amended: %s)", orNone(a.By), orNone(a.At), a.Text, what)
	}
	return it
}

// exitGates fails while a non-financial gate of the recommended option
// fails: a cheaper option that cannot hold the data, the capability or
// the contract is no option.
func exitGates(in Inputs, _ *Result) ExitItem {
	rec := in.Recommendation
	if rec == nil {
		return ExitItem{}
	}
	var m, ok []string
	for _, g := range rec.Gates {
		name := strings.ToLower(g.Name)
		if g.Pass {
			ok = append(ok, name)
			continue
		}
		w := name + " gate fails"
		if n := strings.TrimSpace(g.Note); n != "" {
			w += ": " + n
		}
		m = append(m, w)
	}
	return exitItem("gates", "Non-financial gates of the recommended option pass", "recommendation", m, "pass: "+strings.Join(ok, ", "))
}

// exitDecisionJustified fails when the decision picks the option that
// costs more per 1,000 successful in-objective requests in the expected
// scenario (keep while an API is cheaper, stop while self-hosting is
// cheaper) and the recommendation carries no written justification.
func exitDecisionJustified(in Inputs, r *Result) ExitItem {
	rec := in.Recommendation
	if rec == nil || (rec.Decision != "keep" && rec.Decision != "stop") {
		return ExitItem{}
	}
	self, cheapestAPI := ExpectedOptionCosts(r)
	if self == nil || cheapestAPI == nil {
		return ExitItem{}
	}
	costlier := CostlierDecision(rec.Decision, r)
	if costlier == "" {
		return exitItem("decision_justified", "A costlier decision is justified in writing", "recommendation", nil, "the decision picks the cheaper option in the expected scenario")
	}
	if strings.TrimSpace(rec.Justification) == "" {
		return exitItem("decision_justified", "A costlier decision is justified in writing", "recommendation", []string{costlier + ": write why"}, "")
	}
	return exitItem("decision_justified", "A costlier decision is justified in writing", "recommendation", nil, costlier+": "+rec.Justification)
}

// ExpectedOptionCosts are the self-hosted option and the cheapest API
// option of the expected scenario, each with a cost per 1,000 successful
// in-objective requests; nil where the scenario or the cost is missing.
func ExpectedOptionCosts(r *Result) (self, cheapestAPI *OptionCost) {
	var exp *ScenarioResult
	for i := range r.Scenarios {
		if r.Scenarios[i].Scenario.Name == "expected" {
			exp = &r.Scenarios[i]
		}
	}
	if exp == nil {
		return nil, nil
	}
	for i, o := range exp.Options {
		if o.CostPer1000 == nil {
			continue
		}
		if o.Kind == "self-hosted" {
			self = &exp.Options[i]
		} else if cheapestAPI == nil || o.CostPer1000.Exact.LessThan(cheapestAPI.CostPer1000.Exact) {
			cheapestAPI = &exp.Options[i]
		}
	}
	return self, cheapestAPI
}

// CostlierDecision says, in words, how decision ("keep" or "stop") picks
// the option that costs more per 1,000 in the expected scenario; "" when
// it picks the cheaper one or the costs are not known. Such a decision
// needs a written justification (docs/method.md, "Recommendation").
func CostlierDecision(decision string, r *Result) string {
	self, cheapestAPI := ExpectedOptionCosts(r)
	if self == nil || cheapestAPI == nil {
		return ""
	}
	costlier := ""
	switch {
	case decision == "keep" && cheapestAPI.CostPer1000.Exact.LessThan(self.CostPer1000.Exact):
		costlier = fmt.Sprintf("keeping self-hosting (%s per 1,000) while %s costs %s per 1,000 in the expected scenario",
			self.CostPer1000.Display(), cheapestAPI.Option, cheapestAPI.CostPer1000.Display())
	case decision == "stop" && self.CostPer1000.Exact.LessThan(cheapestAPI.CostPer1000.Exact):
		costlier = fmt.Sprintf("stopping self-hosting (%s per 1,000) for %s at %s per 1,000 in the expected scenario",
			self.CostPer1000.Display(), cheapestAPI.Option, cheapestAPI.CostPer1000.Display())
	}
	return costlier
}

// exitCeilingMemory fails when the objective names memory headroom or no
// OOM/restart and the ceiling row does not record it: an unknown is a
// failure here, never a pass.
func exitCeilingMemory(in Inputs, r *Result) ExitItem {
	o := r.Objective
	if o.MinHeadroom == nil && !o.NoOOM {
		return ExitItem{}
	}
	if r.Envelope.CeilingRow == nil {
		return exitItem("ceiling_memory", "Memory headroom and OOM/restart recorded at the ceiling", "matrix", []string{"no ceiling row"}, "")
	}
	rr := r.Matrix[*r.Envelope.CeilingRow]
	at := loadText(rr.Row.LoadKind, rr.Load)
	var m, ok []string
	if o.MinHeadroom != nil {
		if h := rr.Row.Measured().Headroom; h == nil {
			m = append(m, "memory headroom at "+at+" not recorded")
		} else {
			ok = append(ok, "headroom "+fmtPct(*h))
		}
	}
	if o.NoOOM {
		switch obs := rr.Row.Observed; {
		case !obs.OOMRecorded():
			m = append(m, "whether "+at+" saw an OOM or a restart is not recorded")
		case obs.OOM || obs.Restart:
			m = append(m, at+" saw "+strings.ToLower(oomWords(obs)))
		default:
			ok = append(ok, "no OOM or restart")
		}
	}
	return exitItem("ceiling_memory", "Memory headroom and OOM/restart recorded at the ceiling", "matrix", m, at+": "+strings.Join(ok, ", "))
}

// exitCurrency fails while a compared figure is in another currency than
// the report's without a dated exchange rate: such a figure is left out,
// never compared as if it were in the report's currency.
func exitCurrency(in Inputs, r *Result) ExitItem {
	var m []string
	for _, q := range r.Quotes {
		if q.Excluded != "" {
			m = append(m, fmt.Sprintf("quote %s: %s", q.Name, q.Excluded))
		}
	}
	for _, l := range r.SelfHosted.Lines {
		if strings.HasPrefix(l.Basis, "no exchange rate") {
			m = append(m, "self-hosted "+strings.ToLower(l.Label)+": "+l.Basis)
		}
	}
	detail := "every compared figure in " + orNone(in.Currency)
	if len(in.ExchangeRates) > 0 {
		var rs []string
		for _, x := range in.ExchangeRates {
			if x.Rate != nil {
				rs = append(rs, fmt.Sprintf("%s at %s (%s, %s)", x.Currency, x.Rate.Amount, orNone(x.Rate.Source), orNone(x.Rate.EvidenceDate)))
			}
		}
		detail += ", others converted at dated rates: " + strings.Join(rs, "; ")
	}
	return exitItem("currency", "One currency across compared figures", "costs", m, detail)
}

// exitWeakCeiling fails while the ceiling rests on weak evidence: its
// level passed only on too few requests or a row shorter than the
// contract's (docs/method.md, "Weak evidence"). It does not appear
// otherwise.
func exitWeakCeiling(_ Inputs, r *Result) ExitItem {
	e := r.Envelope
	if !e.Weak || e.Ceiling == nil {
		return ExitItem{}
	}
	return exitItem("weak_ceiling", "The ceiling rests on adequate evidence", "matrix",
		[]string{"the ceiling (" + loadText(e.LoadKind, *e.Ceiling) + ") rests on weak evidence: " + strings.Join(e.Evidence, "; ")}, "")
}
