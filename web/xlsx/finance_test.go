package xlsx

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"capplan/planner"
)

// financeInputs is the worked example with its quote priced in USD at a
// dated rate, a tokenizer counting 10 % more, half the input tokens from
// the cache at 1 USD per million, 100 USD platform charges and 20 % tax
// that is not recoverable; a second volume band from 30 M tokens a month
// (input 8, output 30 USD per million) and a minimum commitment of 1,200
// USD a month. The box is on committed rent (800 EUR a month for 12
// months and 2,400 USD upfront), its hosting carries 10 % tax that is not
// recoverable, and each request costs 0.002 USD with 20 % recoverable tax
// (left out on the net basis). The provider view sells tokens at 12 / 45 EUR per
// million at 60 % utilisation, and its ledger billed 1,900 EUR.
func financeInputs() planner.Inputs {
	in := workedInputs()
	in.ExchangeRates = []planner.ExchangeRate{{Currency: "USD", Rate: planner.Fig("0.9", "EUR/USD", "ECB reference rate", "2026-11-28")}}
	q := &in.Quotes[0]
	q.Currency = "USD"
	q.TokenMultiplier = planner.Fig("1.1", "ratio", "tokenizer test", "2026-11-20")
	q.CacheHitShare = planner.Fig("0.5", "fraction", "traffic estimate", "2026-11-20")
	q.CachedInputPerMTokens = planner.Fig("1", "USD/1M tokens", "price page", "2026-11-20")
	q.Platform = planner.Fig("100", "USD/month", "price page", "2026-11-20")
	q.Tax = &planner.Tax{Rate: planner.Fig("0.2", "fraction", "tax office", "2026-11-20")}
	q.Tiers = []planner.PriceTier{{FromMTokens: decimal.NewFromInt(30),
		InputPerMTokens: planner.Fig("8", "USD/1M tokens", "volume price list", "2026-11-20"), OutputPerMTokens: planner.Fig("30", "USD/1M tokens", "volume price list", "2026-11-20")}}
	q.MinimumMonthly = planner.Fig("1200", "USD/month", "order form", "2026-11-20")
	sh := &in.SelfHosted
	sh.EquipmentMode, sh.CommitTermMonths = planner.EquipCommitted, 12
	sh.CommitMonthly = planner.Fig("800", "EUR/month", "reservation", "2026-11-20")
	sh.CommitUpfront = planner.Fig("2400", "USD", "reservation", "2026-11-20")
	sh.CommitUpfront.Currency = "USD"
	sh.Taxes = map[string]*planner.Tax{"hosting": {Rate: planner.Fig("0.1", "fraction", "tax office", "2026-11-20")},
		"per_request": {Rate: planner.Fig("0.2", "fraction", "tax office", "2026-11-20"), Recoverable: true}}
	sh.PerRequest = planner.Fig("0.002", "USD/request", "metered egress", "2026-11-20")
	sh.PerRequest.Currency = "USD"
	in.Provider = &planner.ProviderInputs{
		InputPerMTokens: planner.Fig("12", "EUR/1M tokens", "price list", "2026-11-20"), OutputPerMTokens: planner.Fig("45", "EUR/1M tokens", "price list", "2026-11-20"),
		ExpectedUtilisation: planner.Fig("0.6", "fraction", "sales plan", "2026-11-20"),
		BilledRevenue:       planner.Fig("1900", "EUR", "billing ledger", "2026-11-21"),
	}
	return in
}

