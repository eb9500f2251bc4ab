package planner

import (
	"math"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
)

// The display rules: one function per kind of figure, used by the page,
// the charts' labels, the workbook's text and the JSON API's "display"
// fields, so every reader sees the same digits.
//
//   - Money and per-request prices: cents, or 3 significant figures when
//     cents would show fewer: 2,410.87, 12.80, 0.00578, 0.000261. The exact
//     value stays in Money.Exact (the page puts it in a tooltip).
//   - Shares: percentages with 3 significant figures and at most 4
//     decimals, trailing zeros dropped, never rounded to 0 % or 100 % unless
//     exactly so: 0.14 %, 50.9 %, 62 %, 99.99 %.
//   - Request counts that come from a division (the crossover, break-even
//     demand): rounded up to a whole request (RoundRequests), the same
//     number in the sentence, the box and the workbook.

// MoneySignificant is the fewest significant figures a displayed amount has.
const MoneySignificant = 3

// MoneyPlaces is the decimal places of a displayed amount: at least 2
// (cents), more when cents would show fewer than MoneySignificant
// significant figures.
func MoneyPlaces(d decimal.Decimal) int32 {
	if d.IsZero() {
		return 2
	}
	exp := int(math.Floor(math.Log10(math.Abs(d.InexactFloat64()))))
	return int32(max(2, MoneySignificant-1-exp))
}

// DisplayMoney writes an amount as people are shown it: rounded half away
// from zero to MoneyPlaces, with thousands separators: 2,410.87, 12.80,
// 0.00578.
func DisplayMoney(d decimal.Decimal) string {
	places := MoneyPlaces(d)
	r := d.Round(places)
	// Rounding can add a digit (0.009996 -> 0.0100): recount on the result.
	if p := MoneyPlaces(r); p < places && !r.IsZero() {
		places = max(p, 2)
	}
	return groupFixed(r.StringFixed(places))
}

// DisplayShare writes a fraction as a percentage: 0.0014 -> "0.14 %",
// 0.5089 -> "50.9 %", 0.62 -> "62 %", 0.99994 -> "99.99 %".
func DisplayShare(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "–"
	}
	pct := f * 100
	if pct == 0 {
		return "0 %"
	}
	exp := int(math.Floor(math.Log10(math.Abs(pct))))
	places := min(4, max(0, 2-exp))
	s := strconv.FormatFloat(pct, 'f', places, 64)
	for places < 4 {
		v, _ := strconv.ParseFloat(s, 64)
		if (v != 100 || pct == 100) && v != 0 {
			break
		}
		places++
		s = strconv.FormatFloat(pct, 'f', places, 64)
	}
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s + " %"
}

// RoundRequests is the one rounding rule for a request count that comes
// out of a division: up to the next whole request (at 75,000.2 requests
// the 75,001st is the first that pays).
func RoundRequests(n decimal.Decimal) int64 {
	return n.Ceil().IntPart()
}

// DisplayCount writes a whole count with thousands separators: 75,000.
func DisplayCount(n int64) string { return groupDigits(n) }

// DaysPerMonth is the average month in days, 365 / 12, matching
// HoursPerMonth (730 h).
var DaysPerMonth = decimal.NewFromInt(365).Div(decimal.NewFromInt(12))

// PerDay is a monthly request count as a daily one, rounded up.
func PerDay(monthly decimal.Decimal) int64 {
	return RoundRequests(monthly.Div(DaysPerMonth))
}

// groupFixed puts thousands separators into a fixed-point decimal string:
// "-2410.87" -> "-2,410.87".
func groupFixed(s string) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, hasFrac := strings.Cut(s, ".")
	v, err := strconv.ParseInt(whole, 10, 64)
	if err == nil {
		whole = groupDigits(v)
	}
	if hasFrac {
		whole += "." + frac
	}
	if neg && strings.Trim(whole, "0.,") != "" {
		return "-" + whole
	}
	return whole
}
