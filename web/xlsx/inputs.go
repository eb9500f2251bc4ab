package xlsx

import (
	"fmt"
	"slices"
	"strings"

	"github.com/shopspring/decimal"

	"capplan/planner"
)

// contractSheet lists the frozen contract, the objective in force as named
// input cells the matrix's checks read, and the amendments.
func (b *book) contractSheet() {
	s := b.sheets[shContract]
	s.cols(34, 60, 26, 30, 16, 22, 14, 12, 14, 40)
	s.freeze = 2
	c, res := b.r.Inputs.Contract, b.r.Result
	b.title(s, "Test contract")
	b.headers(s, "Field", "Value", "Named range")
	kv := func(label string, val any) { s.add(label, v(b.st.wrap, val)) }
	kv("Environment", c.Environment)
	kv("Service", c.Service)
	kv("Release revision", c.ReleaseRevision)
	kv("Baseline model", c.BaselineModel)
	kv("Artifact", c.Artifact)
	kv("Artifact hash", c.ArtifactHash)
	kv("Candidates", c.Candidates)
	kv("vLLM version or image", c.VLLMVersion)
	kv("Benchmark tool", c.BenchmarkTool)
	kv("Tool version", c.ToolVersion)
	kv("Driver", c.Driver)
	kv("Device", c.Device)
	s.add("Device memory (GiB)", v(b.st.num, opt(c.DeviceMemoryGiB)))
	kv("Host", c.Host)
	kv("Test date", c.TestDate)
	kv("Frozen", strings.TrimSpace(stamp(b.r.FrozenAt)+" "+byWho(b.r.FrozenBy)))

	s.add()
	s.add(excelize_bold(b, "Workload"))
	named := func(label string, style int, val any, n string) {
		row := s.next()
		s.add(label, v(style, val), b.name(n, s, 2, row))
	}
	named("Prompt tokens per request", b.st.intIn, c.Workload.PromptTokens, "Workload_Prompt_Tokens")
	named("Output tokens per request", b.st.intIn, c.Workload.OutputTokens, "Workload_Output_Tokens")
	kv("Data", c.Workload.Data)
	kv("Dataset", c.Workload.Dataset)
	kv("Prompts", c.Workload.Prompts)
	kv("Load kind", string(c.LoadKind))
	kv("Loads to run", joinFloats(c.Loads))
	s.add("Row duration", v(b.st.secs, c.RowDurationS))
	kv("Stop rule", stopText(c))

	s.add()
	// The objective in words, its syntax as typed beside it
	// (docs/method.md, "How figures are shown").
	s.add(excelize_bold(b, "Objective in force"), v(b.st.wrap, res.Objective.Sentence()))
	s.add("As typed on the contract", v(b.st.wrap, res.ObjectiveText))
	o := res.Objective
	named("Percentile", b.st.intIn, o.Percentile, "Objective_Percentile")
	named("Minimum success rate", b.st.pctIn, o.MinSuccess, "Objective_Min_Success")
	named("TTFT bound at the percentile", b.st.secsIn, opt(o.TTFTMax), "Objective_TTFT_Max_S")
	named("End-to-end bound at the percentile", b.st.secsIn, opt(o.E2EMax), "Objective_E2E_Max_S")
	named("TPOT bound at the percentile", b.st.secsIn, opt(o.TPOTMax), "Objective_TPOT_Max_S")
	var speed any = ""
	if o.TPOTMax != nil && *o.TPOTMax > 0 {
		speed = planner.OutputSpeed(*o.TPOTMax)
	}
	s.add("Output speed per user at least (tok/s/user, 1 / ITL)", fx(b.st.num, `IF(N(Objective_TPOT_Max_S)>0,1/Objective_TPOT_Max_S,"")`, speed), v(b.st.wrap, res.Interactivity))
	named("ITL bound at the percentile", b.st.secsIn, opt(o.ITLMax), "Objective_ITL_Max_S")
	named("Minimum memory headroom", b.st.pctIn, opt(o.MinHeadroom), "Objective_Min_Headroom")
	named("No OOM or restart", b.st.plain, o.NoOOM, "Objective_No_OOM")
	if res.ObjectiveLoosened {
		kv("LOOSENED after results existed", strings.Join(res.Loosening, "; "))
	} else {
		kv("Loosened after results existed", "no")
	}
	if len(res.AmendedAfterResults) > 0 {
		kv("AMENDED after results existed", strings.Join(res.AmendedAfterResults, "; "))
	}
	kv("Admission proposal", c.AdmissionProposal)
	kv("Rollback", c.Rollback)
	kv("Test owner", c.Owners.TestOwner)
	kv("Observer", c.Owners.Observer)
	kv("Stop authority", c.Owners.StopAuthority)
	kv("Window", c.Owners.Window)

	s.add()
	s.add(excelize_bold(b, "Amendments"))
	b.headers(s, "Field", "New value", "Old value", "Reason", "Who", "When", "Results existed", "Loosened", "Loosened after results", "Details")
	for _, a := range res.Amendments {
		am := a.Amendment
		s.add(planner.FieldLabel(am.Field), v(b.st.wrap, am.NewValue), v(b.st.wrap, am.OldValue), v(b.st.wrap, am.Reason), am.Who, am.When,
			yesNo(am.ResultsExisted), yesNo(a.Loosened), yesNo(a.LoosenedAfterResults), v(b.st.wrap, strings.Join(a.Details, "; ")))
	}
	if len(res.Amendments) == 0 {
		s.add("none")
	}
}

