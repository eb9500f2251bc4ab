package view

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"capplan/planner"
)

// StandardTriggers are the usual events that reopen the decision
// (docs/method.md, "Recommendation"), offered as ready-made choices.
var StandardTriggers = []string{
	"utilisation below a floor",
	"operator hours over budget",
	"API wins the like-for-like scenarios",
	"hardware refresh due",
	"no supported runtime",
}

// recommendationValues fills the form from a stored recommendation.
func recommendationValues(v url.Values, r *planner.Recommendation) {
	if r == nil {
		return
	}
	v.Set("decision", r.Decision)
	v.Set("owner", r.Owner)
	v.Set("review_date", r.ReviewDate)
	v.Set("expiry", r.Expiry)
	v.Set("notes", r.Notes)
	v.Set("justification", r.Justification)
	v.Set("beyond_plan", r.BeyondPlan)
	var other []string
	for _, t := range r.Triggers {
		if slices.Contains(StandardTriggers, t) {
			v.Add("trigger", t)
		} else {
			other = append(other, t)
		}
	}
	v.Set("other_triggers", strings.Join(other, "\n"))
	for _, g := range r.Gates {
		if i := slices.Index(planner.RequiredGates, g.Name); i >= 0 {
			p := fmt.Sprintf("gates[%d]", i)
			if g.Pass {
				v.Set(p+".verdict", "pass")
			} else {
				v.Set(p+".verdict", "fail")
			}
			v.Set(p+".note", g.Note)
		}
	}
}

// gateOf returns the stated gate of that name, or nil.
func gateOf(r *planner.Recommendation, name string) *planner.NonFinancialGate {
	if r == nil {
		return nil
	}
	for i := range r.Gates {
		if r.Gates[i].Name == name {
			return &r.Gates[i]
		}
	}
	return nil
}

// decisionText states the decision in words.
func decisionText(d string) string {
	switch d {
	case "keep":
		return "keep self-hosting"
	case "change":
		return "change how we self-host"
	case "stop":
		return "stop self-hosting"
	}
	return "—"
}

// decisionCostNote says, before the decision is saved, which choice costs
// more in the expected scenario and so needs a written justification
// (planner.CostlierDecision), or why that cannot be said yet.
func decisionCostNote(r planner.Result) string {
	self, api := planner.ExpectedOptionCosts(&r)
	if self == nil || api == nil {
		return "Which choice costs more is known once the expected scenario has a cost per 1,000 for self-hosting and for an API; a costlier choice then needs a written justification."
	}
	for _, d := range []string{"keep", "stop"} {
		if why := planner.CostlierDecision(d, &r); why != "" {
			return "In the expected scenario " + d + " is the costlier choice (" + why + "): choosing it requires a written justification below."
		}
	}
	return "In the expected scenario self-hosting and " + api.Option + " cost the same per 1,000; no choice needs a justification."
}
