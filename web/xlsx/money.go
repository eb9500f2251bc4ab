package xlsx

import (
	"fmt"
	"strings"

	"capplan/planner"
)

// Scenario sheet columns; each option (self-hosted, then each quote) has a
// monthly cost and a cost per 1,000 column from colSelfMonthly on.
const (
	scName = iota + 1
	scRequests
	scShare
	scBusyRate
	scBoxesNeeded
	scBoxesPaid
	scExceeds
	scSelfMonthly
	scSelfPer1000
)

// optionCols returns the monthly and per-1,000 columns of option o (0 is
// self-hosted, k the k-th quote).
func optionCols(o int) (monthly, per1000 int) { return scSelfMonthly + 2*o, scSelfPer1000 + 2*o }

// scenariosSheet costs each demand scenario for every option with live
// formulas: busy-hour rate, boxes needed, monthly cost and cost per 1,000
// successful in-objective requests.
func (b *book) scenariosSheet() {
	s := b.sheets[shScenarios]
	res := b.r.Result
	hdr := []string{"Scenario", "Successful in-objective requests a month", "Busiest hour's share of the month's requests", "Busy-hour rate (req/s)", "Boxes needed", "Boxes paid", "Exceeds the plan",
		"Self-hosted monthly", "Self-hosted per 1,000"}
	widths := []float64{14, 18, 12, 14, 10, 10, 10, 18, 16}
	for _, q := range res.Quotes {
		if q.Excluded != "" {
			continue // not compared: no rate for its currency
		}
		hdr = append(hdr, q.Name+" monthly", q.Name+" per 1,000")
		widths = append(widths, 18, 16)
	}
	hdr = append(hdr, "Notes (as computed on export)")
	widths = append(widths, 60)
	s.cols(widths...)
	b.headers(s, hdr...)
	used := map[string]bool{}
	for i, sr := range res.Scenarios {
		r := s.next()
		b.scenarioRows = append(b.scenarioRows, r)
		base := "Scenario_" + defName(titleCase(sr.Scenario.Name))
		if used[base] {
			base = fmt.Sprintf("%s_%d", base, i+1)
		}
		used[base] = true
		b.scenarioNames = append(b.scenarioNames, base)
		req, share, rate := rel(scRequests, r), rel(scShare, r), rel(scBusyRate, r)
		needed, paid := rel(scBoxesNeeded, r), rel(scBoxesPaid, r)
		// Boxes needed: one box at a time, or with a fleet its serving
		// boxes and reserve (the Fleet sheet's, docs/method.md "Fleets and
		// the reserve").
		boxesNeeded := fmt.Sprintf(`IF(Capacity_Per_Box_Rate="","",IF(OR(%[1]s<=0,Capacity_Per_Box_Rate<=0),1,MAX(1,ROUNDUP(%[1]s/Capacity_Per_Box_Rate-1E-9,0))))`, rate)
		if res.Fleet != nil {
			boxesNeeded = base + "_Fleet_Boxes"
		}
		var boxesPaid int
		if len(sr.Options) > 0 {
			boxesPaid = sr.Options[0].Boxes
		}
		cells := []any{
			sr.Scenario.Name,
			v(b.st.intIn, sr.Scenario.MonthlyRequests),
			v(b.st.pctIn, sr.Scenario.MonthShare()),
			fx(b.st.rate, fmt.Sprintf("%s*%s/3600", req, share), sr.BusyHourRate),
			fx(b.st.int, boxesNeeded, intOrEmpty(sr.BoxesNeeded)),
			fx(b.st.int, fmt.Sprintf(`IF(%[1]s="",1,%[1]s)`, needed), boxesPaid),
			fx(0, fmt.Sprintf(`IF(%[1]s="",TRUE,%[1]s>Max_Boxes)`, needed), sr.ExceedsPlan),
		}
		for o, oc := range sr.Options {
			monthly := fmt.Sprintf("%s*SH_Fixed_Per_Box+V_Local*%s", paid, req)
			if o > 0 {
				i := b.quoteIdx(oc.Option)
				monthly = quoteCostAt(quotePrefix(i), req, b.r.Inputs.Quotes[i])
			}
			mc, _ := optionCols(o)
			cells = append(cells,
				fx(b.st.money, monthly, money(oc.MonthlyCost)),
				fx(b.st.money, fmt.Sprintf(`IF(%s<=0,"",%s*1000/%s)`, req, rel(mc, r), req), optMoney(oc.CostPer1000)))
		}
		// The busy hour as typed (a share of a day, a peak rate), its
		// peak-to-average ratio and any warning.
		notes := []string{"busiest hour: " + sr.BusyHour}
		if sr.BusyHourWarning != "" {
			notes = append(notes, "warning: "+sr.BusyHourWarning)
		}
		if sr.ExceedsReason != "" {
			notes = append(notes, sr.ExceedsReason)
		}
		for _, oc := range sr.Options {
			notes = append(notes, oc.Option+": "+oc.Basis)
		}
		cells = append(cells, v(b.st.wrap, strings.Join(notes, "; ")))
		s.add(cells...)
		b.name(base+"_Requests", s, scRequests, r)
		b.name(base+"_Busy_Share", s, scShare, r)
	}
	if len(res.Scenarios) == 0 {
		s.add("No demand scenarios.")
	}
	s.add()
	// The busy-hour share that turns capacity per box into monthly demand:
	// the expected scenario's, else the first scenario's.
	shareF, shareV := "0", 0.0
	for i, sr := range res.Scenarios {
		if sr.Scenario.Name == "expected" || (i == 0 && shareF == "0") {
			shareF, shareV = rel(scShare, b.scenarioRows[i]), sr.Scenario.MonthShare()
		}
		if sr.Scenario.Name == "expected" {
			break
		}
	}
	r := s.next()
	s.add("Busiest hour's share of the month used for sizing (expected scenario, else the first)", nil, fx(b.st.pct, shareF, shareV))
	b.name("Sizing_Busy_Share", s, scShare, r)
	b.sizingShare = shareV
	b.busyTime(s)
}

