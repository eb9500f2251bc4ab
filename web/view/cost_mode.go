package view

import (
	"strings"

	"github.com/a-h/templ"

	"capplan/planner"
)

// costMode is the equipment mode the self-hosted form shows (as typed or
// saved; "" is a purchase) and whether the rent includes power.
func costMode(fs MoneyForm) (mode string, powerInRent bool) {
	s := planner.SelfHostedCosts{EquipmentMode: fs.Val("self_hosted.equipment_mode"), RentIncludesPower: fs.Val("self_hosted.rent_includes_power")}
	return s.EquipmentMode, s.PowerInRent()
}

// costRowAttrs mark a self-hosted input's row with the modes it belongs to
// (app.js shows and hides rows by them when the choice changes) and hide
// it when the shown mode does not ask for it, unless it holds a refusal.
func costRowAttrs(fd planner.Field, mode string, powerInRent bool, fs MoneyForm) templ.Attributes {
	a := templ.Attributes{}
	if len(fd.Modes) > 0 {
		a["data-modes"] = strings.Join(fd.Modes, " ")
	}
	if fd.Power {
		a["data-power"] = "1"
	}
	if !fd.ShownFor(mode, powerInRent) && !hasErrorsUnder(fs.Errs, fd.Key()) {
		a["hidden"] = true
	}
	return a
}

// ownEvidence reports whether a line gives its own source, date or unit
// (or one was refused), so its fold opens.
func ownEvidence(fs MoneyForm, key string) bool {
	if fs.Val(key+".source") != "" || fs.Val(key+".evidence_date") != "" {
		return true
	}
	for _, part := range []string{".source", ".evidence_date", ".unit"} {
		if _, bad := fs.Errs[key+part]; bad {
			return true
		}
	}
	return false
}

// firstNonBlank is the first of ss that is not blank.
func firstNonBlank(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

// hasErrorsUnder reports whether the key or one of its parts was refused.
func hasErrorsUnder(errs FormErrors, key string) bool {
	for k := range errs {
		if k == key || strings.HasPrefix(k, key+".") {
			return true
		}
	}
	return false
}
