package planner

import (
	"fmt"

	"github.com/shopspring/decimal"
)

// Equipment modes: how the box is paid for.
const (
	// EquipPurchase is bought: (price - residual value) spread over the
	// depreciation months, straight line, or as an annuity when an annual
	// cost of capital is typed.
	EquipPurchase = "purchase"
	// EquipRent is rented on demand: rate per hour x hours a month.
	EquipRent = "rent"
	// EquipCommitted is reserved or committed rent: a monthly commitment
	// for a term, plus any upfront payment spread over the term.
	EquipCommitted = "committed"
	// EquipSpot is spot or preemptible rent: a lower rate per hour, with
	// an allowance for interruptions (extra capacity held, and/or the
	// interrupted share served at a fallback rate).
	EquipSpot = "spot"
)

// equipmentLine computes the equipment cost line of one box a month.
// money returns a money Figure's amount in the report's currency.
func (s SelfHostedCosts) equipmentLine(money func(string, *Figure) decimal.Decimal) (label string, v decimal.Decimal, typed bool, basis string, evidence [][]Evidence) {
	p := "self_hosted."
	hours := orDefault(s.RentHoursPerMonth, HoursPerMonth)
	one := decimal.NewFromInt(1)
	switch s.EquipmentMode {
	case EquipRent:
		rate := money(p+"rent_per_hour", s.RentPerHour)
		return "Equipment (rent)", rate.Mul(hours), s.RentPerHour != nil,
			fmt.Sprintf("%s %s x %s h", rate, unitOf(s.RentPerHour, "per h"), hours),
			[][]Evidence{ev(p+"rent_per_hour", s.RentPerHour), ev(p+"rent_hours_per_month", s.RentHoursPerMonth)}

	case EquipCommitted:
		monthly := money(p+"commit_monthly", s.CommitMonthly)
		upfront := money(p+"commit_upfront", s.CommitUpfront)
		term := decimal.NewFromInt(int64(max(s.CommitTermMonths, 0)))
		v, typed = monthly, s.CommitMonthly != nil && s.CommitTermMonths > 0
		if s.CommitTermMonths > 0 {
			v = monthly.Add(upfront.Div(term))
		}
		return "Equipment (committed rent)", v, typed,
			fmt.Sprintf("%s a month committed + %s upfront / %d months term", monthly, upfront, s.CommitTermMonths),
			[][]Evidence{ev(p+"commit_monthly", s.CommitMonthly), ev(p+"commit_upfront", s.CommitUpfront)}

	case EquipSpot:
		rate := money(p+"spot_per_hour", s.SpotPerHour)
		fallback := money(p+"spot_fallback_per_hour", s.SpotFallbackPerHour)
		interrupted, _ := amount(s.SpotInterruptedShare)
		extra, _ := amount(s.SpotExtraCapacity)
		// Spot hours: the share not interrupted, with the extra capacity
		// held; interrupted hours at the fallback rate (zero when none).
		spot := hours.Mul(one.Sub(interrupted)).Mul(rate).Mul(one.Add(extra))
		fb := hours.Mul(interrupted).Mul(fallback)
		return "Equipment (spot rent)", spot.Add(fb), s.SpotPerHour != nil,
			fmt.Sprintf("%s h x (1 - %s interrupted) x %s %s x (1 + %s extra capacity) + %s h x %s interrupted x %s fallback",
				hours, interrupted, rate, unitOf(s.SpotPerHour, "per h"), extra, hours, interrupted, fallback),
			[][]Evidence{ev(p+"spot_per_hour", s.SpotPerHour), ev(p+"spot_interrupted_share", s.SpotInterruptedShare),
				ev(p+"spot_fallback_per_hour", s.SpotFallbackPerHour), ev(p+"spot_extra_capacity", s.SpotExtraCapacity),
				ev(p+"rent_hours_per_month", s.RentHoursPerMonth)}

	default:
		price := money(p+"purchase_price", s.PurchasePrice)
		residual := money(p+"residual_value", s.ResidualValue)
		typed = s.PurchasePrice != nil && s.DepreciationMonths > 0
		evs := [][]Evidence{ev(p+"purchase_price", s.PurchasePrice), ev(p+"residual_value", s.ResidualValue), ev(p+"cost_of_capital", s.CostOfCapital)}
		if s.DepreciationMonths <= 0 {
			return "Equipment (purchase, depreciated)", decimal.Zero, false, fmt.Sprintf("%s / %d months", price, s.DepreciationMonths), evs
		}
		if s.CostOfCapital != nil {
			v, basis = Annuity(price, residual, s.CostOfCapital.Amount, s.DepreciationMonths)
			return "Equipment (purchase, annuity)", v, typed, basis, evs
		}
		v = price.Sub(residual).Div(decimal.NewFromInt(int64(s.DepreciationMonths)))
		basis = fmt.Sprintf("%s / %d months", price, s.DepreciationMonths)
		if s.ResidualValue != nil {
			basis = fmt.Sprintf("(%s - %s residual) / %d months", price, residual, s.DepreciationMonths)
		}
		return "Equipment (purchase, depreciated)", v, typed, basis, evs
	}
}