func excelize_bold(b *book, text string) any { return v(b.st.bold, text) }

func byWho(who string) string {
	if who == "" {
		return ""
	}
	return "by " + who
}

func joinFloats(ls []float64) string {
	parts := make([]string, len(ls))
	for i, l := range ls {
		parts[i] = fmt.Sprint(l)
	}
	return strings.Join(parts, ", ")
}

func stopText(c planner.Contract) string {
	var parts []string
	if c.StopAfterErrors > 0 {
		parts = append(parts, fmt.Sprintf("stop after %d errors", c.StopAfterErrors))
	}
	if c.StopRule != "" {
		parts = append(parts, c.StopRule)
	}
	return strings.Join(parts, "; ")
}

// costsSheet lists every cost input with its source and evidence date as
// named input cells, and computes the self-hosted monthly cost per box
// (F_local) and each quote's fixed charges (F_api) and price per request
// (V_api) from them.
func (b *book) costsSheet() {
	s := b.sheets[shCosts]
	s.cols(44, 18, 16, 34, 14, 11, 10, 30, 40, 40)
	s.freeze = 2
	in, res := b.r.Inputs, b.r.Result
	evidence := map[string]planner.Evidence{}
	for _, e := range res.Evidence {
		evidence[e.Field] = e
	}
	b.title(s, "Costs, monthly (yellow cells are inputs: change them and the sheets recompute)")
	b.headers(s, "Input", "Amount", "Unit", "Source", "Evidence date", "Age (days)", "Stale", "Named range", "Problem", "Help")
	fig := func(label, field string, f *planner.Figure, style int, n, help string) {
		row := s.next()
		if f != nil && f.Currency != "" {
			style = b.inCur(style, f.Currency)
		}
		cells := []any{label, v(style, dec(f))}
		if f != nil {
			cells = append(cells, f.Unit, v(b.st.wrap, f.Source), f.EvidenceDate)
		} else {
			cells = append(cells, "not typed", nil, nil)
		}
		e, ok := evidence[field]
		if ok && e.AgeDays != nil {
			cells = append(cells, *e.AgeDays, yesNo(e.Stale))
		} else if ok {
			cells = append(cells, nil, yesNo(e.Stale))
		} else {
			cells = append(cells, nil, nil)
		}
		cells = append(cells, b.name(n, s, 2, row), v(b.st.wrap, e.Problem), v(b.st.wrap, help))
		s.add(cells...)
	}

	sh := in.SelfHosted
	s.add(excelize_bold(b, "Self-hosted inputs (one box)"))
	inputRows(b, s, fig, &sh, planner.SelfHostedFields, "")

	s.add()
	s.add(excelize_bold(b, "Self-hosted monthly cost per box"))
	b.headers(s, "Category", "Monthly", "Typed", "Basis (as computed on export)")
	// The power draw used: the ceiling row's measured watts, else the typed.
	watts := "N(SH_Power_Watts)"
	if n := len(res.Matrix); n > 0 {
		m := b.sheets[shMatrix]
		pw := m.rng(colPower, 2, n+1)
		watts = fmt.Sprintf("IF(Ceiling_Rows=0,N(SH_Power_Watts),IF(INDEX(%s,Ceiling_Rows)=\"\",N(SH_Power_Watts),INDEX(%s,Ceiling_Rows)))", pw, pw)
	}
	row := s.next()
	s.add("Power draw used (W), "+res.SelfHosted.PowerWattsSource, fx(b.st.num, watts, opt(res.SelfHosted.PowerWatts)))
	b.name("Power_Watts_Used", s, 2, row)
	b.powerByUse(s)
	formulas := b.selfHostedFormulas()
	first := s.next()
	for _, l := range res.SelfHosted.Lines {
		f, ok := formulas[l.Category]
		if !ok || strings.HasPrefix(l.Basis, "no exchange rate") {
			// No formula, or an amount the planner could not convert and
			// counts as zero.
			b.name("SH_Line_"+camel(l.Category), s, 2, s.next())
			s.add(l.Label, v(b.st.money, money(l.Monthly)), yesNo(l.Typed), v(b.st.wrap, l.Basis))
			continue
		}
		if b.shTaxed(l.Category) {
			f = "(" + f + ")*" + shTaxFactor(l.Category)
		}
		b.name("SH_Line_"+camel(l.Category), s, 2, s.next())
		s.add(l.Label, fx(b.st.money, f, money(l.Monthly)), yesNo(l.Typed), v(b.st.wrap, l.Basis))
	}
	last := s.next() - 1
	row = s.next()
	sum := "0"
	if last >= first {
		sum = fmt.Sprintf("SUM(%s:%s)", abs(2, first), abs(2, last))
	}
	s.add(excelize_bold(b, "Fixed cost per box a month (F_local)"), fx(b.st.money, sum, money(res.SelfHosted.FixedPerBox)))
	b.name("SH_Fixed_Per_Box", s, 2, row)
	row = s.next()
	vl := b.shMoney("SH_Per_Request", sh.PerRequest)
	if b.shTaxed("per_request") {
		vl += "*" + shTaxFactor("per_request")
	}
	// With power by use, the busy time's energy joins V_local and the sum
	// is rounded as the planner rounds a computed per-request price.
	vl = fmt.Sprintf(`IF(AND(Power_By_Use,SH_Power_Price_Per_kWh<>""),%s,%s)`, roundSig(vl+"+"+b.energyPerRequest()), vl)
	s.add("Variable cost per request (V_local)", fx(b.st.perReq, vl, money(res.SelfHosted.PerRequest)))
	b.name("V_Local", s, 2, row)
	for _, n := range res.SelfHosted.Notes {
		s.add(v(b.st.wrap, "Note (as computed on export): "+n))
	}

	for i, q := range in.Quotes {
		if i >= len(res.Quotes) {
			break
		}
		qc := res.Quotes[i]
		p := quotePrefix(i)
		s.add()
		s.add(excelize_bold(b, fmt.Sprintf("API quote %d: %s", i+1, strings.TrimSpace(q.Name+" "+paren(q.Provider, q.Model)))))
		inputRows(b, s, func(label, key string, f *planner.Figure, style int, n, help string) {
			style = b.inCur(style, q.Currency)
			fig(label, fmt.Sprintf("quotes[%s].%s", q.Name, strings.TrimPrefix(key, "quote.")), f, style, n, help)
		}, &q, planner.QuoteFields, p)

		inTok, outTok := b.tokenFormulas()
		row = s.next()
		s.add("Input tokens per request ("+qc.TokenBasis+")", fx(b.st.num, inTok, qc.InputTokens), nil, nil, nil, nil, nil, b.name(p+"Input_Tokens", s, 2, row))
		row = s.next()
		s.add("Output tokens per request ("+qc.TokenBasis+")", fx(b.st.num, outTok, qc.OutputTokens), nil, nil, nil, nil, nil, b.name(p+"Output_Tokens", s, 2, row))
		// Tokens priced: the tokenizer multiplier and retries; reasoning
		// tokens billed as output (planner/pricing.go).
		perRow := func(label string, style int, formula string, cached any, name string) {
			row := s.next()
			s.add(label, fx(style, formula, cached), nil, nil, nil, nil, nil, b.name(p+name, s, 2, row))
		}
		one := decimal.NewFromInt(1)
		hit := decimalOr(q.CacheHitShare, decimal.Zero)
		// Attempts a success: a share r of attempts fails and is retried
		// until it succeeds (planner.Attempts).
		perRow("Attempts per successful request, 1 / (1 - retry rate)", b.st.num,
			fmt.Sprintf(`1/(1-N(%[1]sRetry_Rate))`, p), planner.Attempts(decimalOr(q.RetryRate, decimal.Zero)).InexactFloat64(), "Attempts")
		perRow("Input tokens priced per request (x tokenizer, x attempts)", b.st.num,
			fmt.Sprintf(`%[1]sInput_Tokens*IF(%[1]sToken_Multiplier="",1,%[1]sToken_Multiplier)*%[1]sAttempts`, p),
			qc.PricedInputTokens.InexactFloat64(), "Priced_Input_Tokens")
		perRow("Output tokens priced per request (x tokenizer, + reasoning, x attempts)", b.st.num,
			fmt.Sprintf(`(%[1]sOutput_Tokens*IF(%[1]sToken_Multiplier="",1,%[1]sToken_Multiplier)+N(%[1]sReasoning_Tokens))*%[1]sAttempts`, p),
			qc.PricedOutputTokens.InexactFloat64(), "Priced_Output_Tokens")
		perRow("Uncached input tokens per request (priced through the volume bands)", b.st.num,
			fmt.Sprintf(`%[1]sPriced_Input_Tokens*(1-N(%[1]sCache_Hit_Share))`, p),
			qc.PricedInputTokens.Mul(one.Sub(hit)).InexactFloat64(), "Uncached_Input_Tokens")
		cachedPrice := decimalOr(q.CachedInputPerMTokens, decimalOr(q.InputPerMTokens, decimal.Zero))
		perRow("Cached input per request (flat at the cached price)", b.inCur(b.st.perReq, q.Currency),
			fmt.Sprintf(`%[1]sPriced_Input_Tokens*N(%[1]sCache_Hit_Share)*IF(%[1]sPrice_Cached_Input_Per_M="",N(%[1]sPrice_Input_Per_M),%[1]sPrice_Cached_Input_Per_M)/1000000`, p),
			qc.PricedInputTokens.Mul(hit).Mul(cachedPrice).Div(decimal.NewFromInt(1_000_000)).InexactFloat64(), "Cached_Input_Cost")
		batch := one.Sub(decimalOr(q.BatchDiscount, decimal.Zero).Mul(decimalOr(q.BatchShare, decimal.Zero)))
		perRow("Share of token charges paid (1 - batch discount x batch share)", b.st.num,
			fmt.Sprintf(`1-N(%[1]sBatch_Discount)*N(%[1]sBatch_Share)`, p), batch.InexactFloat64(), "Batch_Factor")
		attempts := planner.Attempts(decimalOr(q.RetryRate, decimal.Zero))
		perRow("Price per request paid (x attempts)", b.inCur(b.st.perReq, q.Currency),
			fmt.Sprintf(`N(%[1]sPrice_Per_Request)*%[1]sAttempts`, p),
			decimalOr(q.PerRequestPrice, decimal.Zero).Mul(attempts).InexactFloat64(), "Request_Fee")
		b.bandTable(s, q, p)

		// V_api in the first volume band: batch share discounted, cached
		// input at its price, the per-request price paid again on retries,
		// tax counted on the report's basis, converted at the quote's rate.
		row = s.next()
		// Rounded as the planner rounds a computed per-request price
		// (planner.RoundPerRequest).
		per := roundSig(fmt.Sprintf(`(%[1]sBatch_Factor*(%[1]sUncached_Input_Tokens*N(%[1]sPrice_Input_Per_M)/1000000+%[1]sCached_Input_Cost`+
			`+%[1]sPriced_Output_Tokens*N(%[1]sPrice_Output_Per_M)/1000000)+%[1]sRequest_Fee)*%[1]sTax_Factor*%[1]sRate`, p))
		s.add(excelize_bold(b, "Price per request in the first band (V_api)"), fx(b.st.perReq, per, money(qc.PerRequest)), nil,
			v(b.st.wrap, "as computed on export: "+qc.PerRequestBasis), nil, nil, nil, b.name(p+"Per_Request", s, 2, row))
		var taxed, untaxed []string
		taxedV, untaxedV := 0.0, 0.0
		for _, fd := range planner.QuoteFields {
			if !fd.Charge {
				continue
			}
			amt := 0.0
			if f := *fd.Figure(&q); f != nil {
				amt = f.Amount.InexactFloat64()
			}
			if fd.Name == "integration_labour" { // the buyer's own work: no invoice, no tax
				untaxed, untaxedV = append(untaxed, "N("+p+fd.Sheet+")"), untaxedV+amt
			} else {
				taxed, taxedV = append(taxed, "N("+p+fd.Sheet+")"), taxedV+amt
			}
		}
		perRow("Charges a month on the invoice, before tax", b.inCur(b.st.money, q.Currency), strings.Join(append(taxed, "0"), "+"), taxedV, "Taxed_Charges")
		perRow("Charges a month without tax (integration labour)", b.inCur(b.st.money, q.Currency), strings.Join(append(untaxed, "0"), "+"), untaxedV, "Untaxed_Charges")
		row = s.next()
		fixed := fmt.Sprintf("(%[1]sTaxed_Charges*%[1]sTax_Factor+%[1]sUntaxed_Charges)*%[1]sRate", p)
		s.add(excelize_bold(b, "Fixed charges a month (F_api)"), fx(b.st.money, fixed, money(qc.Fixed)), nil, nil, nil, nil, nil, b.name(p+"Fixed", s, 2, row))
		s.add("Monthly cost at a demand (the Scenarios sheet): ((MAX(minimum commitment, usage through the bands) + charges) x tax factor + untaxed charges) x rate",
			nil, nil, nil, nil, nil, nil, nil)
		for _, n := range qc.Notes {
			s.add(v(b.st.wrap, "Note (as computed on export): "+n))
		}
	}
	if len(in.Quotes) == 0 {
		s.add()
		s.add("No API quote attached.")
	}
}