// busyTime writes, when power is priced by use, each scenario's busy hours
// (planner.BusyHours: its requests over the box's measured service) and
// the utilisation of the boxes it pays, live (docs/method.md, "Power by
// use").
func (b *book) busyTime(s *sheet) {
	res := b.r.Result
	if !res.SelfHosted.Power.ByUse || len(res.Scenarios) == 0 {
		return
	}
	s.add()
	s.add(excelize_bold(b, "Power by use: the boxes' busy time (requests / measured service / 3,600) and utilisation (busy hours / (boxes paid x powered hours))"))
	b.headers(s, "Scenario", "Busy hours a month", "Utilisation of the boxes paid")
	for i, sr := range res.Scenarios {
		row := b.scenarioRows[i]
		busy := fmt.Sprintf(`IF(N(Power_Service_Rate)<=0,"",%s/Power_Service_Rate/3600)`, rel(scRequests, row))
		r := s.next()
		util := fmt.Sprintf(`IF(OR(%[1]s="",N(%[2]s)<=0),"",%[1]s/(%[2]s*IF(SH_Power_Hours_Per_Month="",730,SH_Power_Hours_Per_Month)))`, rel(2, r), rel(scBoxesPaid, row))
		s.add(sr.Scenario.Name, fx(b.st.num, busy, opt(sr.BusyHours)), fx(b.st.pct, util, opt(sr.Utilisation)))
		b.name(b.scenarioNames[i]+"_Busy_Hours", s, 2, r)
	}
}

func intOrEmpty(p *int) any {
	if p == nil {
		return ""
	}
	return *p
}