// Annuity is the level monthly payment that repays a purchase price over n
// months at an annual cost of capital (a fraction, charged monthly at
// annual / 12), leaving the residual value at the end:
//
//	payment = (price - residual / (1 + r)^n) x r / (1 - (1 + r)^-n),  r = annual / 12
//
// At a rate of zero it is the straight line, (price - residual) / n.
func Annuity(price, residual, annual decimal.Decimal, n int) (decimal.Decimal, string) {
	nd := decimal.NewFromInt(int64(n))
	if annual.IsZero() {
		return price.Sub(residual).Div(nd), fmt.Sprintf("(%s - %s residual) / %d months (0 %% cost of capital: straight line)", price, residual, n)
	}
	r := annual.Div(decimal.NewFromInt(12))
	growth := decimal.NewFromInt(1).Add(r).Pow(nd).Round(24) // (1 + r)^n
	pv := price.Sub(residual.Div(growth))                    // residual discounted to today
	payment := pv.Mul(r).Mul(growth).Div(growth.Sub(decimal.NewFromInt(1)))
	return payment, fmt.Sprintf("annuity: (%s - %s residual / (1 + %s)^%d) x %s / (1 - (1 + %s)^-%d), at %s a year",
		price, residual, r, n, r, r, n, DisplayShare(annual.InexactFloat64()))
}

// Rented reports whether the box is rented (on demand, committed or
// spot) rather than bought.
func (s SelfHostedCosts) Rented() bool {
	switch s.EquipmentMode {
	case EquipRent, EquipCommitted, EquipSpot:
		return true
	}
	return false
}

// PowerInRent reports whether the power line is paid with the rent: a
// rented box whose rent includes power.
func (s SelfHostedCosts) PowerInRent() bool { return s.Rented() && s.RentIncludesPower == "yes" }

func (s SelfHostedCosts) validateEquipment(es *FieldErrors, p string) {
	if s.RentIncludesPower == "yes" && !s.Rented() {
		es.add(p+".rent_includes_power", "only a rented box's rent can include its power: the equipment is bought (choose rent, committed or spot, or \"no\")")
	}
	switch s.EquipmentMode {
	case "", EquipPurchase:
		if s.PurchasePrice != nil && s.DepreciationMonths <= 0 {
			es.add(p+".depreciation_months", "must be at least 1 month")
		}
		if s.PurchasePrice != nil && s.ResidualValue != nil && s.ResidualValue.Amount.GreaterThan(s.PurchasePrice.Amount) &&
			figureCurrency(s.ResidualValue, "") == figureCurrency(s.PurchasePrice, "") {
			es.add(p+".residual_value", fmt.Sprintf("must not exceed the purchase price %s, got %s", s.PurchasePrice.Amount, s.ResidualValue.Amount))
		}
	case EquipRent:
		if s.RentPerHour == nil {
			es.add(p+".rent_per_hour", "required when equipment is rented")
		}
	case EquipCommitted:
		if s.CommitMonthly == nil {
			es.add(p+".commit_monthly", "required for committed rent (a typed zero is allowed when all is upfront)")
		}
		if s.CommitTermMonths <= 0 {
			es.add(p+".commit_term_months", "the commitment's term, at least 1 month")
		}
	case EquipSpot:
		if s.SpotPerHour == nil {
			es.add(p+".spot_per_hour", "required for spot rent")
		}
	}
	// An unknown mode, amounts and bounds: the registry (validateFields).
}
