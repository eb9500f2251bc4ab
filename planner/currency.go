package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/shopspring/decimal"
)

// ExchangeRate converts amounts typed in another currency into the report's
// currency. The rate is evidence like every other input: a Figure whose
// Amount is how much of the report's currency one unit of Currency buys
// (0.92 with Unit "EUR/USD"), with its source and date. It is aged against
// the report date and goes stale after the report's staleness age.
type ExchangeRate struct {
	// Currency is the ISO 4217 code converted from, e.g. "USD".
	Currency string  `json:"currency"`
	Rate     *Figure `json:"rate"`
}

// Converted is an amount typed (or computed) in another currency, kept
// beside its value in the report's currency so a reader sees the original
// and the rate it was converted at.
type Converted struct {
	// Currency is the original currency and Amount the amount in it.
	Currency string `json:"currency"`
	Amount   Money  `json:"amount"`
	// Rate is report currency per unit of Currency, with its evidence.
	Rate       decimal.Decimal `json:"rate"`
	RateSource string          `json:"rate_source"`
	RateDate   string          `json:"rate_date"`
}

// rateUse is one exchange rate as applied: the currency it converts from
// and the rate's figure. A nil *rateUse means no conversion (the report's
// currency).
type rateUse struct {
	currency string
	rate     *Figure
}

// of converts an amount in the rate's currency into the report's.
func (u *rateUse) of(d decimal.Decimal) decimal.Decimal {
	if u == nil {
		return d
	}
	return d.Mul(u.rate.Amount)
}

// original describes d, an amount in the rate's currency, as converted;
// nil when no conversion took place.
func (u *rateUse) original(d decimal.Decimal) *Converted {
	if u == nil {
		return nil
	}
	return &Converted{Currency: u.currency, Amount: NewMoney(d), Rate: u.rate.Amount, RateSource: u.rate.Source, RateDate: u.rate.EvidenceDate}
}

// text states the rate for the arithmetic shown: "x 0.92 EUR/USD".
func (u *rateUse) text(report string) string {
	if u == nil {
		return ""
	}
	return fmt.Sprintf(" x %s %s/%s", u.rate.Amount, report, u.currency)
}

// converter finds the rate for an amount's currency. Missing lists the
// currencies used without a rate, in the order first met, with where.
type converter struct {
	report  string
	rates   map[string]*Figure
	missing []missingRate
}

type missingRate struct {
	currency string
	field    string
}

func newConverter(report string, rates []ExchangeRate) *converter {
	c := &converter{report: strings.ToUpper(report), rates: map[string]*Figure{}}
	for _, r := range rates {
		if r.Rate != nil && r.Rate.Amount.IsPositive() {
			c.rates[strings.ToUpper(r.Currency)] = r.Rate
		}
	}
	return c
}

// use returns the rate for currency cur (nil for the report's own currency
// or none given) and whether the amount can be converted; field names the
// input that needs it, for the problem a missing rate raises.
func (c *converter) use(cur, field string) (*rateUse, bool) {
	cur = strings.ToUpper(strings.TrimSpace(cur))
	if c == nil || cur == "" || cur == c.report {
		return nil, true
	}
	if r, ok := c.rates[cur]; ok {
		return &rateUse{currency: cur, rate: r}, true
	}
	if !slices.ContainsFunc(c.missing, func(m missingRate) bool { return m.currency == cur }) {
		c.missing = append(c.missing, missingRate{cur, field})
	}
	return nil, false
}

// problems are the currencies used without an exchange rate, as refused
// inputs under "exchange_rates".
func (c *converter) problems() FieldErrors {
	var es FieldErrors
	for _, m := range c.missing {
		es.add("exchange_rates", fmt.Sprintf("%s is used (%s) but no dated %s/%s rate is entered: its amounts are not converted or compared",
			m.currency, FieldLabel(m.field), c.report, m.currency))
	}
	return es
}

// figureCurrency is the currency a money Figure is typed in: its own, else
// the one its unit names ("USD/h"), else the default of the record it
// belongs to (a quote's currency), else the report's ("").
func figureCurrency(f *Figure, def string) string {
	if f != nil && f.Currency != "" {
		return f.Currency
	}
	if f != nil {
		if c := UnitCurrency(f.Unit); c != "" {
			return c
		}
	}
	return def
}

// UnitCurrency is the ISO 4217 code a money unit names: "EUR/h" -> "EUR",
// "usd / month" -> "USD", "GBP" -> "GBP"; "" for a unit that names none
// ("W", "h/month", "fraction").
func UnitCurrency(unit string) string {
	head := strings.TrimSpace(unit)
	if i := strings.IndexAny(head, "/ "); i >= 0 {
		head = head[:i]
	}
	head = strings.ToUpper(head)
	if IsCurrencyCode(head) {
		return head
	}
	return ""
}

