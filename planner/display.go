package planner

import (
	"fmt"
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
//     demand): rounded up to a whole request (RoundRequests, Wanted), the same
//     number in the sentence, the box and the workbook.
//   - Every other measured or derived figure (rates, latencies, tokens per
//     joule, watts, the busy-hour rate): DisplayNumber, the decimals its
//     column or sentence usually shows, or more when those would show fewer
//     than DisplaySignificant significant figures: 0.190 req/s, 0.110
//     tok/J, 8,706.2 tok/s, 631.3 W. A whole number shown without decimals
//     stays whole (300 s, 56 °C). Percentages written in a fixed style
//     (DisplayPercent) keep the same 3 figures: 0.600 %, 99.994 %.

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

// DisplaySignificant is the fewest significant figures a displayed figure
// has (money: MoneySignificant).
const DisplaySignificant = 3

// DisplayPlaces is the decimals DisplayNumber writes v with: places, or
// more when places would show fewer than DisplaySignificant significant
// figures; places (0 at least) for a whole number shown without decimals
// and for zero.
func DisplayPlaces(v float64, places int) int {
	places = max(places, 0)
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) || (places == 0 && v == math.Trunc(v)) {
		return places
	}
	exp := int(math.Floor(math.Log10(math.Abs(v))))
	p := max(places, DisplaySignificant-1-exp)
	// Rounding can add a digit (0.09996 -> 0.100): recount on the result.
	if r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'f', p, 64), 64); err == nil && r != 0 {
		if e := int(math.Floor(math.Log10(math.Abs(r)))); e > exp {
			p = max(places, DisplaySignificant-1-e)
		}
	}
	return p
}

// DisplayNumber writes a measured or derived figure by the display rule:
// places decimals, or as many more as keep DisplaySignificant significant
// figures, thousands separated: 0.19 -> "0.190", 8706.23 -> "8,706.2" (1
// place), 631.2969 -> "631.3" (1 place), 56 -> "56" (0 places).
func DisplayNumber(v float64, places int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "–"
	}
	return groupFixed(strconv.FormatFloat(v, 'f', DisplayPlaces(v, places), 64))
}

// DisplayPercent writes a fraction as a percentage with places decimals,
// or more to keep DisplaySignificant significant figures: 0.006 ->
// "0.600 %" (2 places), 0.99994 -> "99.994 %" (3), 0.18 -> "18.0 %" (1).
func DisplayPercent(f float64, places int) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "–"
	}
	return DisplayNumber(f*100, places) + " %"
}

// InputSignificant is the fewest significant figures of a figure written
// to be read back or worked by hand: a form field's value, a term of a
// formula.
const InputSignificant = 6

// DisplayInputDecimal writes such a figure: rounded half away from zero to
// InputSignificant significant figures and at least 4 decimals where it
// has them, trailing zeros dropped, no thousands separators (a form reads
// it back): 2410.8680888... -> "2410.8681", 0.00026112 -> "0.00026112",
// 0.00360610607831391 -> "0.00360611", 631.2969047619048 -> "631.2969",
// 640 -> "640".
func DisplayInputDecimal(d decimal.Decimal) string {
	if d.IsZero() {
		return "0"
	}
	exp := int(math.Floor(math.Log10(math.Abs(d.InexactFloat64()))))
	places := int32(max(4, InputSignificant-1-exp))
	if -d.Exponent() <= places {
		return d.String()
	}
	return d.Round(places).String() // String drops trailing zeros
}

// DisplayInput is DisplayInputDecimal for a float (a measured mean, a
// share derived from a log): 65.599609375 -> "65.5996",
// 59.599999999999994 -> "59.6".
func DisplayInput(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "–"
	}
	return DisplayInputDecimal(decimal.NewFromFloat(v))
}

// RequestSide is which way RoundRequests rounds a count of requests.
type RequestSide bool

const (
	// Wanted is a count demand wants (an overflow sent to an API, a
	// crossover's N, a break-even demand): it rounds up, at 75,000.2
	// requests the 75,001st is the first that pays.
	Wanted RequestSide = false
	// Served is a count a box serves: it rounds down, a box cannot serve
	// part of a request more.
	Served RequestSide = true
)

// RoundRequests is the one rounding rule for a count of requests that
// comes out of arithmetic (docs/method.md, "Rounding"): what is wanted
// rounds up to a whole request, what is served rounds down.
func RoundRequests(n decimal.Decimal, side RequestSide) int64 {
	if side == Served {
		return n.Floor().IntPart()
	}
	return n.Ceil().IntPart()
}

// RequestsOf is a count of requests computed in floating point, for
// RoundRequests: its noise (12 x 365 / 12 = 365.00000000000006) is cut at
// the sixth decimal, so it neither adds a request nor drops one.
func RequestsOf(v float64) decimal.Decimal { return decimal.NewFromFloat(v).Round(6) }

// PerRequestSignificant is the significant figures a per-request price
// the planner computes keeps (RoundPerRequest).
const PerRequestSignificant = 6

// RoundPerRequest is the one rounding rule of a per-request price the
// planner computes rather than reads as typed (docs/method.md,
// "Rounding"): a quote's price per request in each piece of its cost (the
// retries' 1 / (1 - r) makes it a quotient) and the self-hosted cost per
// request with the energy of the busy time in it. Rounded half away from
// zero to PerRequestSignificant significant figures, as the workbook's
// ROUND(x, 5 - INT(LOG10(ABS(x)))) does: 0.0039183673... -> 0.00391837.
// Every cost at a demand, the crossover and the chart use the rounded
// price, so a figure shown is one the arithmetic used.
func RoundPerRequest(d decimal.Decimal) decimal.Decimal {
	if d.IsZero() {
		return d
	}
	// floor(log10 |d|), exactly: the coefficient's digits and exponent.
	c := d.Coefficient()
	mag := int32(len(c.Abs(c).String())) - 1 + d.Exponent()
	return d.Round(PerRequestSignificant - 1 - mag)
}

// DisplayCount writes a whole count with thousands separators: 75,000.
func DisplayCount(n int64) string { return groupDigits(n) }

// DaysPerMonth is the average month in days, 365 / 12, matching
// HoursPerMonth (730 h).
var DaysPerMonth = decimal.NewFromInt(365).Div(decimal.NewFromInt(12))

// PerDay is a monthly request count as a daily one, rounded up.
func PerDay(monthly decimal.Decimal) int64 {
	return RoundRequests(monthly.Div(DaysPerMonth), Wanted)
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

// ByteSize formats a size for people: 2 GiB, 300 MiB, 12 KiB, 900 bytes.
func ByteSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return Plural(int(n), "byte", "bytes")
}

// Plural counts n things: "1 row", "3 rows".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