// tokenFormulas are the tokens per request priced for the quotes, as
// formulas: the contract's workload, or the ceiling row's measured means
// when the report prices measured tokens and the row has them.
func (b *book) tokenFormulas() (inTok, outTok string) {
	inTok, outTok = "Workload_Prompt_Tokens", "Workload_Output_Tokens"
	res := b.r.Result
	if b.r.Inputs.TokenBasis == "measured" && len(res.Matrix) > 0 {
		m := b.sheets[shMatrix]
		pr, or := m.rng(colPromptMean, 2, len(res.Matrix)+1), m.rng(colOutputMean, 2, len(res.Matrix)+1)
		pick := func(col, fallback string) string {
			return fmt.Sprintf(`IF(Ceiling_Rows=0,%s,IF(OR(INDEX(%s,Ceiling_Rows)="",INDEX(%s,Ceiling_Rows)=""),%s,INDEX(%s,Ceiling_Rows)))`, fallback, pr, or, fallback, col)
		}
		inTok, outTok = pick(pr, inTok), pick(or, outTok)
	}
	return inTok, outTok
}

// quotePrefix is the named-range prefix of the i-th quote (0-based).
func quotePrefix(i int) string { return fmt.Sprintf("Quote%d_", i+1) }

func paren(parts ...string) string {
	var ps []string
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		return ""
	}
	return "(" + strings.Join(ps, ", ") + ")"
}

