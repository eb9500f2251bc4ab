package planner

import (
	"fmt"

	"github.com/shopspring/decimal"
)

// Tax is a tax charged on a cost (VAT on an API invoice, sales tax on a
// purchase): a rate as a fraction of the pre-tax amount, and whether the
// business gets it back. Recoverable tax is cash out but not a cost once
// reclaimed; non-recoverable tax is a cost like any other.
type Tax struct {
	// Rate is a fraction: 0.19 is 19 %.
	Rate        *Figure `json:"rate"`
	Recoverable bool    `json:"recoverable"`
}

// Tax bases: the comparison counts recoverable tax ("gross") or leaves it
// out ("net", the default). Non-recoverable tax is always counted.
const (
	TaxNet   = "net"
	TaxGross = "gross"
)

// LineTax is the tax on one cost line as computed.
type LineTax struct {
	Rate        decimal.Decimal `json:"rate"`
	Recoverable bool            `json:"recoverable"`
	// PreTax is the line before tax, Amount the tax on it.
	PreTax Money `json:"pre_tax"`
	Amount Money `json:"amount"`
	// Counted is whether Amount is in the line's Monthly: false for
	// recoverable tax on the net basis.
	Counted bool `json:"counted"`
}

// rate returns the tax rate, 0 when no tax is typed.
func (t *Tax) rate() decimal.Decimal {
	if t == nil || t.Rate == nil {
		return decimal.Zero
	}
	return t.Rate.Amount
}

// counted is whether the tax is part of the cost on the basis.
func (t *Tax) counted(basis string) bool {
	return t != nil && (!t.Recoverable || basis == TaxGross)
}

// factor multiplies a pre-tax amount into the amount counted on the basis.
func (t *Tax) factor(basis string) decimal.Decimal {
	if !t.counted(basis) {
		return decimal.NewFromInt(1)
	}
	return decimal.NewFromInt(1).Add(t.rate())
}

// apply returns the amount counted on the basis and the line's tax record
// (nil when no tax is typed).
func (t *Tax) apply(pre decimal.Decimal, basis string) (decimal.Decimal, *LineTax) {
	if t == nil || t.Rate == nil {
		return pre, nil
	}
	amt := pre.Mul(t.rate())
	lt := &LineTax{Rate: t.rate(), Recoverable: t.Recoverable, PreTax: NewMoney(pre), Amount: NewMoney(amt), Counted: t.counted(basis)}
	if lt.Counted {
		return pre.Add(amt), lt
	}
	return pre, lt
}

// taxText states a line's tax for its arithmetic: " + 19 % VAT
// (recoverable, not counted)".
func taxText(lt *LineTax) string {
	if lt == nil {
		return ""
	}
	s := fmt.Sprintf(" + %s tax", DisplayShare(lt.Rate.InexactFloat64()))
	switch {
	case lt.Recoverable && !lt.Counted:
		s += " (recoverable: not counted)"
	case lt.Recoverable:
		s += " (recoverable, counted: gross basis)"
	}
	return s
}

// grossNet returns a line's amount with all its tax and without its
// recoverable tax.
func grossNet(monthly decimal.Decimal, lt *LineTax) (gross, net decimal.Decimal) {
	if lt == nil {
		return monthly, monthly
	}
	pre, amt := lt.PreTax.Exact, lt.Amount.Exact
	gross = pre.Add(amt)
	net = pre
	if !lt.Recoverable {
		net = gross
	}
	return gross, net
}

func validateTax(es *FieldErrors, field string, t *Tax) {
	if t == nil || t.Rate == nil {
		return
	}
	checkFigure(es, field+".rate", t.Rate)
	if t.Rate.Amount.GreaterThanOrEqual(decimal.NewFromInt(1)) {
		es.add(field+".rate", fmt.Sprintf("a fraction below 1 (0.19 = 19 %%), got %s", t.Rate.Amount))
	}
}

// TaxLines are the self-hosted cost lines a tax may be typed on
// (SelfHostedCosts.Taxes keys), with the labels forms show.
var TaxLines = []struct{ Category, Label string }{
	{"equipment", "Equipment"}, {"power", "Power"}, {"facilities", "Facilities"}, {"hosting", "Hosting"},
	{"support", "Support"}, {"software", "Software"}, {"monitoring", "Monitoring"}, {"backup", "Backup"},
	{"labour", "Operator labour"}, {"downtime", "Expected downtime allowance"}, {"per_request", "Per-request costs (V_local)"},
}

func isTaxLine(cat string) bool {
	for _, l := range TaxLines {
		if l.Category == cat {
			return true
		}
	}
	return false
}
