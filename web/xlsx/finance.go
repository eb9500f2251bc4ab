package xlsx

import (
	"fmt"
	"strings"

	"capplan/planner"
)

// financeSheet holds the exchange rates as named inputs (Rate_USD, ...),
// each quote's rate into the report's currency (Quote1_Rate, ...), and the
// provider view: selling prices and the expected utilisation as inputs,
// revenue at capacity, break-even utilisation and the margin as live
// formulas (docs/method.md, "Provider view").
func (b *book) financeSheet() {
	s := b.sheets[shFinance]
	s.cols(52, 18, 16, 34, 14, 30, 60)
	in, res := b.r.Inputs, b.r.Result
	b.title(s, "Exchange rates and the provider view (yellow cells are inputs)")

	s.add(excelize_bold(b, "Exchange rates into "+res.Currency))
	b.headers(s, "Currency", "Rate ("+res.Currency+" per unit)", "", "Source", "Date", "Named range")
	for _, x := range in.ExchangeRates {
		if x.Rate == nil {
			continue
		}
		row := s.next()
		n := "Rate_" + defName(strings.ToUpper(x.Currency))
		s.add(x.Currency, v(b.st.numIn, x.Rate.Amount.InexactFloat64()), nil, v(b.st.wrap, x.Rate.Source), x.Rate.EvidenceDate, b.name(n, s, 2, row))
	}
	if len(in.ExchangeRates) == 0 {
		s.add("No exchange rate: every amount is in " + res.Currency + ".")
	}
	s.add()
	s.add(excelize_bold(b, "Each quote's rate"))
	for i, q := range res.Quotes {
		row := s.next()
		f, val := "1", 1.0
		if q.FixedOriginal != nil || q.PerRequestOriginal != nil {
			c := q.PerRequestOriginal
			if c == nil {
				c = q.FixedOriginal
			}
			f, val = "Rate_"+defName(c.Currency), c.Rate.InexactFloat64()
		}
		label := q.Name + " (" + q.Currency + ")"
		if q.Excluded != "" {
			label += ": " + q.Excluded
		}
		s.add(label, fx(b.st.num, f, val), nil, nil, nil, b.name(quotePrefix(i)+"Rate", s, 2, row))
	}

	s.add()
	s.add(excelize_bold(b, "Tax on each quote's invoice (basis: "+res.TaxBasis+")"))
	b.headers(s, "Quote", "Tax rate", "Counted (1) or recoverable and left out (0)", "Tax factor", "", "Named range")
	for i, q := range in.Quotes {
		p := quotePrefix(i)
		row := s.next()
		var rate any
		counted := 0
		if q.Tax != nil && q.Tax.Rate != nil {
			rate = q.Tax.Rate.Amount.InexactFloat64()
			if !q.Tax.Recoverable || res.TaxBasis == planner.TaxGross {
				counted = 1
			}
		}
		f := 1.0
		if r, ok := rate.(float64); ok && counted == 1 {
			f += r
		}
		s.add(q.Name, v(b.st.pctIn, rate), v(b.st.intIn, counted), fx(b.st.num, fmt.Sprintf("1+N(%s)*N(%s)", rel(2, row), rel(3, row)), f), nil, b.name(p+"Tax_Factor", s, 4, row))
		b.name(p+"Tax_Rate", s, 2, row)
		b.name(p+"Tax_Counted", s, 3, row)
	}

	cats := []string{}
	for _, l := range res.SelfHosted.Lines {
		cats = append(cats, l.Category)
	}
	cats = append(cats, "per_request")
	taxed := false
	for _, cat := range cats {
		if !b.shTaxed(cat) {
			continue
		}
		if !taxed {
			taxed = true
			s.add()
			s.add(excelize_bold(b, "Tax on self-hosted cost lines (basis: "+res.TaxBasis+")"))
			b.headers(s, "Cost line", "Tax rate", "Counted (1) or recoverable and left out (0)", "Tax factor", "", "Named range")
		}
		t := in.SelfHosted.Taxes[cat]
		row := s.next()
		counted := 0
		if !t.Recoverable || res.TaxBasis == planner.TaxGross {
			counted = 1
		}
		rate := t.Rate.Amount.InexactFloat64()
		s.add(cat, v(b.st.pctIn, rate), v(b.st.intIn, counted), fx(b.st.num, fmt.Sprintf("1+N(%s)*N(%s)", rel(2, row), rel(3, row)), 1+rate*float64(counted)),
			nil, b.name(shTaxFactor(cat), s, 4, row))
		b.name("SH_"+camel(cat)+"_Tax_Rate", s, 2, row)
		b.name("SH_"+camel(cat)+"_Tax_Counted", s, 3, row)
	}

	s.add()
	s.add(excelize_bold(b, "Provider view: selling tokens from one box"))
	p, pv := in.Provider, res.Provider
	if p == nil || pv == nil {
		s.add("No selling prices typed: the provider view is not part of this report.")
		return
	}
	named := func(label string, cell any, name, note string) {
		row := s.next()
		s.add(label, cell, nil, v(b.st.wrap, note), nil, b.name(name, s, 2, row))
	}
	// The typed inputs: label and named range from the registry.
	input := func(field string, cell any, note string) {
		for _, fd := range planner.ProviderFields {
			if fd.Name == field {
				named(fd.Label, cell, fd.Sheet, note)
				return
			}
		}
		panic("no provider field " + field)
	}
	rate, rateV := "1", 1.0
	if len(pv.Prices) > 0 {
		rate, rateV = "Rate_"+defName(pv.Prices[0].Currency), pv.Prices[0].Rate.InexactFloat64()
	}
	input("input_per_m_tokens", v(b.st.moneyIn, dec(p.InputPerMTokens)), figNote(p.InputPerMTokens))
	input("output_per_m_tokens", v(b.st.moneyIn, dec(p.OutputPerMTokens)), figNote(p.OutputPerMTokens))
	named("Rate of the selling prices' currency", fx(b.st.num, rate, rateV), "Provider_Rate", "")
	input("expected_utilisation", v(b.st.pctIn, dec(p.ExpectedUtilisation)), figNote(p.ExpectedUtilisation))
	input("input_tokens", v(b.st.numIn, pv.InputTokens), pv.TokenBasis)
	input("output_tokens", v(b.st.numIn, pv.OutputTokens), pv.TokenBasis)
	// Utilisation is of the measured (closed-loop) ceiling: its rate times
	// the in-objective share, not the rate that holds with arrivals.
	capCell := fx(b.st.rate, `IF(OR(Ceiling_Rate="",Capacity_Share=""),N(Capacity_Per_Box_Rate),Ceiling_Rate*Capacity_Share)`, optOrEmpty(pv.CapacityRate))
	if p.CapacityRate != nil {
		capCell = v(b.st.numIn, dec(p.CapacityRate))
	}
	input("capacity_rate", capCell, pv.CapacityBasis)
	input("hours_per_month", v(b.st.numIn, pv.HoursPerMonth), "730 unless typed")

	named("Revenue per request", fx(b.st.perReq,
		"(Provider_Input_Tokens*N(Provider_Price_Input_Per_M)+Provider_Output_Tokens*N(Provider_Price_Output_Per_M))/1000000*Provider_Rate",
		money(pv.RevenuePerRequest)), "Provider_Revenue_Per_Request", "")
	// The exact count prices revenue and break-even; the count shown is
	// rounded down to a whole request, as the planner shows it.
	reqCap := 0.0
	if pv.CapacityRate != nil {
		reqCap = *pv.CapacityRate * 3600 * float64(pv.HoursPerMonth)
	}
	named("Requests a month at full capacity (exact)", fx(b.st.num, "Provider_Capacity_Rate*3600*Provider_Hours", reqCap), "Provider_Requests_At_Capacity_Exact", "")
	named("Requests a month at full capacity (rounded down)", fx(b.st.int, "ROUNDDOWN(Provider_Requests_At_Capacity_Exact,0)", int64p(pv.RequestsAtCapacity)), "Provider_Requests_At_Capacity", "")
	named("Revenue an hour at full capacity", fx(b.st.money, "Provider_Revenue_Per_Request*Provider_Capacity_Rate*3600",
		optMoney(pv.RevenueAtCapacityHourly)), "Provider_Revenue_Capacity_Hourly", "")
	named("Revenue a month at full capacity", fx(b.st.money, "Provider_Revenue_Per_Request*Provider_Requests_At_Capacity_Exact",
		optMoney(pv.RevenueAtCapacityMonthly)), "Provider_Revenue_Capacity_Monthly", "")
	named("Monthly cost of one box (F_local)", fx(b.st.money, "SH_Fixed_Per_Box", money(pv.MonthlyCost)), "Provider_Monthly_Cost", "")
	named("Break-even utilisation", fx(b.st.pct,
		`IF((Provider_Revenue_Per_Request-V_Local)*Provider_Requests_At_Capacity_Exact<=0,"",Provider_Monthly_Cost/((Provider_Revenue_Per_Request-V_Local)*Provider_Requests_At_Capacity_Exact))`,
		optOrEmpty(pv.BreakEvenUtilisation)), "Provider_Break_Even_Utilisation", "monthly cost / (revenue at capacity - V_local x requests at capacity)")
	named("Break-even requests a month", fx(b.st.int, `IF(Provider_Break_Even_Utilisation="","",ROUNDUP(Provider_Break_Even_Utilisation*Provider_Requests_At_Capacity_Exact,0))`,
		int64p(pv.BreakEvenMonthly)), "Provider_Break_Even_Monthly", "rounded up to a whole request")
	named("Break-even requests a day", fx(b.st.int, `IF(Provider_Break_Even_Utilisation="","",ROUNDUP(Provider_Break_Even_Utilisation*Provider_Requests_At_Capacity_Exact/(365/12),0))`,
		int64p(pv.BreakEvenDaily)), "Provider_Break_Even_Daily", "a month is 365 / 12 days")
	named("Margin a month at the expected utilisation", fx(b.st.money,
		`IF(Provider_Expected_Utilisation="","",Provider_Expected_Utilisation*Provider_Revenue_Capacity_Monthly-(Provider_Monthly_Cost+V_Local*Provider_Expected_Utilisation*Provider_Requests_At_Capacity_Exact))`,
		optMoney(pv.MarginAtExpected)), "Provider_Margin_Monthly", "")
	named("Margin at the expected utilisation (share of revenue)", fx(b.st.pct,
		`IF(OR(Provider_Margin_Monthly="",N(Provider_Expected_Utilisation)*Provider_Revenue_Capacity_Monthly<=0),"",Provider_Margin_Monthly/(Provider_Expected_Utilisation*Provider_Revenue_Capacity_Monthly))`,
		optOrEmpty(pv.MarginAtExpectedUtilisation)), "Provider_Margin_Share", "")
	if p.BilledRevenue != nil && pv.BilledRevenue != nil {
		input("billed_revenue", v(b.st.moneyIn, dec(p.BilledRevenue)), figNote(p.BilledRevenue)+"; in the selling prices' currency")
		named("Cost the margins are taken against", fx(b.st.money,
			`IF(Provider_Expected_Utilisation="",Provider_Monthly_Cost,Provider_Monthly_Cost+V_Local*Provider_Expected_Utilisation*Provider_Requests_At_Capacity_Exact)`,
			money(*pv.BilledCost)), "Provider_Billed_Cost", "the cost at the expected utilisation, else the fixed cost")
		named("Margin on billed revenue", fx(b.st.money, "Provider_Billed_Revenue*Provider_Rate-Provider_Billed_Cost", money(*pv.BilledMargin)), "Provider_Billed_Margin", "")
		named("Margin on billed revenue (share of it)", fx(b.st.pct, `IF(Provider_Billed_Revenue<=0,"",Provider_Billed_Margin/(Provider_Billed_Revenue*Provider_Rate))`,
			optOrEmpty(pv.BilledMarginShare)), "Provider_Billed_Margin_Share", "beside the modelled margin share above")
	}
	s.add()
	s.add(excelize_bold(b, "Summary"), v(b.st.wrap, "As computed on export: "+pv.Text))
}

// figNote is a Figure's source and date for the sheet.
func figNote(f *planner.Figure) string {
	if f == nil {
		return "not typed"
	}
	return fmt.Sprintf("%s, %s", f.Source, f.EvidenceDate)
}

func int64p(p *int64) any {
	if p == nil {
		return ""
	}
	return *p
}

// quoteIdx is the index of the named quote among the report's quotes (its
// named ranges are Quote<i+1>_...); scenarios and crossovers list only the
// quotes that can be compared.
func (b *book) quoteIdx(name string) int {
	for i, q := range b.r.Result.Quotes {
		if q.Name == name {
			return i
		}
	}
	return 0
}