// inputRows writes a record's registry fields as named input cells: a
// Figure through fig (with its source, date and age), a whole number or a
// choice as a plain input. prefix goes before every named range.
func inputRows[T any](b *book, s *sheet, fig func(label, key string, f *planner.Figure, style int, name, help string), rec *T, fields []planner.InputField[T], prefix string) {
	for _, fd := range fields {
		name := prefix + fd.Sheet
		switch {
		case fd.Figure != nil:
			fig(fd.Label, fd.Key(), *fd.Figure(rec), inputStyle(b, fd.Kind), name, fd.Help)
		case fd.Int != nil:
			row := s.next()
			s.add(fd.Label, v(inputStyle(b, fd.Kind), *fd.Int(rec)), fd.Unit, nil, nil, nil, nil, b.name(name, s, 2, row), nil, v(b.st.wrap, fd.Help))
		case fd.Text != nil:
			val := *fd.Text(rec)
			if len(fd.Options) > 0 && !slices.Contains(fd.Options, val) {
				val = fd.Options[0] // what the planner applies to a blank choice
			}
			row := s.next()
			s.add(fd.Label, v(inputStyle(b, fd.Kind), val), nil, nil, nil, nil, nil, b.name(name, s, 2, row), nil, v(b.st.wrap, fd.Help))
		}
	}
}