// financePromises are the provider view's and the rates' figures.
func financePromises(t *testing.T, r Report) []promise {
	f := openBook(t, writeBook(t, r))
	pv := r.Result.Provider
	if pv == nil || pv.BreakEvenUtilisation == nil || pv.MarginAtExpectedUtilisation == nil || pv.BilledMargin == nil || pv.BilledMarginShare == nil {
		t.Fatalf("provider view = %+v", pv)
	}
	cent := 0.005
	return []promise{
		{"quote rate", namedCell(t, f, "Quote1_Rate"), 0.9, 1e-12, ""},
		{"revenue per request", namedCell(t, f, "Provider_Revenue_Per_Request"), money(pv.RevenuePerRequest), 1e-9, ""},
		{"revenue at capacity a month", namedCell(t, f, "Provider_Revenue_Capacity_Monthly"), money(*pv.RevenueAtCapacityMonthly), cent, (*pv.RevenueAtCapacityMonthly).Display()},
		{"monthly cost", namedCell(t, f, "Provider_Monthly_Cost"), money(pv.MonthlyCost), cent, pv.MonthlyCost.Display()},
		{"break-even utilisation", namedCell(t, f, "Provider_Break_Even_Utilisation"), *pv.BreakEvenUtilisation, 1e-6, ""},
		{"margin a month", namedCell(t, f, "Provider_Margin_Monthly"), money(*pv.MarginAtExpected), cent, (*pv.MarginAtExpected).Display()},
		{"margin share", namedCell(t, f, "Provider_Margin_Share"), *pv.MarginAtExpectedUtilisation, 1e-6, ""},
		{"break-even a month", namedCell(t, f, "Provider_Break_Even_Monthly"), float64(*pv.BreakEvenMonthly), 0, ""},
		{"billed margin", namedCell(t, f, "Provider_Billed_Margin"), money(*pv.BilledMargin), cent, (*pv.BilledMargin).Display()},
		{"billed margin share", namedCell(t, f, "Provider_Billed_Margin_Share"), *pv.BilledMarginShare, 1e-6, ""},
	}
}

func TestFinanceSheetCachedValues(t *testing.T) {
	r := testReport(financeInputs())
	// The USD quote: 1,100 input tokens, 550 at 10 and 550 cached at 1,
	// 550 output at 40: 28,050 per M = 0.02805 USD, x 1.2 tax x 0.9 =
	// 0.030294 EUR a request; 100 USD x 1.2 x 0.9 = 108 EUR a month.
	if got := r.Result.Quotes[0].PerRequest.Exact.String(); got != "0.030294" {
		t.Fatalf("V_api = %s, want 0.030294", got)
	}
	if got := r.Result.Quotes[0].Fixed.Exact.String(); got != "108" {
		t.Fatalf("F_api = %s, want 108", got)
	}
	// Committed rent: 800 + 2,400 USD x 0.9 / 12 = 980; hosting 400 + 10 %
	// tax = 440; labour 600: F_local 2,020.
	if got := r.Result.SelfHosted.FixedPerBox.Exact.String(); got != "2020" {
		t.Fatalf("F_local = %s, want 2020", got)
	}
	// Low demand (40,000) uses 1,122 USD, under the 1,200 USD minimum:
	// (1,200 + 100) x 1.2 x 0.9 = 1,404. Expected demand (80,000) walks into
	// the second band at 54,545.45 requests (30 M tokens / 550 a request):
	// 1,530 + 25,454.55 x 0.02145 = 2,076 USD, (2,076 + 100) x 1.08 =
	// 2,350.08 EUR.
	sc := r.Result.Scenarios
	if low, exp := sc[0].Options[1].MonthlyCost.Exact, sc[1].Options[1].MonthlyCost.Exact; low.StringFixed(2) != "1404.00" || exp.StringFixed(2) != "2350.08" {
		t.Fatalf("API monthly low %s, expected %s; want 1404 and 2350.08", low, exp)
	}
	f := openBook(t, writeBook(t, r))
	// A tiered quote's scenario cost is the piece that holds the demand
	// (its rounded slope, docs/method.md "Rounding"); each piece's cost
	// where it starts walks the bands and the minimum.
	if fm := formula(t, f, cell{shScenarios, 10, 3}); !strings.Contains(fm, "Quote1_Piece_Intercept") || !strings.Contains(fm, "Quote1_Piece_Slope") {
		t.Errorf("the API's monthly cost does not read its pieces: %s", fm)
	}
	found := false
	for _, dn := range f.GetDefinedName() {
		if dn.Name != "Quote1_Piece_From" {
			continue
		}
		found = true
		first, _, _ := strings.Cut(dn.RefersTo, ":")
		c := parseRef(t, first)
		c.col = 4 // cost at the piece's start
		if fm := formula(t, f, c); !strings.Contains(fm, "SUMPRODUCT") || !strings.Contains(fm, "Quote1_Minimum_Monthly") {
			t.Errorf("a piece's cost at its start does not walk the bands and the minimum: %s", fm)
		}
	}
	if !found {
		t.Error("no named range Quote1_Piece_From")
	}
	for _, n := range []string{"Quote1_Tier1_From_M", "Quote1_Tier1_Price_Input_Per_M", "Quote1_Tier1_Price_Output_Per_M", "Quote1_Minimum_Monthly",
		"SH_Commit_Term_Months", "SH_Commit_Monthly", "SH_Commit_Upfront", "SH_Hosting_Tax_Factor"} {
		namedCell(t, f, n)
	}
	for _, p := range append(financePromises(t, r), promises(t, f, r.Result)...) {
		if formula(t, f, p.at) == "" && p.what != "margin share" && p.what[:min(len(p.what), 7)] != "success" {
			t.Errorf("%s: no formula", p.what)
		}
		if got := raw(t, f, p.at); !near(got, p.want, p.tol) {
			t.Errorf("%s at %s!%s: cached %q, want %v", p.what, p.at.sheet, p.at.name(), got, p.want)
		}
	}
}

