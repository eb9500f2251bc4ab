package xlsx

import (
	"fmt"

	"capplan/planner"
)

// tokensSheet writes every option's cost per million input, output and
// blended tokens in every scenario, the box's frontier-comparable figure
// and, per scenario, the steps from it to the all-in figure, all live
// formulas of the Costs, Matrix and Scenarios sheets (docs/method.md,
// "Cost per million tokens"). Each step is the difference of two running
// figures, the last the all-in one, so the steps sum to the gap exactly.
func (b *book) tokensSheet() {
	s := b.sheets[shTokens]
	s.cols(34, 22, 18, 18, 16, 16, 16, 16, 70)
	s.freeze = 0
	res := b.r.Result
	b.title(s, "Cost per million tokens at the objective")
	inF, outF := b.tokenFormulas()
	var inTok, outTok float64
	for _, sr := range res.Scenarios {
		for _, o := range sr.Options {
			if o.PerMTokens != nil {
				inTok, outTok = o.PerMTokens.InputTokens, o.PerMTokens.OutputTokens
			}
		}
	}
	if inTok == 0 && len(res.Quotes) > 0 {
		inTok, outTok = res.Quotes[0].InputTokens, res.Quotes[0].OutputTokens
	}
	if inTok == 0 {
		inTok, outTok = float64(b.r.Inputs.Contract.Workload.PromptTokens), float64(b.r.Inputs.Contract.Workload.OutputTokens)
	}
	row := s.next()
	s.add("Input tokens per request (as priced for the quotes)", fx(b.st.num, inF, inTok))
	b.name("Tokens_Input", s, 2, row)
	row = s.next()
	s.add("Output tokens per request", fx(b.st.num, outF, outTok))
	b.name("Tokens_Output", s, 2, row)
	row = s.next()
	s.add("Tokens per request (blended: input and output in the workload's mix)", fx(b.st.num, "Tokens_Input+Tokens_Output", inTok+outTok))
	b.name("Tokens_Per_Request", s, 2, row)
	s.add(v(b.st.wrap, "Each figure is the monthly all-in cost over the tokens of the month's successful in-objective requests: input counts the input tokens only, output the output tokens only, each carrying the whole cost; blended counts both."))

	s.add()
	b.headers(s, "Scenario", "Option", "Successful in-objective requests a month", "Monthly cost", "Per 1,000 requests", "Per 1M input tokens", "Per 1M output tokens", "Per 1M blended tokens")
	sc := b.sheets[shScenarios]
	for i, sr := range res.Scenarios {
		if i >= len(b.scenarioRows) {
			break
		}
		srow := b.scenarioRows[i]
		for o, oc := range sr.Options {
			mc, pc := optionCols(o)
			r := s.next()
			req, monthly := rel(3, r), rel(4, r)
			per := func(tokens string, m func(planner.TokenPrices) planner.Money) any {
				var cached any = ""
				if oc.PerMTokens != nil {
					cached = money(m(*oc.PerMTokens))
				}
				return fx(b.st.money, fmt.Sprintf(`IF(OR(%[1]s<=0,%[3]s<=0),"",%[2]s*1000000/(%[1]s*%[3]s))`, req, monthly, tokens), cached)
			}
			s.add(sr.Scenario.Name, oc.Option,
				fx(b.st.int, sc.ref(scRequests, srow), oc.SuccessfulRequests),
				fx(b.st.money, sc.ref(mc, srow), money(oc.MonthlyCost)),
				fx(b.st.money, sc.ref(pc, srow), optMoney(oc.CostPer1000)),
				per("Tokens_Input", func(p planner.TokenPrices) planner.Money { return p.Input }),
				per("Tokens_Output", func(p planner.TokenPrices) planner.Money { return p.Output }),
				per("Tokens_Per_Request", func(p planner.TokenPrices) planner.Money { return p.Blended }))
		}
	}
	if len(res.Scenarios) == 0 {
		s.add("No demand scenarios.")
	}

	b.frontierRows(s)
}