// inputStyle is the input cell style of a field kind.
func inputStyle(b *book, k planner.Kind) int {
	switch k {
	case planner.KindMoney:
		return b.st.moneyIn
	case planner.KindFineMoney:
		return b.st.perReqIn
	case planner.KindFraction:
		return b.st.pctIn
	case planner.KindMonths:
		return b.st.intIn
	case planner.KindChoice:
		return b.st.plain
	}
	return b.st.numIn
}

// selfHostedFormulas are the formulas of the self-hosted cost lines by
// category, before tax, in the report's currency (planner/cost.go and
// planner/equipment.go).
func (b *book) selfHostedFormulas() map[string]string {
	sh := b.r.Inputs.SelfHosted
	m := func(name string, f *planner.Figure) string { return b.shMoney(name, f) }
	hours := `IF(SH_Rent_Hours_Per_Month="",730,SH_Rent_Hours_Per_Month)`
	rent := m("SH_Rent_Per_Hour", sh.RentPerHour) + "*" + hours
	commit, upfront := m("SH_Commit_Monthly", sh.CommitMonthly), m("SH_Commit_Upfront", sh.CommitUpfront)
	committed := fmt.Sprintf(`IF(N(SH_Commit_Term_Months)>0,%s+%s/SH_Commit_Term_Months,%s)`, commit, upfront, commit)
	// Spot: the hours not interrupted at the spot rate with the extra
	// capacity held, the interrupted hours at the fallback rate.
	spot := fmt.Sprintf(`%[1]s*(1-N(SH_Spot_Interrupted_Share))*%[2]s*(1+N(SH_Spot_Extra_Capacity))+%[1]s*N(SH_Spot_Interrupted_Share)*%[3]s`,
		hours, m("SH_Spot_Per_Hour", sh.SpotPerHour), m("SH_Spot_Fallback_Per_Hour", sh.SpotFallbackPerHour))
	// Purchase: (price - residual) / months, or the annuity (PMT at the
	// monthly rate) when a cost of capital is typed; the two agree at 0 %.
	price, residual := m("SH_Purchase_Price", sh.PurchasePrice), m("SH_Residual_Value", sh.ResidualValue)
	purchase := fmt.Sprintf(`IF(N(SH_Depreciation_Months)<=0,0,IF(N(SH_Cost_Of_Capital)=0,(%[1]s-%[2]s)/SH_Depreciation_Months,PMT(SH_Cost_Of_Capital/12,SH_Depreciation_Months,-%[1]s,%[2]s)))`,
		price, residual)
	f := map[string]string{
		"equipment": fmt.Sprintf(`IF(SH_Equipment_Mode="%s",%s,IF(SH_Equipment_Mode="%s",%s,IF(SH_Equipment_Mode="%s",%s,%s)))`,
			planner.EquipRent, rent, planner.EquipCommitted, committed, planner.EquipSpot, spot, purchase),
		// Power: zero when a rented box's rent includes it; else by use
		// (idle watts for every hour) or at the measured draw.
		"power": `IF(` + powerInRent() + `,0,` +
			`IF(Power_By_Use,N(Power_Idle_Watts_Used),N(Power_Watts_Used))*IF(SH_Power_Hours_Per_Month="",730,SH_Power_Hours_Per_Month)/1000*` +
			m("SH_Power_Price_Per_kWh", sh.PowerPricePerKWh) + `*IF(SH_PUE="",1,SH_PUE))`,
		"labour":   "N(SH_Labour_Hours_Per_Month)*" + m("SH_Labour_Rate", sh.LabourRate),
		"downtime": m("SH_Downtime_Allowance", sh.DowntimeAllowance),
	}
	// A line that is one monthly input, named as its field: its cell.
	for _, fd := range planner.SelfHostedFields {
		if _, ok := f[fd.Name]; !ok && fd.Figure != nil {
			f[fd.Name] = m(fd.Sheet, *fd.Figure(&sh))
		}
	}
	return f
}

