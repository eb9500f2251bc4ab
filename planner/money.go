package planner

import (
	"encoding/json"

	"github.com/shopspring/decimal"
)

// Figure is one typed-in input with its evidence: an amount, the unit it is
// expressed in, where it came from and the date of that evidence. Every cost
// input, price and rate in a report is a Figure, so a reader can check each
// one and Result can mark the ones that have gone stale.
//
// Amounts are exact decimals. A nil *Figure means "not typed"; a Figure whose
// Amount is zero was typed as zero on purpose.
type Figure struct {
	Amount decimal.Decimal `json:"amount"`
	// Unit says what Amount counts, e.g. "EUR/month", "EUR", "EUR/h",
	// "EUR/kWh", "W", "h/month", "EUR/1M tokens", "fraction".
	Unit string `json:"unit"`
	// Source names the evidence: an invoice, a quote, a meter, a person.
	Source string `json:"source"`
	// EvidenceDate is the date of the evidence, YYYY-MM-DD.
	EvidenceDate string `json:"evidence_date"`
	// Currency is the ISO 4217 code a money amount is typed in when it is
	// not the report's (or its quote's) currency; empty means that one. An
	// amount in another currency is converted with the report's dated
	// exchange rate. Non-money figures (watts, hours, shares) ignore it.
	Currency string `json:"currency,omitempty"`
}

// Fig returns a Figure for a decimal literal such as "2000" or "0.05"; a
// helper for tests and demo data. It panics on a malformed literal.
func Fig(amount, unit, source, date string) *Figure {
	return &Figure{Amount: decimal.RequireFromString(amount), Unit: unit, Source: source, EvidenceDate: date}
}

// Money is a computed amount of the report's currency. Exact keeps the full
// precision of the arithmetic (divisions carry 16 decimal places); Rounded is
// it rounded half-up to cents, for accounts; what people are shown is
// Display (DisplayMoney: cents, or three significant figures when cents
// would show fewer), written to JSON as "display".
type Money struct {
	Exact   decimal.Decimal `json:"exact"`
	Rounded decimal.Decimal `json:"rounded"`
}

// RoundingRule states how Money.Rounded is derived from Money.Exact. It is
// copied into Result so every reader sees it.
const RoundingRule = "amounts are computed exactly; displayed amounts are rounded half-up to cents, or to 3 significant figures when cents would show fewer (0.00578); request counts such as the crossover are rounded up to a whole request"

// NewMoney wraps an exact amount with its rounded display value.
func NewMoney(d decimal.Decimal) Money {
	return Money{Exact: d, Rounded: roundHalfUp(d, 2)}
}

// roundHalfUp rounds d to places decimals, halves away from zero.
func roundHalfUp(d decimal.Decimal, places int32) decimal.Decimal {
	return d.Round(places) // shopspring rounds half away from zero
}

// moneyJSON is Money on the wire: decimal strings, the rounded one always
// with two decimals ("25.00"), so readers need not reformat it.
type moneyJSON struct {
	Exact   string `json:"exact"`
	Rounded string `json:"rounded"`
	Display string `json:"display"`
}

// Display is the amount as every page, chart label and workbook shows it.
func (m Money) Display() string { return DisplayMoney(m.Exact) }

// MarshalJSON writes Money as decimal strings, Rounded with two decimals,
// and Display as the page shows it.
func (m Money) MarshalJSON() ([]byte, error) {
	return json.Marshal(moneyJSON{Exact: m.Exact.String(), Rounded: m.Rounded.StringFixed(2), Display: m.Display()})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (m *Money) UnmarshalJSON(b []byte) error {
	var j moneyJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	var err error
	if m.Exact, err = decimal.NewFromString(j.Exact); err != nil {
		return err
	}
	m.Rounded, err = decimal.NewFromString(j.Rounded)
	return err
}
