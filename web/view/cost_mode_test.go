package view

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"capplan/planner"
)

// costDate is the evidence date of rentedInputs' figures.
const costDate = "2026-12-01"

// rentedInputs is a report with a workload and a box rented at 2.50 an
// hour (rent "yes" includes power, "no" power paid apart and not typed),
// every line under the section's one source and date as the costs form
// stores them (each figure carrying them), the hosting with its own.
func rentedInputs(includesPower string) planner.Inputs {
	fig := func(amount, unit string) *planner.Figure {
		return &planner.Figure{Amount: decimal.RequireFromString(amount), Unit: unit, Source: "cloud offer 2026", EvidenceDate: costDate}
	}
	in := blankReport().In
	in.AsOf = "2026-12-07"
	in.Contract = planner.Contract{Workload: planner.Workload{PromptTokens: 1000, OutputTokens: 500}}
	in.SelfHosted = planner.SelfHostedCosts{
		EquipmentMode: "rent", RentIncludesPower: includesPower,
		Source: "cloud offer 2026", EvidenceDate: costDate,
		RentPerHour: fig("2.5", "EUR/h"), Facilities: fig("0", "EUR/month"), Hosting: fig("100", "EUR/month"),
		Support: fig("0", "EUR/month"), Software: fig("0", "EUR/month"), Monitoring: fig("15", "EUR/month"),
		Backup: fig("10", "EUR/month"), LabourHoursPerMonth: fig("8", "h/month"), LabourRate: fig("75", "EUR/h"),
		DowntimeAllowance: fig("0", "EUR/month"),
	}
	in.SelfHosted.Hosting.Source = "hosting invoice"
	return in
}

// selfHostedFormOf is the self-hosted cost form as its lazy part serves
// it: the stored values, nothing typed.
func selfHostedFormOf(t *testing.T, v Report) string {
	t.Helper()
	return renderHTML(t, SelfHostedFormBody(v, WithStoredValues(v, MoneyForm{})))
}

// shownIn: the row or box of form holding the input key is not hidden.
func shownIn(t *testing.T, form, key string) bool {
	t.Helper()
	i := strings.Index(form, `name="`+key+`"`)
	if i < 0 {
		t.Fatalf("no input %s in the form", key)
	}
	open := max(strings.LastIndex(form[:i], "<tr"), strings.LastIndex(form[:i], "<div"))
	tag := form[open : open+strings.Index(form[open:], ">")]
	return !strings.Contains(tag, " hidden")
}

// inputValue is the value of the input named name in page.
func inputValue(page, name string) (string, bool) {
	m := regexp.MustCompile(`<input name="` + regexp.QuoteMeta(name) + `" value="([^"]*)"`).FindStringSubmatch(page)
	if m == nil {
		return "", false
	}
	return html.UnescapeString(m[1]), true
}

// The costs step asks only what the chosen mode needs: a rented box's
// form shows the rent, not the purchase, and with the rent including
// power no power inputs; such a box no longer fails "power not typed",
// its power line is zero and says why. One source and date reach every
// line; a line's own source stays its own. Units are text beside the
// amount; no field holds a grey value.
func TestCostFormShowsTheChosenMode(t *testing.T) {
	// A blank report's form: a purchase.
	form := selfHostedFormOf(t, blankReport())
	if !shownIn(t, form, "self_hosted.purchase_price") || shownIn(t, form, "self_hosted.rent_per_hour") || shownIn(t, form, "self_hosted.spot_per_hour") || shownIn(t, form, "self_hosted.rent_includes_power") {
		t.Error("a purchase's form shows another mode's inputs, or not its own")
	}

	apart := withInputs(Report{}, rentedInputs("no"))
	form = selfHostedFormOf(t, apart)
	if shownIn(t, form, "self_hosted.purchase_price") || !shownIn(t, form, "self_hosted.rent_per_hour") || !shownIn(t, form, "self_hosted.rent_includes_power") || !shownIn(t, form, "self_hosted.power_price_per_kwh") {
		t.Error("a rented box's form does not show the rent and power, or still shows the purchase")
	}
	if line := between(stepPageOf(t, apart, PrintStep), `data-testid="line-power"`, "</tr>"); !strings.Contains(line, "not typed") {
		t.Errorf("a rented box with power paid apart and not typed: %s, want \"not typed\"", line)
	}

	inRent := withInputs(Report{}, rentedInputs("yes"))
	form = selfHostedFormOf(t, inRent)
	if shownIn(t, form, "self_hosted.power_price_per_kwh") || shownIn(t, form, "self_hosted.power_watts") || strings.Contains(between(form, `data-testid="power-in-rent"`, ">"), "hidden") {
		t.Error("the rent includes power, yet the form asks for power or does not say so")
	}
	costs := stepPageOf(t, inRent, PrintStep)
	line := between(costs, `data-testid="line-power"`, "</tr>")
	if !strings.Contains(line, "Power (included in the rent)") || !strings.Contains(line, "included in the rent: no power cost of its own") || strings.Contains(line, "not typed") {
		t.Errorf("the power line of a rent that includes power: %s", line)
	}
	if strings.Contains(costs, "costs not typed (an untyped cost counts as zero): power") {
		t.Error("a rent that includes power still fails \"power not typed\"")
	}

	// One source and date for the section, the hosting with its own.
	if v, _ := inputValue(form, "self_hosted.rent_per_hour.source"); v != "" {
		t.Errorf("a line taking the section's source shows %q, want it blank", v)
	}
	if v, _ := inputValue(form, "self_hosted.hosting.source"); v != "hosting invoice" {
		t.Errorf("a line with its own source shows %q", v)
	}
	if v, _ := inputValue(form, "self_hosted.source"); v != "cloud offer 2026" {
		t.Errorf("the section's source shows %q", v)
	}

	if !strings.Contains(form, `data-testid="unit-self_hosted.rent_per_hour">EUR/h</span>`) {
		t.Error("the rent's unit is not shown beside its amount")
	}
	if m := regexp.MustCompile(`placeholder="[^"]+"`).FindString(form); m != "" {
		t.Errorf("the cost form has a placeholder that reads as a value: %s", m)
	}
}
