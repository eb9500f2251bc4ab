package web

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"capplan/planner"
	"capplan/web/view"
)

// recommendationForm reads the recommendation form: the decision, owner,
// dates, triggers (the standard ones ticked, others one per line) and each
// non-financial gate's pass/fail with a note.
func readRecommendationForm(f url.Values) (planner.Recommendation, view.FormErrors) {
	fr := newFormReader(f)
	str := fr.str
	r := planner.Recommendation{
		Decision: str("decision"), Owner: str("owner"), ReviewDate: str("review_date"), Expiry: str("expiry"), Notes: str("notes"),
		Justification: str("justification"), BeyondPlan: str("beyond_plan"),
	}
	for _, t := range f["trigger"] {
		if slices.Contains(view.StandardTriggers, t) {
			r.Triggers = append(r.Triggers, t)
		}
	}
	for _, line := range strings.Split(f.Get("other_triggers"), "\n") {
		if t := strings.TrimSpace(line); t != "" && !slices.Contains(r.Triggers, t) {
			r.Triggers = append(r.Triggers, t)
		}
	}
	for i, name := range planner.RequiredGates {
		p := fmt.Sprintf("gates[%d]", i)
		switch str(p + ".verdict") {
		case "pass":
			r.Gates = append(r.Gates, planner.NonFinancialGate{Name: name, Pass: true, Note: str(p + ".note")})
		case "fail":
			r.Gates = append(r.Gates, planner.NonFinancialGate{Name: name, Pass: false, Note: str(p + ".note")})
		case "":
			if str(p+".note") != "" {
				fr.refuse(p+".verdict", "say pass or fail for "+name+", or clear its note")
			}
		default:
			fr.refuse(p+".verdict", "must be pass or fail; got "+strconv.Quote(str(p+".verdict")))
		}
	}
	// The form's fields are named without the "recommendation." prefix;
	// the other inputs' refusals are not this form's.
	short := func(k string) string {
		if rest, ok := strings.CutPrefix(k, "recommendation."); ok || k == "recommendation" {
			return rest
		}
		return ""
	}
	fr.domain(r.Validate(), short)
	fr.domain(planner.Inputs{Currency: "X", Recommendation: &r}.Validate(), short)
	return r, fr.errs
}