// shMoney is a self-hosted money input in the report's currency: its cell,
// times the dated rate of the currency it is typed in (Rate_USD, ...); 0
// when there is no rate for it (the planner counts the line as zero).
func (b *book) shMoney(name string, f *planner.Figure) string {
	ref := "N(" + name + ")"
	if f == nil {
		return ref
	}
	cur := strings.ToUpper(strings.TrimSpace(f.Currency))
	if cur == "" || cur == strings.ToUpper(b.r.Inputs.Currency) {
		return ref
	}
	if !b.hasRate(cur) {
		return "0"
	}
	return ref + "*Rate_" + defName(cur)
}

// hasRate reports whether the report has a usable rate for currency cur.
func (b *book) hasRate(cur string) bool {
	for _, x := range b.r.Inputs.ExchangeRates {
		if strings.EqualFold(strings.TrimSpace(x.Currency), cur) && x.Rate != nil && x.Rate.Amount.IsPositive() {
			return true
		}
	}
	return false
}

// shTaxed reports whether a self-hosted cost line has a tax typed.
func (b *book) shTaxed(cat string) bool {
	t := b.r.Inputs.SelfHosted.Taxes[cat]
	return t != nil && t.Rate != nil
}

// shTaxFactor is the named tax factor of a self-hosted cost line:
// SH_Equipment_Tax_Factor.
func shTaxFactor(cat string) string { return "SH_" + camel(cat) + "_Tax_Factor" }

