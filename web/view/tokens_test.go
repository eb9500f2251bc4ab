package view

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"capplan/planner"
)

// A TPOT bound typed as an output speed per user (TPOTAsSpeed) is shown
// both ways on the report, its objective's text has the speed term, and
// the contract's edit form shows the speed as it was typed: a row "95 %
// of answers stream to each user at least 20 tok/s". (Its reading and
// refusals are tested in web.)
func TestContractOutputSpeedShown(t *testing.T) {
	v := sweepReport(t)
	in := v.In
	in.Contract.Objective.TPOTMax = planner.F(0.05)
	in.Contract.Objective.TPOTAsSpeed = true
	v.R.Contract = in.Contract
	v = withInputs(v, in)
	page := printOf(t, v)
	if got := html.UnescapeString(testid(page, "interactivity")); got != "at least 20 tok/s/user at p95 (TPOT at most 50 ms)" {
		t.Errorf("page shows %q", got)
	}
	if !strings.Contains(page, "speed_p95&gt;=20tok/s") {
		t.Error("the objective's text lacks the speed term")
	}
	edit := renderHTML(t, ContractEditPage(ContractEditView{R: v.R, C: v.R.Contract, OnPage: true}))
	found := func(re string) bool { return regexp.MustCompile(re).MatchString(edit) }
	if !found(`<option value="speed" selected>`) || !found(`name="objective.bounds\[\d\].bound" value="20"`) ||
		!found(`<option value="tok/s" selected>`) || found(`<option value="tpot" selected>`) {
		t.Error("the edit form does not show the speed as typed")
	}
}
