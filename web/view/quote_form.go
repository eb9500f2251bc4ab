package view

import (
	"strings"

	"capplan/planner"
)

// figureAmount shows a Figure's amount, "—" when not typed.
func figureAmount(f *planner.Figure) string {
	if f == nil {
		return "—"
	}
	return groupDigits(f.Amount.String())
}

// quoteUnit is a quote price's unit for its label: in the typed currency
// when that is a currency code ("EUR/1M tokens"), else without one ("per
// 1M tokens") rather than a dash or whatever was typed.
func quoteUnit(unit, typed string) string {
	if cur := strings.ToUpper(strings.TrimSpace(typed)); IsCurrencyCode(cur) {
		return UnitFor(unit, cur)
	}
	if rest, ok := strings.CutPrefix(unit, "CUR/"); ok {
		return "per " + rest
	}
	return UnitFor(unit, "")
}