// camel writes a snake_case key as Title_Case: per_request -> Per_Request.
func camel(key string) string {
	parts := strings.Split(key, "_")
	for i, p := range parts {
		parts[i] = titleCase(p)
	}
	return defName(strings.Join(parts, "_"))
}

// bandTable writes a quote's graduated volume bands as named inputs: where
// each band starts (million tokens of one kind a month) and its input and
// output prices. A band's price left blank keeps the band before it's (the
// cell refers to the row above). The price change at each band start is
// what the cost formulas add for the tokens beyond it (quoteAt).
func (b *book) bandTable(s *sheet, q planner.Quote, p string) {
	s.add(excelize_bold(b, "Volume bands: each token at its band's price; input and output tokens each walk the bands by their own monthly volume"))
	b.headers(s, "Band", "From (M tokens a month, input and output each counted on its own)", "Input price per 1M", "Output price per 1M", "Input price change", "Output price change", "", "Named ranges", "Source")
	money, moneyIn := b.inCur(b.st.money, q.Currency), b.inCur(b.st.moneyIn, q.Currency)
	first := s.next()
	prevIn, prevOut := decimalOr(q.InputPerMTokens, decimal.Zero), decimalOr(q.OutputPerMTokens, decimal.Zero)
	s.add("First band: the quote's prices", v(b.st.num, 0.0),
		fx(money, "N("+p+"Price_Input_Per_M)", prevIn.InexactFloat64()), fx(money, "N("+p+"Price_Output_Per_M)", prevOut.InexactFloat64()),
		fx(money, rel(3, first), prevIn.InexactFloat64()), fx(money, rel(4, first), prevOut.InexactFloat64()))
	price := func(f *planner.Figure, prev decimal.Decimal, col, r int) (any, decimal.Decimal) {
		if f == nil {
			return fx(moneyIn, rel(col, r-1), prev.InexactFloat64()), prev
		}
		return v(moneyIn, f.Amount.InexactFloat64()), f.Amount
	}
	for i, t := range q.Tiers {
		r := s.next()
		n := fmt.Sprintf("%sTier%d_", p, i+1)
		inCell, in := price(t.InputPerMTokens, prevIn, 3, r)
		outCell, out := price(t.OutputPerMTokens, prevOut, 4, r)
		s.add(fmt.Sprintf("Band %d", i+2), v(b.st.numIn, t.FromMTokens.InexactFloat64()), inCell, outCell,
			fx(money, fmt.Sprintf("%s-%s", rel(3, r), rel(3, r-1)), in.Sub(prevIn).InexactFloat64()),
			fx(money, fmt.Sprintf("%s-%s", rel(4, r), rel(4, r-1)), out.Sub(prevOut).InexactFloat64()), nil,
			b.name(n+"From_M", s, 2, r)+", "+b.name(n+"Price_Input_Per_M", s, 3, r)+", "+b.name(n+"Price_Output_Per_M", s, 4, r),
			v(b.st.wrap, "input: "+figNote(t.InputPerMTokens)+"; output: "+figNote(t.OutputPerMTokens)))
		prevIn, prevOut = in, out
	}
	last := s.next() - 1
	b.names[p+"Band_From"] = s.rng(2, first, last)
	b.names[p+"Band_Input_Step"] = s.rng(5, first, last)
	b.names[p+"Band_Output_Step"] = s.rng(6, first, last)
}

