package web

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"capplan/planner"
	"capplan/web/reports"
)

// rentedCosts is a box rented at 2.50 an hour whose rent includes power,
// every line under one source and date, the hosting with its own.
func rentedCosts(includesPower string) url.Values {
	v := url.Values{
		"self_hosted.equipment_mode": {"rent"}, "self_hosted.rent_includes_power": {includesPower},
		"self_hosted.source": {"cloud offer 2026"}, "self_hosted.evidence_date": {today},
	}
	for field, amount := range map[string]string{
		"rent_per_hour": "2.5", "facilities": "0", "hosting": "100", "support": "0", "software": "0", "monitoring": "15", "backup": "10",
		"labour_hours_per_month": "8", "labour_rate": "75", "downtime_allowance": "0",
	} {
		v.Set("self_hosted."+field, amount)
	}
	v.Set("self_hosted.hosting.source", "hosting invoice")
	return v
}

// The costs step asks only what the chosen mode needs: a rented box's
// form shows the rent, not the purchase, and with the rent including
// power no power inputs; such a box no longer fails "power not typed",
// its power line is zero and says why. One source and date reach every
// line; a line's own source stays its own.
func TestCostFormShowsTheChosenMode(t *testing.T) {
	app := newTestApp(t)
	id := moneyReport(t, app)
	lead := app.client("lead")
	page := func() string {
		_, body := do(t, lead, http.MethodGet, fmt.Sprintf("%s/reports/%d/costs", app.srv.URL, id), nil)
		return between(withParts(t, lead, app.srv.URL, body), `data-testid="self-hosted-form"`, "</form>")
	}
	// shown: the row or box holding the input is not hidden.
	shown := func(form, key string) bool {
		i := strings.Index(form, `name="`+key+`"`)
		if i < 0 {
			t.Fatalf("no input %s in the form", key)
		}
		open := max(strings.LastIndex(form[:i], "<tr"), strings.LastIndex(form[:i], "<div"))
		tag := form[open : open+strings.Index(form[open:], ">")]
		return !strings.Contains(tag, " hidden")
	}
	// A blank report's form: a purchase.
	form := page()
	if !shown(form, "self_hosted.purchase_price") || shown(form, "self_hosted.rent_per_hour") || shown(form, "self_hosted.spot_per_hour") || shown(form, "self_hosted.rent_includes_power") {
		t.Error("a purchase's form shows another mode's inputs, or not its own")
	}

	if res, body := post(t, app, lead, id, "/costs", rentedCosts("no")); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: %d %s", res.StatusCode, testid(body, "form-errors"))
	}
	form = page()
	if shown(form, "self_hosted.purchase_price") || !shown(form, "self_hosted.rent_per_hour") || !shown(form, "self_hosted.rent_includes_power") || !shown(form, "self_hosted.power_price_per_kwh") {
		t.Error("a rented box's form does not show the rent and power, or still shows the purchase")
	}
	_, before := do(t, lead, http.MethodGet, fmt.Sprintf("%s/reports/%d/print", app.srv.URL, id), nil)
	if line := between(before, `data-testid="line-power"`, "</tr>"); !strings.Contains(line, "not typed") {
		t.Errorf("a rented box with power paid apart and not typed: %s, want \"not typed\"", line)
	}

	if res, body := post(t, app, lead, id, "/costs", rentedCosts("yes")); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: %d %s", res.StatusCode, testid(body, "form-errors"))
	}
	form = page()
	if shown(form, "self_hosted.power_price_per_kwh") || shown(form, "self_hosted.power_watts") || strings.Contains(between(form, `data-testid="power-in-rent"`, ">"), "hidden") {
		t.Error("the rent includes power, yet the form asks for power or does not say so")
	}
	_, costs := do(t, lead, http.MethodGet, fmt.Sprintf("%s/reports/%d/print", app.srv.URL, id), nil)
	line := between(costs, `data-testid="line-power"`, "</tr>")
	if !strings.Contains(line, "Power (included in the rent)") || !strings.Contains(line, "included in the rent: no power cost of its own") || strings.Contains(line, "not typed") {
		t.Errorf("the power line of a rent that includes power: %s", line)
	}
	if strings.Contains(costs, "costs not typed (an untyped cost counts as zero): power") {
		t.Error("a rent that includes power still fails \"power not typed\"")
	}

	// One source and date for the section, the hosting with its own.
	var sh planner.SelfHostedCosts
	if _, err := app.store.Section(t.Context(), id, reports.SecSelfHosted, &sh); err != nil {
		t.Fatal(err)
	}
	if sh.RentPerHour.Source != "cloud offer 2026" || sh.RentPerHour.EvidenceDate != today || sh.Hosting.Source != "hosting invoice" || sh.Hosting.EvidenceDate != today {
		t.Errorf("stored evidence: rent %q %q, hosting %q %q", sh.RentPerHour.Source, sh.RentPerHour.EvidenceDate, sh.Hosting.Source, sh.Hosting.EvidenceDate)
	}
	if v, _ := inputValue(form, "self_hosted.rent_per_hour.source"); v != "" {
		t.Errorf("a line taking the section's source shows %q, want it blank", v)
	}
	if v, _ := inputValue(form, "self_hosted.hosting.source"); v != "hosting invoice" {
		t.Errorf("a line with its own source shows %q", v)
	}
	if v, _ := inputValue(form, "self_hosted.source"); v != "cloud offer 2026" {
		t.Errorf("the section's source shows %q", v)
	}

	// Units are text beside the amount, no field holds a grey value.
	if !strings.Contains(form, `data-testid="unit-self_hosted.rent_per_hour">EUR/h</span>`) {
		t.Error("the rent's unit is not shown beside its amount")
	}
	if m := regexp.MustCompile(`placeholder="[^"]+"`).FindString(form); m != "" {
		t.Errorf("the cost form has a placeholder that reads as a value: %s", m)
	}

	// A bought box cannot have its power in a rent: refused by name.
	bad := rentedCosts("yes")
	bad.Set("self_hosted.equipment_mode", "purchase")
	bad.Set("self_hosted.purchase_price", "24000")
	bad.Set("self_hosted.depreciation_months", "24")
	res, body := post(t, app, lead, id, "/costs", bad)
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(testid(body, "err-self_hosted.rent_includes_power"), "only a rented box") {
		t.Errorf("a bought box with power in the rent: %d %q", res.StatusCode, testid(body, "err-self_hosted.rent_includes_power"))
	}
}
