package view

import (
	"strconv"

	"capplan/planner"
	"capplan/web/store"
)

// QuoteImportView is one catalogue import as its page shows it.
type QuoteImportView struct {
	Imp store.QuoteImport
	// AddedShown bounds the new models listed by name.
	AddedShown int
	Flash      string
}

// moneyOrNone shows a catalogue price by the display rule, "none" when
// the catalogue gave none.
func moneyOrNone(m *planner.Money) string {
	if m == nil {
		return "none"
	}
	return planner.DisplayMoney(m.Exact)
}

// movePct is a move's change in per cent of the old price, signed.
func movePct(m planner.PriceMove) string {
	if m.Pct == nil {
		return ""
	}
	if *m.Pct < 0 {
		return "−" + planner.DisplayShare(-*m.Pct)
	}
	return "+" + planner.DisplayShare(*m.Pct)
}

// importSkipped says what a catalogue import left out, in one line.
func importSkipped(qi store.QuoteImport) string {
	s := "Left out: " + plural(qi.BadPrices, "price", "prices") + " not a finite non-negative number, " +
		plural(qi.Other, "model", "models") + " without input and output token prices"
	if qi.OtherKeys > 0 {
		s += "; top-level keys that are not models, skipped: " + strconv.Itoa(qi.OtherKeys)
	}
	return s
}