// quoteAt is the formula of a quote's monthly cost at the monthly demand d
// (a cell or a parenthesised expression), as planner/pricing.go prices it:
// the tokens of each kind walk the volume bands (each band start adds the
// price change for the tokens beyond it), the usage is billed at least the
// minimum commitment, the charges and the tax are added and the total is
// converted at the quote's rate.
// It is the exact cost through the bands, which the pieces table reads
// where each piece starts; a scenario's cost is quoteCostAt.
func quoteAt(p, d string) string {
	band := func(tokens, step string) string {
		x := fmt.Sprintf("%s*%s%s/1000000", d, p, tokens)
		return fmt.Sprintf("SUMPRODUCT((%[1]s>%[2]sBand_From)*(%[1]s-%[2]sBand_From)*%[2]s%[3]s)", x, p, step)
	}
	usage := fmt.Sprintf("%[1]sBatch_Factor*(%[2]s+%[3]s*%[1]sCached_Input_Cost+%[4]s)+%[3]s*%[1]sRequest_Fee",
		p, band("Uncached_Input_Tokens", "Band_Input_Step"), d, band("Priced_Output_Tokens", "Band_Output_Step"))
	return fmt.Sprintf("((MAX(N(%[1]sMinimum_Monthly),%[2]s)+%[1]sTaxed_Charges)*%[1]sTax_Factor+%[1]sUntaxed_Charges)*%[1]sRate", p, usage)
}

// decimalOr is a Figure's amount, def when not typed.
func decimalOr(f *planner.Figure, def decimal.Decimal) decimal.Decimal {
	if f == nil {
		return def
	}
	return f.Amount
}

// roundSig is the workbook's form of planner.RoundPerRequest: x rounded
// half away from zero to planner.PerRequestSignificant significant
// figures, 0 staying 0.
func roundSig(x string) string {
	return fmt.Sprintf("IF((%[1]s)=0,0,ROUND(%[1]s,%[2]d-INT(LOG10(ABS(%[1]s)))))", x, planner.PerRequestSignificant-1)
}

// quoteCostAt is the formula of a quote's monthly cost at demand d as the
// planner costs a scenario: a quote without volume bands or a minimum
// commitment is one straight line, F_api + V_api x d, V_api rounded as the
// planner rounds a per-request price; another is the piece of its cost
// that holds d (the Crossover sheet's pieces table: each piece's exact
// cost where it starts and its rounded slope), intercept + slope x d.
func quoteCostAt(p, d string, q planner.Quote) string {
	if linearQuote(q) {
		return fmt.Sprintf("(%[1]sFixed+%[1]sPer_Request*%[2]s)", p, d)
	}
	k := fmt.Sprintf(`MAX(1,COUNTIF(%[1]sPiece_From,"<="&%[2]s))`, p, d)
	return fmt.Sprintf("(INDEX(%[1]sPiece_Intercept,%[2]s)+INDEX(%[1]sPiece_Slope,%[2]s)*%[3]s)", p, k, d)
}

// linearQuote reports whether a quote's monthly cost is one straight line
// whatever its figures: no volume bands and no minimum commitment.
func linearQuote(q planner.Quote) bool {
	return len(q.Tiers) == 0 && (q.MinimumMonthly == nil || !q.MinimumMonthly.Amount.IsPositive())
}

// powerInRent is the condition under which a rented box's rent pays its
// power (planner.SelfHostedCosts.PowerInRent): the power line is zero and
// nothing is priced by use.
func powerInRent() string {
	return fmt.Sprintf(`AND(SH_Rent_Includes_Power="yes",OR(SH_Equipment_Mode="%s",SH_Equipment_Mode="%s",SH_Equipment_Mode="%s"))`,
		planner.EquipRent, planner.EquipCommitted, planner.EquipSpot)
}
