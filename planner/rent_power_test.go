package planner

import (
	"strings"
	"testing"
)

// A rented box whose rent includes power has a power line of zero, typed
// by choice and said so; the same box without the choice fails "power not
// typed". A bought box cannot have power in its rent.
func TestRentIncludesPower(t *testing.T) {
	s := SelfHostedCosts{EquipmentMode: EquipRent, RentPerHour: Fig("2.5", "EUR/h", "cloud offer", "2026-11-01"),
		LabourHoursPerMonth: Fig("0", "h/month", "plan", "2026-11-01"), LabourRate: Fig("0", "EUR/h", "plan", "2026-11-01")}
	line := func(s SelfHostedCosts) CostLine {
		for _, l := range SelfHostedMonthly(s, nil).Lines {
			if l.Category == "power" {
				return l
			}
		}
		t.Fatal("no power line")
		return CostLine{}
	}
	if l := line(s); l.Typed {
		t.Fatalf("a rented box with no power typed: power line typed (%+v)", l)
	}
	s.RentIncludesPower = "yes"
	l := line(s)
	if !l.Typed || !l.Monthly.Exact.IsZero() || !strings.Contains(l.Basis, "included in the rent") || !strings.Contains(l.Label, "included in the rent") {
		t.Errorf("rent includes power: %+v, want typed, zero, said to be in the rent", l)
	}
	// Even with a measured draw and a price typed, the rent pays it.
	w := 700.0
	s.PowerPricePerKWh = Fig("0.3", "EUR/kWh", "tariff", "2026-11-01")
	if got := SelfHostedMonthly(s, &w); !got.Lines[1].Monthly.Exact.IsZero() {
		t.Errorf("power counted beside a rent that includes it: %s", got.Lines[1].Monthly.Exact)
	}
	if err := s.Validate(); err != nil {
		t.Errorf("a rented box with power in the rent refused: %v", err)
	}
	s.EquipmentMode = EquipPurchase
	err := s.Validate()
	if fes, _ := err.(FieldErrors); len(fes) != 1 || fes[0].Field != "self_hosted.rent_includes_power" || !strings.Contains(fes[0].Message, "only a rented box") {
		t.Errorf("a bought box with power in its rent: %v, want refused on self_hosted.rent_includes_power", err)
	}
	if !SelfHostedFields[0].ShownFor(EquipRent, false) {
		t.Error("the equipment mode is not shown for rent")
	}
	for _, f := range SelfHostedFields {
		if f.Name == "power_price_per_kwh" && f.ShownFor(EquipRent, true) {
			t.Error("the power price is shown though the rent includes power")
		}
		if f.Name == "purchase_price" && (f.ShownFor(EquipSpot, false) || !f.ShownFor("", false)) {
			t.Error("the purchase price is not shown for purchases only")
		}
	}
}

// A rent that includes power wins over power by use: with the idle draw
// typed and a measured service, the power line is still zero and nothing
// moves into the cost per request.
func TestRentIncludesPowerNotByUse(t *testing.T) {
	s := SelfHostedCosts{EquipmentMode: EquipRent, RentPerHour: Fig("2.5", "EUR/h", "cloud offer", "2026-11-01"),
		PowerIdleWatts: Fig("120", "W", "meter", "2026-11-01"), PowerPricePerKWh: Fig("0.3", "EUR/kWh", "tariff", "2026-11-01"),
		PerRequest: Fig("0.0001", "EUR", "plan", "2026-11-01"), RentIncludesPower: "yes"}
	w, rate := 700.0, 2.0
	got := selfHostedMonthly(s, &w, nil, TaxNet, &powerInputs{serviceRate: &rate})
	if got.Power.ByUse || !got.PerRequest.Exact.Equal(s.PerRequest.Amount) {
		t.Errorf("power in the rent priced by use: by use %v, per request %s", got.Power.ByUse, got.PerRequest.Exact)
	}
	s.RentIncludesPower = "no"
	got = selfHostedMonthly(s, &w, nil, TaxNet, &powerInputs{serviceRate: &rate})
	if !got.Power.ByUse || !got.PerRequest.Exact.GreaterThan(s.PerRequest.Amount) {
		t.Errorf("power paid apart, idle known: by use %v, per request %s, want by use and more than %s", got.Power.ByUse, got.PerRequest.Exact, s.PerRequest.Amount)
	}
}