// TestFinanceInputsRecalculate changes, in the workbook, as finance would,
// the exchange rate, the expected utilisation, the second band's output
// price, the committed rent, the hosting's tax rate and whether the tax on
// requests is counted, and checks LibreOffice's figures (V_api,
// F_api, the tiered scenario costs, the crossing piece and the crossover,
// F_local, the provider view) against the planner's for the same inputs.
func TestFinanceInputsRecalculate(t *testing.T) {
	in := financeInputs()
	data := writeBook(t, testReport(in))
	f := openBook(t, data)
	set := func(name string, val any) {
		c := namedCell(t, f, name)
		if err := f.SetCellValue(c.sheet, c.name(), val); err != nil {
			t.Fatal(err)
		}
	}
	set("Rate_USD", 0.8)
	in.ExchangeRates[0].Rate = planner.Fig("0.8", "EUR/USD", "ECB reference rate", "2026-11-28")
	set("Provider_Expected_Utilisation", 0.75)
	in.Provider.ExpectedUtilisation = planner.Fig("0.75", "fraction", "sales plan", "2026-11-20")
	set("Quote1_Tier1_Price_Output_Per_M", 20.0)
	in.Quotes[0].Tiers[0].OutputPerMTokens = planner.Fig("20", "USD/1M tokens", "volume price list", "2026-11-20")
	set("SH_Commit_Monthly", 700.0)
	in.SelfHosted.CommitMonthly = planner.Fig("700", "EUR/month", "reservation", "2026-11-20")
	set("SH_Hosting_Tax_Rate", 0.2)
	in.SelfHosted.Taxes["hosting"].Rate = planner.Fig("0.2", "fraction", "tax office", "2026-11-20")
	// Counting the recoverable tax on requests is the gross basis (the
	// report's other taxes are not recoverable: counted either way).
	set("SH_Per_Request_Tax_Counted", 1)
	in.TaxBasis = planner.TaxGross
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	want := testReport(in)
	before := testReport(financeInputs()).Result
	// The changes move the figures checked below (else the test proves
	// nothing): the tiered expected cost, the crossover and F_local.
	if want.Result.Scenarios[1].Options[1].MonthlyCost.Exact.Equal(before.Scenarios[1].Options[1].MonthlyCost.Exact) ||
		want.Result.Crossovers[0].VAPI.Exact.Equal(before.Crossovers[0].VAPI.Exact) ||
		want.Result.SelfHosted.FixedPerBox.Exact.Equal(before.SelfHosted.FixedPerBox.Exact) ||
		want.Result.SelfHosted.PerRequest.Exact.Equal(before.SelfHosted.PerRequest.Exact) {
		t.Fatal("the changed inputs do not change the planner's figures")
	}
	sheets := checkRecalculated(t, buf.Bytes(), want.Result)
	for _, p := range financePromises(t, want) {
		if p.what == "quote rate" {
			p.want = 0.8
		}
		if got := at(sheets, p.at); !near(got, p.want, p.tol) {
			t.Errorf("%s at %s!%s: LibreOffice computed %q, the planner %v", p.what, p.at.sheet, p.at.name(), got, p.want)
		}
	}
}

