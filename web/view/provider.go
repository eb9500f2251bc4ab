package view

import (
	"net/url"

	"github.com/a-h/templ"

	"capplan/planner"
	"capplan/web/charts"
)

// providerStored is the provider form filled from stored inputs.
func providerStored(p *planner.ProviderInputs) url.Values {
	v := url.Values{}
	if p == nil {
		return v
	}
	v.Set("provider.currency", p.Currency)
	for _, fd := range planner.ProviderFields {
		fig := *fd.Figure(p)
		switch {
		case fig == nil:
		case fd.OwnEvidence:
			putFigure(v, fd.Key(), fig)
		default:
			v.Set(fd.Key(), fig.Amount.String())
			v.Set("provider.source", fig.Source)
			v.Set("provider.evidence_date", fig.EvidenceDate)
		}
	}
	return v
}

// providerChart draws monthly revenue, cost and margin against
// utilisation, with break-even and the expected utilisation marked.
func providerChart(pv planner.ProviderView, currency string) templ.Component {
	c := charts.CostLines{Title: "Monthly margin against utilisation", Currency: currency, XName: "utilisation (%)", XMax: 100.0,
		Series: map[string][]*float64{}, Marks: map[string][]charts.Mark{}}
	for _, pt := range pv.Chart {
		c.Demand = append(c.Demand, pt.Utilisation*100)
		c.Series["revenue"] = append(c.Series["revenue"], planner.F(pt.Revenue))
		c.Series["cost"] = append(c.Series["cost"], planner.F(pt.Cost))
		c.Series["margin"] = append(c.Series["margin"], planner.F(pt.Margin))
	}
	if be := pv.BreakEvenUtilisation; be != nil && *be <= 1 {
		c.Marks["margin"] = append(c.Marks["margin"], charts.Mark{Label: "break-even " + planner.DisplayShare(*be), Demand: *be * 100})
	}
	if u := pv.ExpectedUtilisation; u != nil {
		c.Marks["margin"] = append(c.Marks["margin"], charts.Mark{Label: "expected " + planner.DisplayShare(*u), Demand: *u * 100, Minor: true})
	}
	return charts.CostLinesChart(c)
}

func optShare(v *float64) string {
	if v == nil {
		return "—"
	}
	return planner.DisplayShare(*v)
}

func optCount(v *int64) string {
	if v == nil {
		return "—"
	}
	return planner.DisplayCount(*v)
}

// providerCurrency is the currency the provider form's prices are typed in:
// as typed, else as stored, else the report's.
func providerCurrency(v Report, f SectionForm, stored url.Values) string {
	if c := f.Val("", "provider.currency", stored.Get("provider.currency")); c != "" {
		return c
	}
	return v.Result.Currency
}
