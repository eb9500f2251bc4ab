package view

import (
	"fmt"
)

// TierSlots is how many volume bands the quote form offers.
const TierSlots = 3

// TierName is the form name of field of the quote form's i-th volume band.
func TierName(i int, field string) string { return fmt.Sprintf("quote.tiers[%d].%s", i, field) }

func recoverableText(ok bool) string {
	if ok {
		return "recoverable"
	}
	return "not recoverable"
}