// crossoverSheet computes N = (F_local - F_api) / (V_api - V_local) for
// each quote from the cost cells, and whether one box serves it.
func (b *book) crossoverSheet() {
	s := b.sheets[shCrossover]
	s.cols(34, 16, 16, 16, 16, 16, 16, 16, 12, 16, 12, 40, 50)
	res := b.r.Result
	// Headers in words; the code name each stands for (the formula's
	// terms, docs/method.md "Crossover") in a note on it.
	b.headers(s, "Quote", "Self-hosted fixed cost a month (per box)", "API fixed cost a month (the crossing piece's)", "Self-hosted cost per request", "API cost per request (the crossing piece's)",
		"Crossover: requests a month", "Crossover rounded up to a whole request", "One box serves a month", "Within one box",
		"Stepped: demand (as computed on export)", "Stepped: boxes (as computed on export)", "Formula (as computed on export)", "Outcome (as computed on export)")
	for col, code := range map[int]string{2: "F_local", 3: "F_api", 4: "V_local", 5: "V_api",
		6: "N = (F_local - F_api) / (V_api - V_local)", 7: "N rounded up to a whole request"} {
		s.note(col, 1, code)
	}
	var perBox any = ""
	if res.Capacity.PerBoxRate != nil && b.sizingShare > 0 {
		perBox = *res.Capacity.PerBoxRate * 3600 / b.sizingShare
	}
	fLocal, oneBox := "SH_Fixed_Per_Box", `IF(Capacity_Per_Box_Rate="","",IF(Sizing_Busy_Share<=0,"",Capacity_Per_Box_Rate*3600/Sizing_Busy_Share))`
	if res.Fleet != nil {
		// The smallest fleet: one serving box and its reserve.
		fLocal, oneBox = "SH_Fixed_Per_Box*Fleet_First_Paid", `IF(Fleet_One_Box_Rate="","",IF(Sizing_Busy_Share<=0,"",Fleet_One_Box_Rate*3600/Sizing_Busy_Share))`
		if res.Capacity.PerBoxRate != nil && b.sizingShare > 0 {
			perBox = res.Capacity.Serves(1) * 3600 / b.sizingShare
		}
	}
	for _, x := range res.Crossovers {
		r := s.next()
		p := quotePrefix(b.quoteIdx(x.Quote))
		var n, nr, within any = "", "", ""
		if x.N != nil {
			n = x.N.InexactFloat64()
		}
		if x.NRounded != nil {
			nr = *x.NRounded
		}
		if x.WithinCapacity != nil {
			within = *x.WithinCapacity
		}
		var sd, sb any
		if x.Stepped != nil {
			sd, sb = x.Stepped.Demand, x.Stepped.Boxes
		}
		B, C, D, E, F, H := rel(2, r), rel(3, r), rel(4, r), rel(5, r), rel(6, r), rel(8, r)
		s.add(x.Quote,
			fx(b.st.money, fLocal, money(x.FLocal)),
			fx(b.st.money, p+"Crossing_Fixed", money(x.FAPI)),
			fx(b.st.perReq, "V_Local", money(x.VLocal)),
			fx(b.st.perReq, p+"Crossing_Per_Request", money(x.VAPI)),
			fx(b.st.num, fmt.Sprintf(`IF(%[4]s-%[3]s<=0,"",IF(%[1]s-%[2]s<=0,0,(%[1]s-%[2]s)/(%[4]s-%[3]s)))`, B, C, D, E), n),
			fx(b.st.int, fmt.Sprintf(`IF(%[1]s="","",ROUNDUP(%[1]s,0))`, F), nr),
			fx(b.st.int, oneBox, perBox),
			fx(0, fmt.Sprintf(`IF(OR(%s="",%s=""),"",%s<=%s)`, F, H, F, H), within),
			v(b.st.int, sd), v(b.st.int, sb), v(b.st.wrap, x.FormulaRounded), v(b.st.wrap, x.Text))
		b.name(p+"Crossover_N", s, 6, r)
		b.name(p+"Crossover_N_Rounded", s, 7, r)
		if x.Reason != "" && x.Reason != x.Text {
			s.add("", nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, v(b.st.wrap, "Why (as computed on export): "+x.Reason))
		}
	}
	if len(res.Crossovers) == 0 {
		s.add("No crossover: no API quote to compare with.")
	}
	for _, x := range res.Crossovers {
		i := b.quoteIdx(x.Quote)
		if i < len(b.r.Inputs.Quotes) {
			b.piecesTable(s, quotePrefix(i), b.r.Inputs.Quotes[i], res.Quotes[i])
		}
	}
}

