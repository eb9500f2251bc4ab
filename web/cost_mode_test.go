package web

import (
	"net/http"
	"net/url"
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

// Saving the costs form stores what it shows: a rented box whose rent
// includes power or not, one source and date reaching every line that
// gives none of its own, a line's own source kept; a bought box cannot
// have its power in a rent, refused by name. (What the form and the
// costs section show for each mode: web/view's
// TestCostFormShowsTheChosenMode.)
func TestCostFormShowsTheChosenMode(t *testing.T) {
	app := newTestApp(t)
	id := moneyReport(t, app)
	lead := app.client("lead")
	for _, includesPower := range []string{"no", "yes"} {
		if res, body := post(t, app, lead, id, "/costs", rentedCosts(includesPower)); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("save (rent includes power %q): %d %s", includesPower, res.StatusCode, testid(body, "form-errors"))
		}
	}

	// One source and date for the section, the hosting with its own.
	var sh planner.SelfHostedCosts
	if _, err := app.store.Section(t.Context(), id, reports.SecSelfHosted, &sh); err != nil {
		t.Fatal(err)
	}
	if sh.EquipmentMode != "rent" || sh.RentIncludesPower != "yes" {
		t.Errorf("stored mode %q, rent includes power %q", sh.EquipmentMode, sh.RentIncludesPower)
	}
	if sh.RentPerHour.Source != "cloud offer 2026" || sh.RentPerHour.EvidenceDate != today || sh.Hosting.Source != "hosting invoice" || sh.Hosting.EvidenceDate != today {
		t.Errorf("stored evidence: rent %q %q, hosting %q %q", sh.RentPerHour.Source, sh.RentPerHour.EvidenceDate, sh.Hosting.Source, sh.Hosting.EvidenceDate)
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