// frontierRows writes the frontier-comparable figure and the gap tables.
func (b *book) frontierRows(s *sheet) {
	f := b.r.Result.Frontier
	sh := b.r.Inputs.SelfHosted
	s.add()
	s.add(excelize_bold(b, "Frontier-comparable cost per million tokens: a GPU-hour price over the tokens one GPU serves an hour at capacity, at 100 % utilisation and no labour, as the public frontier (InferenceX) computes it"))
	named := func(label string, style int, formula string, cached any, name, note string) {
		row := s.next()
		s.add(label, fx(style, formula, cached), v(b.st.wrap, note))
		b.name(name, s, 2, row)
	}
	named("GPUs per box", b.st.num, fmt.Sprintf(`IF(N(SH_GPUs_Per_Box)>0,SH_GPUs_Per_Box,%s)`, planner.DisplayInput(f.GPUs)), f.GPUs, "Frontier_GPUs", "as computed on export: "+f.GPUsSource)
	// With power by use the power line holds the idle watts; a GPU-hour at
	// 100 % utilisation draws the measured watts every hour.
	pu := b.r.Result.SelfHosted.Power
	energy := 0.0
	if pu.ByUse {
		energy = money(pu.EnergyPerRequest)
	}
	named("Energy above idle a request moved out of V_local (power by use)", b.st.perReq, `IF(AND(Power_By_Use,N(Power_Energy_Per_Request)>0),Power_Energy_Per_Request,0)`,
		energy, "Frontier_Energy_Per_Request", "")
	busyPower := `N(Power_Watts_Used)*IF(SH_Power_Hours_Per_Month="",730,SH_Power_Hours_Per_Month)/1000*` +
		b.shMoney("SH_Power_Price_Per_kWh", sh.PowerPricePerKWh) + `*IF(SH_PUE="",1,SH_PUE)`
	if b.shTaxed("power") {
		busyPower = "(" + busyPower + ")*" + shTaxFactor("power")
	}
	named("Equipment and power a month, per box (power at the measured watts every hour)", b.st.money,
		fmt.Sprintf(`N(SH_Line_Equipment)+IF(Frontier_Energy_Per_Request>0,%s,N(SH_Line_Power))`, busyPower), money(f.EquipmentPower), "Frontier_Equipment_Power", "")
	var price any = ""
	if f.GPUHourPrice != nil {
		price = money(*f.GPUHourPrice)
	}
	named("GPU-hour price", b.st.money, fmt.Sprintf(`IF(SH_GPU_Hour_Price="",Frontier_Equipment_Power/%d/Frontier_GPUs,%s)`, planner.HoursPerMonth, b.shMoney("SH_GPU_Hour_Price", sh.GPUHourPrice)),
		price, "Frontier_GPU_Hour_Price", "as computed on export: "+f.PriceSource)
	named("Successful tokens a second per GPU at the ceiling", b.st.num, `IF(N(Ceiling_Rate)<=0,"",Ceiling_Rate*Tokens_Per_Request/Frontier_GPUs)`, optOrEmpty(f.TokensPerSecondPerGPU), "Frontier_Tok_S_GPU", "")
	named("Frontier-comparable per 1M tokens", b.st.money, `IF(N(Frontier_Tok_S_GPU)<=0,"",Frontier_GPU_Hour_Price/(Frontier_Tok_S_GPU*3600/1000000))`, optMoney(f.PerMTokens), "Frontier_Per_M", f.Basis+f.Reason)
	for _, n := range f.Notes {
		s.add(v(b.st.wrap, "Note (as computed on export): "+n))
	}

	sc := b.sheets[shScenarios]
	for _, g := range f.Gaps {
		i := -1
		for j, sr := range b.r.Result.Scenarios {
			if sr.Scenario.Name == g.Scenario {
				i = j
			}
		}
		if i < 0 || i >= len(b.scenarioRows) {
			continue
		}
		srow := b.scenarioRows[i]
		mc, _ := optionCols(0)
		k, d, monthly := sc.ref(scBoxesPaid, srow), sc.ref(scRequests, srow), sc.ref(mc, srow)
		perM := func(amount string) string { return fmt.Sprintf("(%s)*1000000/(%s*Tokens_Per_Request)", amount, d) }
		running := map[string]string{
			"out_of_objective": `Frontier_GPU_Hour_Price/(Capacity_Per_Box_Rate*Tokens_Per_Request/Frontier_GPUs*3600/1000000)`,
			"utilisation":      perM(fmt.Sprintf(`IF(SH_GPU_Hour_Price="",Frontier_Equipment_Power,Frontier_GPU_Hour_Price*Frontier_GPUs*%d)*%s`, planner.HoursPerMonth, k)),
			"equipment_power":  perM("Frontier_Equipment_Power*" + k),
			"power_by_use":     perM(fmt.Sprintf("(N(SH_Line_Equipment)+N(SH_Line_Power))*%s+Frontier_Energy_Per_Request*%s", k, d)),
			"labour":           perM(fmt.Sprintf("(N(SH_Line_Equipment)+N(SH_Line_Power)+N(SH_Line_Labour))*%s+Frontier_Energy_Per_Request*%s", k, d)),
			"facilities_other": perM(fmt.Sprintf("(SH_Fixed_Per_Box-N(SH_Line_Downtime))*%s+V_Local*%s", k, d)),
			"failures":         perM(monthly),
		}
		s.add()
		b.headers(s, "Scenario "+g.Scenario+": from the frontier to all-in", "Running figure per 1M tokens", "Step", "How (as computed on export)")
		first := s.next()
		s.add("Frontier-comparable", fx(b.st.money, "Frontier_Per_M", money(g.Frontier)))
		cum := g.Frontier.Exact
		prev := first
		for _, st := range g.Steps {
			cum = cum.Add(st.Amount.Exact)
			r := s.next()
			s.add("+ "+st.Label, fx(b.st.money, running[st.Key], cum.InexactFloat64()),
				fx(b.st.money, fmt.Sprintf("%s-%s", rel(2, r), rel(2, prev)), money(st.Amount)), v(b.st.wrap, st.Basis))
			prev = r
		}
		last := prev
		name := "Gap_" + defName(titleCase(g.Scenario))
		r := s.next()
		s.add(excelize_bold(b, "All-in self-hosted per 1M blended tokens"), fx(b.st.money, rel(2, last), money(g.AllIn)))
		b.name(name+"_All_In", s, 2, r)
		r = s.next()
		s.add("Sum of the steps (the gap)", nil, fx(b.st.money, fmt.Sprintf("SUM(%s:%s)", rel(3, first+1), rel(3, last)), money(g.Gap)))
		b.name(name+"_Sum", s, 3, r)
		r = s.next()
		s.add("All-in less frontier-comparable", nil, fx(b.st.money, fmt.Sprintf("%s-%s", rel(2, last), rel(2, first)), money(g.AllIn)-money(g.Frontier)))
		b.name(name+"_Gap", s, 3, r)
	}
}