// summarySheet is the first page: the decision, the ceiling, the admission
// limit and the cost per 1,000 by scenario (referring to the live cells).
func (b *book) summarySheet() {
	s := b.sheets[shSummary]
	res := b.r.Result
	b.title(s, b.r.Title)
	// The answers wrap in a column wide enough to read them; each row is
	// as tall as its lines.
	s.cols(40, 60, 16, 16, 16, 16, 16, 16, 16)
	kv := func(label string, val any) { s.add(v(b.st.wrap, label), v(b.st.wrap, val)) }
	kv("Report", fmt.Sprintf("report %d, version %d", b.r.ID, b.r.Version))
	kv("State", b.r.State)
	kv("Owner", b.r.Owner)
	if b.r.Predecessor != 0 {
		kv("Revision of", fmt.Sprintf("report %d", b.r.Predecessor))
	}
	kv("Exported", stamp(b.r.Generated))
	kv("Computed as of", res.AsOf)
	kv("Currency", res.Currency)
	kv("Rounding", res.Rounding)

	// The headline first: the same sentences as the page and the API
	// (planner.Headline).
	s.add()
	s.add(excelize_bold(b, "The answers"), excelize_bold(b, "Answer (as computed on export)"))
	for _, a := range []planner.HeadlineAnswer{res.Headline.Serve, res.Headline.Admit, res.Headline.Own, res.Headline.Decision} {
		kv(a.Question, a.Answer)
		for _, d := range a.Details {
			kv("", d)
		}
		for _, m := range a.Missing {
			kv("", "Missing: "+m.What+" (enter it in "+m.Where+")")
		}
	}
	if hr := res.Headline.Reference; hr != nil {
		label := "Public frontier (reference, not evidence)"
		if hr.Plan {
			label = "Plan: public frontier only, not evidence"
		}
		kv(label, hr.Text)
	}

	s.add()
	s.add(excelize_bold(b, "Decision"))
	if rec := res.Recommendation; rec != nil {
		kv("Recommendation", rec.Decision)
		kv("Owner", rec.Owner)
		kv("Review date", rec.ReviewDate)
		kv("Expiry", rec.Expiry)
	} else {
		kv("Recommendation", "not written yet")
	}
	kv("Model decision", res.Candidates.Decision)
	kv("Exit check", exitText(res))

	s.add()
	s.add(excelize_bold(b, "Envelope and admission"))
	kv("Envelope", res.Envelope.Text)
	s.add("Demonstrated ceiling (load)", fx(b.st.num, "Ceiling_Load", optOrEmpty(res.Envelope.Ceiling)))
	s.add("Successful in-objective req/s per box", fx(b.st.rate, "Capacity_Per_Box_Rate", optOrEmpty(res.Capacity.PerBoxRate)))
	a := res.Admission
	s.add("Admission: max in flight", v(b.st.int, optInt(a.MaxInFlight)))
	s.add("Admission: queue size", a.QueueSize)
	s.add("Admission: max queue age", v(b.st.secs, a.MaxQueueAgeS))
	kv("Admission: overload answer", fmt.Sprintf("HTTP %d with Retry-After %d s; at most %d client retries", a.OverloadStatus, a.RetryAfterS, a.ClientMaxRetries))

	s.add()
	s.add(excelize_bold(b, "Cost per 1,000 successful in-objective requests, by scenario"))
	// The quotes compared (one without a rate for its currency is not).
	var compared []string
	for _, q := range res.Quotes {
		if q.Excluded == "" {
			compared = append(compared, q.Name)
		}
	}
	hdr := []string{"Scenario", "Requests a month", "Boxes paid", "Self-hosted per 1,000"}
	for _, q := range compared {
		hdr = append(hdr, q+" per 1,000")
	}
	hdr = append(hdr, "Self-hosted monthly")
	for _, q := range compared {
		hdr = append(hdr, q+" monthly")
	}
	b.headers(s, hdr...)
	sc := b.sheets[shScenarios]
	for i, sr := range res.Scenarios {
		r := b.scenarioRows[i]
		cells := []any{sr.Scenario.Name, fx(b.st.int, sc.ref(scRequests, r), sr.Scenario.MonthlyRequests), fx(b.st.int, sc.ref(scBoxesPaid, r), boxesOf(sr))}
		for o, oc := range sr.Options {
			_, pc := optionCols(o)
			cells = append(cells, fx(b.st.money, sc.ref(pc, r), optMoney(oc.CostPer1000)))
		}
		for o, oc := range sr.Options {
			mc, _ := optionCols(o)
			cells = append(cells, fx(b.st.money, sc.ref(mc, r), money(oc.MonthlyCost)))
		}
		s.add(cells...)
	}
	if len(res.Scenarios) == 0 {
		s.add("No demand scenarios.")
	}
	s.add()
	s.add(excelize_bold(b, "Crossover"))
	for _, x := range res.Crossovers {
		i := b.quoteIdx(x.Quote)
		// N rounded up to a whole request, as the page shows it
		// (planner.RoundRequests, the one rule for counts of requests).
		var n any = ""
		if x.NRounded != nil {
			n = *x.NRounded
		}
		s.add(v(b.st.wrap, "Self-hosting vs "+x.Quote+": N (requests a month, rounded up)"), fx(b.st.int, quotePrefix(i)+"Crossover_N_Rounded", n))
		kv("", "As computed on export: "+x.Text)
	}
}

func boxesOf(sr planner.ScenarioResult) int {
	if len(sr.Options) == 0 {
		return 0
	}
	return sr.Options[0].Boxes
}

func exitText(res planner.Result) string {
	if res.ExitPass {
		return "every item holds"
	}
	var failing []string
	for _, it := range res.ExitCheck {
		if !it.Pass {
			failing = append(failing, it.Label)
		}
	}
	return fmt.Sprintf("%d of %d items fail: %s", len(failing), len(res.ExitCheck), strings.Join(failing, ", "))
}

// titleCase capitalizes the first letter: "expected" → "Expected".
func titleCase(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