// TestEquipmentModelsRecalculate writes the box paid for each way (spot
// rent typed in USD with an interruption allowance, purchase as an annuity
// at a 6 % cost of capital with a residual value, the straight line at
// 0 %, on-demand rent, rent that includes power), changes an input of each model in the workbook and
// checks LibreOffice's F_local, and every figure that follows from it,
// against the planner's for the same inputs. One LibreOffice run converts
// the four workbooks.
func TestEquipmentModelsRecalculate(t *testing.T) {
	fig := func(a, unit string) *planner.Figure { return planner.Fig(a, unit, "offer", "2026-11-20") }
	type model struct {
		set    func(*planner.SelfHostedCosts)
		name   string
		val    any
		change func(*planner.SelfHostedCosts)
	}
	models := map[string]model{
		"spot": {func(s *planner.SelfHostedCosts) {
			s.EquipmentMode = planner.EquipSpot
			s.SpotPerHour = fig("2", "USD/h")
			s.SpotPerHour.Currency = "USD"
			s.SpotInterruptedShare, s.SpotFallbackPerHour, s.SpotExtraCapacity = fig("0.1", "fraction"), fig("4", "EUR/h"), fig("0.2", "fraction")
		}, "SH_Spot_Interrupted_Share", 0.25, func(s *planner.SelfHostedCosts) { s.SpotInterruptedShare = fig("0.25", "fraction") }},
		"annuity": {func(s *planner.SelfHostedCosts) {
			s.ResidualValue, s.CostOfCapital = fig("6000", "EUR"), fig("0.06", "fraction/year")
		}, "SH_Cost_Of_Capital", 0.08, func(s *planner.SelfHostedCosts) { s.CostOfCapital = fig("0.08", "fraction/year") }},
		"straight": {func(s *planner.SelfHostedCosts) {
			s.ResidualValue, s.CostOfCapital = fig("6000", "EUR"), fig("0", "fraction/year")
		}, "SH_Residual_Value", 3000.0, func(s *planner.SelfHostedCosts) { s.ResidualValue = fig("3000", "EUR") }},
		"rent": {func(s *planner.SelfHostedCosts) {
			s.EquipmentMode, s.RentPerHour, s.RentHoursPerMonth = planner.EquipRent, fig("3", "EUR/h"), fig("700", "h/month")
		}, "SH_Rent_Per_Hour", 2.5, func(s *planner.SelfHostedCosts) { s.RentPerHour = fig("2.5", "EUR/h") }},
		// Power paid apart, then "the rent includes power" chosen in the
		// workbook: its power line drops to zero, as the page's does.
		"rent-with-power": {func(s *planner.SelfHostedCosts) {
			s.EquipmentMode, s.RentPerHour, s.RentIncludesPower = planner.EquipRent, fig("3", "EUR/h"), "no"
			s.PowerWatts = fig("700", "W")
		}, "SH_Rent_Includes_Power", "yes", func(s *planner.SelfHostedCosts) { s.RentIncludesPower = "yes" }},
	}
	books := map[string][]byte{}
	wants := map[string]planner.Result{}
	for name, m := range models {
		in := workedInputs()
		in.ExchangeRates = []planner.ExchangeRate{{Currency: "USD", Rate: planner.Fig("0.9", "EUR/USD", "ECB reference rate", "2026-11-28")}}
		m.set(&in.SelfHosted)
		if err := in.Validate(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		before := planner.Compute(in).SelfHosted.FixedPerBox.Exact
		f := openBook(t, writeBook(t, testReport(in)))
		c := namedCell(t, f, m.name)
		if err := f.SetCellValue(c.sheet, c.name(), m.val); err != nil {
			t.Fatal(err)
		}
		m.change(&in.SelfHosted)
		var buf bytes.Buffer
		if err := f.Write(&buf); err != nil {
			t.Fatal(err)
		}
		books[name], wants[name] = buf.Bytes(), planner.Compute(in)
		if wants[name].SelfHosted.FixedPerBox.Exact.Equal(before) {
			t.Fatalf("%s: changing %s does not change F_local", name, m.name)
		}
	}
	// Hand-worked: 730 h x 0.75 x 2 USD x 0.9 x 1.2 + 730 h x 0.25 x 4 =
	// 1,182.60 + 730 = 1,912.60 spot, + 400 hosting + 600 labour.
	if got := wants["spot"].SelfHosted.FixedPerBox.Exact.StringFixed(2); got != "2912.60" {
		t.Fatalf("spot F_local %s, want 2912.60", got)
	}
	// (36,000 - 3,000) / 36 = 916.67 straight line, + 1,000.
	if got := wants["straight"].SelfHosted.FixedPerBox.Exact.StringFixed(2); got != "1916.67" {
		t.Fatalf("straight-line F_local %s, want 1916.67", got)
	}
	for name, sheets := range recalcBooks(t, books) {
		t.Run(name, func(t *testing.T) { checkSheets(t, books[name], sheets, wants[name]) })
	}
}

// TestNumberFormatsFollowTheDisplayRule reads the workbook back as a
// reader sees it (formatted): amounts and per-request prices show the
// page's digits (cents, or 3 significant figures when cents show fewer),
// shares the page's percentages.
func TestNumberFormatsFollowTheDisplayRule(t *testing.T) {
	r := testReport(financeInputs())
	res := r.Result
	f := openBook(t, writeBook(t, r))
	shown := func(c cell) string {
		t.Helper()
		s, err := f.GetCellValue(c.sheet, c.name())
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	moneyCells := []struct {
		name string
		want planner.Money
	}{
		{"Quote1_Per_Request", res.Quotes[0].PerRequest},        // 0.030294
		{"Quote1_Crossing_Per_Request", res.Crossovers[0].VAPI}, // 0.023166
		{"SH_Fixed_Per_Box", res.SelfHosted.FixedPerBox},        // 2,020
		{"Provider_Revenue_Per_Request", res.Provider.RevenuePerRequest},
		{"Provider_Margin_Monthly", *res.Provider.MarginAtExpected},
	}
	for _, m := range moneyCells {
		want := m.want.Display() + " EUR"
		if got := shown(namedCell(t, f, m.name)); got != want {
			t.Errorf("%s shows %q, want %q", m.name, got, want)
		}
	}
	if got := shown(namedCell(t, f, "Quote1_Per_Request")); got != "0.0303 EUR" {
		t.Errorf("V_api shows %q, want 0.0303 EUR (three significant figures)", got)
	}
	if got := shown(namedCell(t, f, "SH_Fixed_Per_Box")); got != "2,020.00 EUR" {
		t.Errorf("F_local shows %q, want 2,020.00 EUR", got)
	}
	for o, oc := range res.Scenarios[1].Options {
		mc, pc := optionCols(o)
		if got, want := shown(cell{shScenarios, mc, 3}), oc.MonthlyCost.Display()+" EUR"; got != want {
			t.Errorf("expected %s monthly shows %q, want %q", oc.Option, got, want)
		}
		if got, want := shown(cell{shScenarios, pc, 3}), oc.CostPer1000.Display()+" EUR"; got != want {
			t.Errorf("expected %s per 1,000 shows %q, want %q", oc.Option, got, want)
		}
	}
	// Amounts in the quote's currency say so.
	for name, want := range map[string]string{"Quote1_Price_Input_Per_M": "10.00 USD", "Quote1_Tier1_Price_Output_Per_M": "30.00 USD",
		"Quote1_Taxed_Charges": "100.00 USD", "SH_Commit_Upfront": "2,400.00 USD", "SH_Commit_Monthly": "800.00 EUR"} {
		if got := shown(namedCell(t, f, name)); got != want {
			t.Errorf("%s shows %q, want %q", name, got, want)
		}
	}
	// The pieces table: the last piece has no end, shown as "never" (a
	// conditional format excelize does not render: the raw value here).
	rows, err := f.GetRows(shCrossover)
	if err != nil {
		t.Fatal(err)
	}
	var pieces [][]string
	for _, row := range rows {
		if len(row) > 2 && strings.HasPrefix(row[0], "piece ") && row[1] != "" && row[1] != "none" {
			pieces = append(pieces, row)
		}
	}
	if len(pieces) != len(res.Quotes[0].Segments) || !near(raw(t, f, cell{shCrossover, 3, pieceRow(t, rows, len(pieces))}), never, 1e90) {
		t.Errorf("pieces as shown: %q (last end %q), want %d with the last ending never", pieces, raw(t, f, cell{shCrossover, 3, pieceRow(t, rows, len(pieces))}), len(res.Quotes[0].Segments))
	}
	// Shares with DisplayShare's decimals and at least 3 significant
	// figures: 60.0 %, not 60 %.
	shares := []struct {
		name string
		want float64
		as   string
	}{
		{"Provider_Break_Even_Utilisation", *res.Provider.BreakEvenUtilisation, ""},
		{"Provider_Margin_Share", *res.Provider.MarginAtExpectedUtilisation, ""},
		{"Provider_Expected_Utilisation", 0.6, "60.0%"},
		{"Scenario_Expected_Busy_Share", 0.1, "10.0%"},
	}
	for _, s := range shares {
		want := strings.ReplaceAll(planner.DisplayShare(s.want), " ", "")
		if s.as != "" {
			want = s.as
		}
		if got := shown(namedCell(t, f, s.name)); got != want {
			t.Errorf("%s shows %q, want %q", s.name, got, want)
		}
	}
}

// TestPlannerTextIsMarked checks that every sentence and arithmetic the
// planner wrote (cost bases, the crossover's formula and outcome, the
// scenario bases, the provider's summary) stands in the workbook marked as
// computed on export, in the cell or in its column's heading: a reader who
// changes an input knows that text does not follow.
func TestPlannerTextIsMarked(t *testing.T) {
	res := testReport(financeInputs()).Result
	f := openBook(t, writeBook(t, testReport(financeInputs())))
	var texts []string
	for _, l := range res.SelfHosted.Lines {
		texts = append(texts, l.Basis)
	}
	for _, q := range res.Quotes {
		texts = append(texts, q.PerRequestBasis)
	}
	for _, x := range res.Crossovers {
		texts = append(texts, x.Text, x.FormulaRounded)
	}
	for _, o := range res.Scenarios[1].Options {
		texts = append(texts, o.Basis)
	}
	texts = append(texts, res.Provider.Text, res.Capacity.SourceText)
	const mark = "as computed on export"
	found := map[string]bool{}
	for _, sh := range SheetNames {
		rows, err := f.GetRows(sh)
		if err != nil {
			t.Fatal(err)
		}
		for r, row := range rows {
			for c, val := range row {
				for _, txt := range texts {
					if len(txt) < 12 || !strings.Contains(val, txt) {
						continue
					}
					found[txt] = true
					marked := strings.Contains(strings.ToLower(val), mark)
					for up := r - 1; up >= 0 && !marked; up-- {
						marked = c < len(rows[up]) && strings.Contains(rows[up][c], "("+mark+")")
					}
					if !marked {
						t.Errorf("%s!%s%d holds the planner's %q without %q", sh, string(rune('A'+c)), r+1, txt, mark)
					}
				}
			}
		}
	}
	for _, txt := range texts {
		if len(txt) >= 12 && !found[txt] {
			t.Errorf("the planner's %q is not in the workbook", txt)
		}
	}
}

// pieceRow is the row number of "piece n" on the Crossover sheet.
func pieceRow(t *testing.T, rows [][]string, n int) int {
	t.Helper()
	for i, row := range rows {
		if len(row) > 0 && row[0] == fmt.Sprintf("piece %d", n) {
			return i + 1
		}
	}
	t.Fatalf("no piece %d", n)
	return 0
}

// TestQuoteWithoutRateIsLeftOut writes a report whose second quote is in
// JPY without a rate: the planner leaves it out of the comparison, and so
// do the Scenarios and Summary sheets' columns, each headed by the quote
// whose figures it holds.
func TestQuoteWithoutRateIsLeftOut(t *testing.T) {
	in := financeInputs()
	jpy := in.Quotes[0]
	jpy.Name, jpy.Currency, jpy.Tiers = "yen-api", "JPY", nil
	in.Quotes = []planner.Quote{jpy, in.Quotes[0]}
	r := testReport(in)
	if r.Result.Quotes[0].Excluded == "" {
		t.Fatal("the JPY quote is compared")
	}
	f := openBook(t, writeBook(t, r))
	rows, err := f.GetRows(shSummary)
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range rows {
		if len(row) > 4 && row[0] == "Scenario" {
			if want := []string{"hosted-api per 1,000", "Self-hosted monthly", "hosted-api monthly"}; len(row) != 7 || row[4] != want[0] || row[5] != want[1] || row[6] != want[2] {
				t.Fatalf("Summary headings %q, want the compared quote only", row)
			}
			exp := rows[i+2] // low, then expected
			want := r.Result.Scenarios[1].Options[1].MonthlyCost.Display() + " EUR"
			if exp[6] != want {
				t.Errorf("Summary expected hosted-api monthly %q, want %q", exp[6], want)
			}
			return
		}
	}
	t.Fatal("no scenario table on the Summary")
}