// checkUnitCurrencies refuses each money figure of fs in rec whose unit or
// currency names a currency other than report's without a dated rate for
// it: it would otherwise be added up as the report's currency, or left
// out. A figure in another currency with a rate is converted, and its
// cost line says at which rate.
func checkUnitCurrencies[T any](es *FieldErrors, prefix string, rec *T, fs []InputField[T], report string, rates []ExchangeRate) {
	report = strings.ToUpper(strings.TrimSpace(report))
	have := map[string]bool{}
	for _, r := range rates {
		if r.Rate != nil && r.Rate.Amount.IsPositive() {
			have[strings.ToUpper(strings.TrimSpace(r.Currency))] = true
		}
	}
	for _, f := range fs {
		if f.Figure == nil || !strings.Contains(f.Unit, "CUR") {
			continue
		}
		fig := *f.Figure(rec)
		if fig == nil {
			continue
		}
		cur := strings.ToUpper(figureCurrency(fig, ""))
		if cur == "" || cur == report || have[cur] {
			continue
		}
		key := prefix + "." + f.Name
		named := fmt.Sprintf("the unit %q names %s", fig.Unit, cur)
		if fig.Currency != "" {
			key, named = key+".currency", fmt.Sprintf("the amount is in %s", cur)
		}
		es.add(key, fmt.Sprintf("%s, but the report is in %s and has no dated %s/%s exchange rate: type the amount in %s, or enter a %s rate under exchange rates first",
			named, report, report, cur, report, cur))
	}
}

// CheckCurrencies refuses, at save, a self-hosted money figure whose unit
// names a currency other than the report's (report) without a dated rate
// among rates; field names start "self_hosted".
func (s SelfHostedCosts) CheckCurrencies(report string, rates []ExchangeRate) error {
	var es FieldErrors
	checkUnitCurrencies(&es, "self_hosted", &s, SelfHostedFields, report, rates)
	return es.err()
}

// validateRates checks the exchange rates: a known code other than the
// report's, a positive dated rate, each currency once.
func validateRates(es *FieldErrors, report string, rates []ExchangeRate) {
	seen := map[string]bool{}
	for i, r := range rates {
		p := fmt.Sprintf("exchange_rates[%d]", i)
		cur := strings.ToUpper(strings.TrimSpace(r.Currency))
		switch {
		case !IsCurrencyCode(cur):
			es.add(p+".currency", fmt.Sprintf("an ISO 4217 currency code such as USD, got %q", r.Currency))
		case cur == strings.ToUpper(report):
			es.add(p+".currency", fmt.Sprintf("%s is the report's own currency: it needs no rate", cur))
		case seen[cur]:
			es.add(p+".currency", fmt.Sprintf("%s has two rates: keep one", cur))
		}
		seen[cur] = true
		if r.Rate == nil {
			es.add(p+".rate", "required: how much of the report's currency one unit buys")
			continue
		}
		if !r.Rate.Amount.IsPositive() {
			es.add(p+".rate", fmt.Sprintf("must be above 0, got %s", r.Rate.Amount))
		}
		checkDate(es, p+".rate.evidence_date", r.Rate.EvidenceDate, true)
		if strings.TrimSpace(r.Rate.Source) == "" {
			es.add(p+".rate.source", "required: name where the rate comes from (e.g. the ECB reference rate)")
		}
	}
}

// checkCurrency refuses a currency that is not an ISO 4217 code; empty is
// allowed (the report's currency).
func checkCurrency(es *FieldErrors, field, cur string) {
	if cur != "" && !IsCurrencyCode(strings.ToUpper(cur)) {
		es.add(field, fmt.Sprintf("an ISO 4217 currency code such as EUR or USD, got %q", cur))
	}
}

// IsCurrencyCode reports whether s is an active ISO 4217 currency code
// (upper case), e.g. "EUR", "USD", "JPY", "CHF".
func IsCurrencyCode(s string) bool {
	if len(s) != 3 {
		return false
	}
	_, ok := isoCurrencies[s]
	return ok
}

// isoCurrencies are the active ISO 4217 codes (list one, 2026).
var isoCurrencies = func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, c := range strings.Fields(`
AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BOV BRL BSD BTN BWP BYN BZD
CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP
GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW
KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN
NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SLL
SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD USN UYI UYU UYW UZS VED VES
VND VUV WST XAF XAG XAU XBA XBB XBC XBD XCD XCG XDR XOF XPD XPF XPT XSU XUA YER ZAR ZMW ZWG ZWL`) {
		m[c] = struct{}{}
	}
	return m
}()

// CheckUnitCurrencies refuses, at save, a quote's price whose unit names
// a currency other than the quote's own (currency): the quote's amounts are
// all in its currency, and a price typed as "USD/1M tokens" in a EUR quote
// would be counted as EUR. Field names start "quote".
func (q Quote) CheckUnitCurrencies(currency string) error {
	var es FieldErrors
	qc := strings.ToUpper(strings.TrimSpace(currency))
	for _, f := range QuoteFields {
		if qc == "" || f.Figure == nil || !strings.Contains(f.Unit, "CUR") {
			continue
		}
		fig := *f.Figure(&q)
		if fig == nil {
			continue
		}
		if uc := UnitCurrency(fig.Unit); uc != "" && uc != qc {
			es.add("quote."+f.Name, fmt.Sprintf("the unit %q names %s, but the quote is in %s: type the price in %s, or make the quote's currency %s",
				fig.Unit, uc, qc, qc, uc))
		}
	}
	return es.err()
}
