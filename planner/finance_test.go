package planner

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// Hand-worked numbers for the pricing models, currencies, tax, precision
// and the provider view. Each case states its arithmetic.

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func wantDec(t *testing.T, what string, got decimal.Decimal, want string) {
	t.Helper()
	if !got.Equal(dec(want)) {
		t.Errorf("%s = %s, want %s", what, got, want)
	}
}

// priceQuote is a quote of token prices only, per million tokens.
func priceQuote(in, out string) Quote {
	return Quote{Name: "api", InputPerMTokens: Fig(in, "EUR/1M tokens", "price page", evDate), OutputPerMTokens: Fig(out, "EUR/1M tokens", "price page", evDate)}
}

func TestTiersCrossingABand(t *testing.T) {
	// 2.00 / 8.00 per M; from 10 M tokens a month 1.00 / 4.00. A request
	// is 1,000 input and 500 output tokens.
	q := priceQuote("2", "8")
	q.Tiers = []PriceTier{{FromMTokens: dec("10"), InputPerMTokens: Fig("1", "EUR/1M tokens", "price page", evDate), OutputPerMTokens: Fig("4", "EUR/1M tokens", "price page", evDate)}}
	qc := QuoteMonthly(q, 1000, 500, "contract")
	// 5,000 requests: 5 M input x 2 + 2.5 M output x 8 = 10 + 20 = 30.
	wantDec(t, "monthly at 5,000", qc.MonthlyAt(5000), "30")
	// 30,000 requests: input 30 M = 10 M x 2 + 20 M x 1 = 40; output 15 M
	// = 10 M x 8 + 5 M x 4 = 100; 140 in all.
	wantDec(t, "monthly at 30,000", qc.MonthlyAt(30000), "140")
	// Bands start at 10,000 requests (input) and 20,000 (output): three
	// pieces, the price per request 0.006, 0.005 and 0.003.
	if len(qc.Segments) != 3 {
		t.Fatalf("segments = %+v, want 3", qc.Segments)
	}
	for i, want := range []string{"0.006", "0.005", "0.003"} {
		wantDec(t, "slope", qc.Segments[i].Slope.Exact, want)
	}
	wantDec(t, "V_api (first band)", qc.PerRequest.Exact, "0.006")
	if qc.Linear() {
		t.Error("a tiered quote is not linear")
	}

	// The crossover with a flat 100 a month box: the API costs 0.006 a
	// request up to 10,000 (60), then 60 + 0.005 x (D - 10,000): it passes
	// 100 at D = 10,000 + 40 / 0.005 = 18,000, in the second piece.
	x := FindCrossover(SelfHostedMonthly(flatSelf("100", "0"), nil), qc, Capacity{PerBoxRate: F(1000), MaxBoxes: 1}, 0.1)
	if x.N == nil || !x.N.Equal(dec("18000")) {
		t.Fatalf("N = %v, want 18000 (%s)", x.N, x.Text)
	}
	if !strings.Contains(x.Formula, "tiered price from 10,000 requests a month") {
		t.Errorf("formula = %q, want it to name the piece", x.Formula)
	}
	if x.Stepped == nil || x.Stepped.Demand != 18001 {
		t.Errorf("stepped = %+v, want from 18,001", x.Stepped)
	}
}

func TestCachedInputShare(t *testing.T) {
	// 2,000 input tokens at 3.00 (cached 0.30), 100 output at 15.00.
	for _, tc := range []struct {
		hit, want string
	}{
		{"0", "0.0075"},   // (2,000 x 3 + 100 x 15) / 1M
		{"1", "0.0021"},   // (2,000 x 0.30 + 1,500) / 1M
		{"0.5", "0.0048"}, // (1,000 x 3 + 1,000 x 0.30 + 1,500) / 1M
	} {
		q := priceQuote("3", "15")
		q.CachedInputPerMTokens = Fig("0.30", "EUR/1M tokens", "price page", evDate)
		q.CacheHitShare = Fig(tc.hit, "fraction", "traffic estimate", evDate)
		wantDec(t, "per request at hit share "+tc.hit, QuoteMonthly(q, 2000, 100, "contract").PerRequest.Exact, tc.want)
	}
}

func TestPricingModelParts(t *testing.T) {
	base := func() Quote { return priceQuote("3", "15") } // 0.0075 a request at 2,000 / 100 tokens
	tests := []struct {
		name string
		edit func(*Quote)
		want string
	}{
		// 100 output + 400 reasoning billed as output: (6,000 + 500 x 15) / 1M.
		{"reasoning tokens", func(q *Quote) { q.ReasoningTokens = Fig("400", "tokens/request", "trace", evDate) }, "0.0135"},
		// Half price on the 40 % eligible: 0.0075 x (1 - 0.5 x 0.4).
		{"batch discount", func(q *Quote) {
			q.BatchDiscount = Fig("0.5", "fraction", "price page", evDate)
			q.BatchShare = Fig("0.4", "fraction", "traffic", evDate)
		}, "0.006"},
		// Tokens and the request price paid for every attempt when 2 % of
		// attempts fail and are retried until they succeed: (0.0075 +
		// 0.001) / 0.98 = 0.0086734693...; 6 significant figures.
		{"per-request price and retries", func(q *Quote) {
			q.PerRequestPrice = Fig("0.001", "EUR/request", "price page", evDate)
			q.RetryRate = Fig("0.02", "fraction", "ops", evDate)
		}, "0.00867347"},
		// Half of the attempts failing: two attempts a success (1 + r
		// would say 1.5): 0.0075 x 2.
		{"retries at one in two", func(q *Quote) { q.RetryRate = Fig("0.5", "fraction", "ops", evDate) }, "0.015"},
		// Tokenizer counts 15 % more: (2,300 x 3 + 115 x 15) / 1M.
		{"token multiplier", func(q *Quote) { q.TokenMultiplier = Fig("1.15", "x", "tokenizer test", evDate) }, "0.008625"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := base()
			tt.edit(&q)
			if err := q.Validate(); err != nil {
				t.Fatal(err)
			}
			qc := QuoteMonthly(q, 2000, 100, "contract")
			wantDec(t, "per request", qc.PerRequest.Exact, tt.want)
			if !qc.Linear() {
				t.Error("no tiers or minimum: one straight line")
			}
		})
	}
}

func TestMinimumCommitment(t *testing.T) {
	// 0.0075 a request, platform 100, minimum 500 of usage a month.
	q := priceQuote("3", "15")
	q.Platform = eur("100")
	q.MinimumMonthly = eur("500")
	qc := QuoteMonthly(q, 2000, 100, "contract")
	wantDec(t, "at 10,000 (usage 75, billed 500)", qc.MonthlyAt(10000), "600")
	wantDec(t, "at 100,000 (usage 750)", qc.MonthlyAt(100000), "850")
	// Against a flat 700 box: 100 + 0.0075 D = 700 at D = 80,000.
	x := FindCrossover(SelfHostedMonthly(flatSelf("700", "0"), nil), qc, Capacity{PerBoxRate: F(1000), MaxBoxes: 1}, 0.1)
	if x.N == nil || !x.N.Equal(dec("80000")) {
		t.Fatalf("N = %v, want 80000: %s", x.N, x.Text)
	}
	// Below the minimum the API costs 600, less than the box: no scenario
	// at 10,000 may show the box cheaper.
	sr := CostScenario(Scenario{Name: "low", MonthlyRequests: 10000, BusyHourShare: 0.1}, bigCapacity(), SelfHostedMonthly(flatSelf("700", "0"), nil), []QuoteCost{qc})
	if !sr.Cheapest()["api"] {
		t.Errorf("cheapest = %v, want api (600 < 700)", sr.Cheapest())
	}
}

func TestCommittedRentVersusOnDemand(t *testing.T) {
	// The same 730 hours: on demand 2.50 x 730 = 1,825; committed 1,200 a
	// month for 12 months with 3,000 upfront = 1,200 + 250 = 1,450.
	onDemand := flatSelf("0", "0")
	onDemand.RentPerHour = Fig("2.50", "EUR/h", "cloud price page", evDate)
	committed := flatSelf("0", "0")
	committed.EquipmentMode, committed.RentPerHour = EquipCommitted, nil
	committed.CommitTermMonths = 12
	committed.CommitMonthly = eur("1200")
	committed.CommitUpfront = Fig("3000", "EUR", "reservation", evDate)
	if err := committed.Validate(); err != nil {
		t.Fatal(err)
	}
	wantDec(t, "on demand", SelfHostedMonthly(onDemand, nil).Lines[0].Monthly.Exact, "1825")
	c := SelfHostedMonthly(committed, nil)
	wantDec(t, "committed", c.Lines[0].Monthly.Exact, "1450")
	if c.Lines[0].Label != "Equipment (committed rent)" || !c.Lines[0].Typed {
		t.Errorf("line = %+v", c.Lines[0])
	}
}

func TestSpotRent(t *testing.T) {
	// 730 h: 90 % at 1.00 with 20 % extra capacity = 788.4; the interrupted
	// 10 % at a 2.50 fallback = 182.5; 970.9 in all.
	s := flatSelf("0", "0")
	s.EquipmentMode, s.RentPerHour = EquipSpot, nil
	s.SpotPerHour = Fig("1.00", "EUR/h", "spot price", evDate)
	s.SpotInterruptedShare = Fig("0.1", "fraction", "provider history", evDate)
	s.SpotFallbackPerHour = Fig("2.50", "EUR/h", "on-demand price", evDate)
	s.SpotExtraCapacity = Fig("0.2", "fraction", "ops plan", evDate)
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	wantDec(t, "spot", SelfHostedMonthly(s, nil).Lines[0].Monthly.Exact, "970.9")
}

func TestPurchaseAnnuityAndStraightLine(t *testing.T) {
	// 36,000 less 6,000 residual over 36 months: 833.33... straight line,
	// and the same as an annuity at 0 %.
	s := flatSelf("0", "0")
	s.EquipmentMode, s.RentPerHour = EquipPurchase, nil
	s.PurchasePrice, s.DepreciationMonths = Fig("36000", "EUR", "PO 17", evDate), 36
	s.ResidualValue = Fig("6000", "EUR", "resale estimate", evDate)
	straight := SelfHostedMonthly(s, nil).Lines[0].Monthly.Exact
	wantDec(t, "straight line", straight.Mul(decimal.NewFromInt(36)).Round(8), "30000")
	s.CostOfCapital = Fig("0", "fraction/year", "treasury", evDate)
	zero := SelfHostedMonthly(s, nil).Lines[0]
	if !zero.Monthly.Exact.Equal(straight) {
		t.Errorf("annuity at 0 %% = %s, want the straight line %s", zero.Monthly.Exact, straight)
	}
	// At 6 % a year (0.5 % a month): (36,000 - 6,000 / 1.005^36) x 0.005 /
	// (1 - 1.005^-36) = 942.658..., Excel's PMT(0.5%, 36, -36000, 6000).
	s.CostOfCapital = Fig("0.06", "fraction/year", "treasury", evDate)
	ann := SelfHostedMonthly(s, nil).Lines[0]
	if got := ann.Monthly.Exact.Round(6); !got.Equal(dec("942.658124")) {
		t.Errorf("annuity at 6 %% = %s, want 942.658124", got)
	}
	if ann.Label != "Equipment (purchase, annuity)" || !strings.Contains(ann.Basis, "annuity") {
		t.Errorf("line = %q / %q", ann.Label, ann.Basis)
	}
	// A residual above the price is refused.
	s.ResidualValue = Fig("40000", "EUR", "resale estimate", evDate)
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "must not exceed the purchase price") {
		t.Errorf("validate = %v", err)
	}
}

func TestTaxNetAndGross(t *testing.T) {
	// A quote at 0.0075 a request with platform 100 and 50 of integration
	// labour, 20 % VAT. At 10,000 requests: (100 + 75) x 1.2 + 50 = 260
	// with all tax; 225 without the recoverable VAT.
	q := priceQuote("3", "15")
	q.Platform, q.IntegrationLabour = eur("100"), eur("50")
	for _, tc := range []struct {
		recoverable     bool
		basis           string
		monthly, perReq string
	}{
		{true, TaxNet, "225", "0.0075"},
		{true, TaxGross, "260", "0.009"},
		{false, TaxNet, "260", "0.009"}, // not recoverable: always a cost
	} {
		q.Tax = &Tax{Rate: Fig("0.20", "fraction", "VAT law", evDate), Recoverable: tc.recoverable}
		qc := quoteMonthly(q, 2000, 100, "contract", nil, tc.basis)
		wantDec(t, "monthly "+tc.basis, qc.MonthlyAt(10000), tc.monthly)
		wantDec(t, "per request "+tc.basis, qc.PerRequest.Exact, tc.perReq)
		sr := CostScenario(Scenario{Name: "expected", MonthlyRequests: 10000, BusyHourShare: 0.1}, bigCapacity(), SelfHostedMonthly(flatSelf("0", "0"), nil), []QuoteCost{qc})
		api := sr.Options[1]
		wantDec(t, "gross", api.Gross.Exact, "260")
		wantNet := "225"
		if !tc.recoverable {
			wantNet = "260"
		}
		wantDec(t, "net", api.Net.Exact, wantNet)
	}

	// Self-hosted: 19 % non-recoverable tax on 1,000 of hosting counts
	// 1,190; recoverable, 1,000 net and 1,190 gross.
	s := flatSelf("1000", "0")
	s.Taxes = map[string]*Tax{"hosting": {Rate: Fig("0.19", "fraction", "tax office", evDate)}}
	wantDec(t, "self-hosted, tax not recoverable", selfHostedMonthly(s, nil, nil, TaxNet, nil).FixedPerBox.Exact, "1190")
	s.Taxes["hosting"].Recoverable = true
	sh := selfHostedMonthly(s, nil, nil, TaxNet, nil)
	wantDec(t, "self-hosted net", sh.FixedPerBox.Exact, "1000")
	wantDec(t, "self-hosted gross", sh.FixedGross.Exact, "1190")
	wantDec(t, "self-hosted gross on the gross basis", selfHostedMonthly(s, nil, nil, TaxGross, nil).FixedPerBox.Exact, "1190")
}

// mixedInputs is a EUR report with a USD quote, a GBP hosting bill and,
// when jpy is set, a JPY quote that has no rate.
func mixedInputs(jpy bool) Inputs {
	c := testContract()
	c.TestDate = "2026-11-28" // the rates are of the test's day
	in := Inputs{Currency: "EUR", AsOf: "2026-11-30", Contract: c,
		Rows:      matrix([]float64{1, 2, 4, 8, 10}, []float64{5, 6, 8, 12, 20}),
		Scenarios: []Scenario{{Name: "expected", MonthlyRequests: 80000, BusyHourShare: 0.1}},
		ExchangeRates: []ExchangeRate{
			{Currency: "USD", Rate: Fig("0.92", "EUR/USD", "ECB reference rate", "2026-11-28")},
			{Currency: "GBP", Rate: Fig("1.15", "EUR/GBP", "ECB reference rate", "2026-11-28")},
		},
	}
	in.SelfHosted = flatSelf("0", "0")
	in.SelfHosted.Hosting = &Figure{Amount: dec("1000"), Unit: "GBP/month", Source: "colo invoice", EvidenceDate: evDate, Currency: "GBP"}
	usd := priceQuote("3", "15")
	usd.Name, usd.Currency = "us-api", "USD"
	usd.Platform = Fig("100", "USD/month", "price page", evDate)
	in.Quotes = []Quote{usd}
	if jpy {
		j := priceQuote("400", "2000")
		j.Name, j.Currency = "jp-api", "JPY"
		in.Quotes = append(in.Quotes, j)
	}
	in.Contract.Workload.PromptTokens, in.Contract.Workload.OutputTokens = 2000, 100
	for i := range in.Rows { // the rows ran the contract's workload, so they count
		in.Rows[i].PromptTokensMean, in.Rows[i].OutputTokensMean = F(2000), F(100)
	}
	return in
}

func TestMixedCurrencyReport(t *testing.T) {
	r := Compute(mixedInputs(false))
	if len(r.Problems) != 0 {
		t.Fatalf("problems: %v", r.Problems)
	}
	// Hosting: 1,000 GBP x 1.15 = 1,150 EUR, with its original and rate.
	var hosting CostLine
	for _, l := range r.SelfHosted.Lines {
		if l.Category == "hosting" {
			hosting = l
		}
	}
	wantDec(t, "hosting in EUR", hosting.Monthly.Exact, "1150")
	if len(hosting.Conversions) != 1 || hosting.Conversions[0].Currency != "GBP" || !hosting.Conversions[0].Amount.Exact.Equal(dec("1000")) ||
		!hosting.Conversions[0].Rate.Equal(dec("1.15")) || hosting.Conversions[0].RateDate != "2026-11-28" {
		t.Errorf("hosting conversions = %+v", hosting.Conversions)
	}
	// The USD quote: 100 USD platform = 92 EUR; 0.0075 USD a request =
	// 0.0069 EUR. At 80,000 requests 700 USD = 644 EUR.
	q := r.Quotes[0]
	wantDec(t, "F_api in EUR", q.Fixed.Exact, "92")
	wantDec(t, "V_api in EUR", q.PerRequest.Exact, "0.0069")
	if q.Currency != "USD" || q.FixedOriginal == nil || !q.FixedOriginal.Amount.Exact.Equal(dec("100")) || q.PerRequestOriginal == nil ||
		!q.PerRequestOriginal.Amount.Exact.Equal(dec("0.0075")) {
		t.Errorf("originals = %+v / %+v", q.FixedOriginal, q.PerRequestOriginal)
	}
	api := r.Scenarios[0].Options[1]
	wantDec(t, "monthly in EUR", api.MonthlyCost.Exact, "644")
	if api.Original == nil || !api.Original.Amount.Exact.Equal(dec("700")) || !api.Original.Rate.Equal(dec("0.92")) || api.Original.Currency != "USD" {
		t.Errorf("original = %+v", api.Original)
	}
	wantDec(t, "cost per 1,000 in EUR", api.CostPer1000.Exact, "8.05")
	// The rate is evidence, aged like every input.
	found := false
	for _, e := range r.Evidence {
		found = found || e.Field == "exchange_rates[USD].rate" && e.AgeDays != nil && *e.AgeDays == 2 && !e.Stale
	}
	if !found {
		t.Errorf("the USD rate is not in the evidence: %+v", r.Evidence)
	}

	// A rate older than the staleness age is stale.
	in := mixedInputs(false)
	in.ExchangeRates[0].Rate.EvidenceDate = "2026-06-01"
	stale := false
	for _, e := range Compute(in).Evidence {
		stale = stale || e.Field == "exchange_rates[USD].rate" && e.Stale
	}
	if !stale {
		t.Error("a rate 182 days old is not stale")
	}
}

func TestCurrencyWithoutRateIsNotCompared(t *testing.T) {
	r := Compute(mixedInputs(true))
	jp := r.Quotes[1]
	if jp.Excluded == "" || !strings.Contains(jp.Excluded, "no exchange rate for JPY") {
		t.Errorf("excluded = %q", jp.Excluded)
	}
	for _, o := range r.Scenarios[0].Options {
		if o.Option == "jp-api" {
			t.Errorf("a JPY quote without a rate is compared: %+v", o)
		}
	}
	if len(r.Crossovers) != 1 || r.Crossovers[0].Quote != "us-api" {
		t.Errorf("crossovers = %+v", r.Crossovers)
	}
	problem := false
	for _, p := range r.Problems {
		problem = problem || p.Field == "exchange_rates" && strings.Contains(p.Message, "JPY")
	}
	if !problem {
		t.Errorf("problems = %v, want the missing JPY rate", r.Problems)
	}
	for _, it := range r.ExitCheck {
		if it.ID == "inputs_valid" && it.Pass {
			t.Error("the exit check passes with an unconverted currency")
		}
	}
}

func TestExchangeRateValidation(t *testing.T) {
	in := mixedInputs(false)
	in.ExchangeRates = append(in.ExchangeRates,
		ExchangeRate{Currency: "EUR", Rate: Fig("1", "EUR/EUR", "x", evDate)},
		ExchangeRate{Currency: "XYZ", Rate: Fig("2", "EUR/XYZ", "x", evDate)},
		ExchangeRate{Currency: "USD", Rate: Fig("0.9", "EUR/USD", "", "")},
		ExchangeRate{Currency: "CHF", Rate: Fig("0", "EUR/CHF", "bank", evDate)},
	)
	in.Quotes[0].Currency = "DOLLARS"
	err := in.Validate()
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"report's own currency", `ISO 4217 currency code such as USD, got "XYZ"`, "USD has two rates", "must be above 0", "DOLLARS"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if !IsCurrencyCode("JPY") || IsCurrencyCode("usd") || IsCurrencyCode("ABC") {
		t.Error("IsCurrencyCode")
	}
}

func TestTokenWattProviderView(t *testing.T) {
	// A rented H100: 25.74 USD for 6 hours = 4.29 an hour, 3,131.70 a month.
	// Capacity 11.3 req/s; 1,683 input and 425 output tokens a request sold
	// at 0.06 and 0.25 USD per million.
	self := flatSelf("0", "0")
	self.RentPerHour = Fig("4.29", "USD/h", "Lambda invoice: 25.74 for 6 h", evDate)
	sh := SelfHostedMonthly(self, nil)
	p := ProviderInputs{
		InputPerMTokens: Fig("0.06", "USD/1M tokens", "test config", evDate), OutputPerMTokens: Fig("0.25", "USD/1M tokens", "test config", evDate),
		ExpectedUtilisation: Fig("0.62", "fraction", "soak average", evDate),
	}
	v := ProviderMonthly(p, sh, Capacity{PerBoxRate: F(11.3), Basis: "measured"}, 1683, 425, "measured")
	// Revenue a request (1,683 x 0.06 + 425 x 0.25) / 1M = 0.00020723;
	// x 11.3 x 3,600 = 8.4301164 an hour; x 730 = 6,153.984972 a month.
	wantDec(t, "revenue per request", v.RevenuePerRequest.Exact, "0.00020723")
	wantDec(t, "revenue an hour at capacity", v.RevenueAtCapacityHourly.Exact, "8.4301164")
	wantDec(t, "revenue a month at capacity", v.RevenueAtCapacityMonthly.Exact, "6153.984972")
	wantDec(t, "monthly cost", v.MonthlyCost.Exact, "3131.7")
	wantDec(t, "hourly cost", v.HourlyCost.Exact, "4.29")
	// Break-even 4.29 / 8.4301164 = 50.9 % (about 51 %).
	if v.BreakEvenUtilisation == nil || math.Abs(*v.BreakEvenUtilisation-0.50889) > 1e-5 {
		t.Fatalf("break-even = %v, want 0.50889", v.BreakEvenUtilisation)
	}
	// 3,131.70 / 0.00020723 = 15,112,194.18 requests: 15,112,195 a month,
	// 496,840 a day.
	if *v.BreakEvenMonthly != 15_112_195 || *v.BreakEvenDaily != 496_840 {
		t.Errorf("break-even requests = %d a month, %d a day", *v.BreakEvenMonthly, *v.BreakEvenDaily)
	}
	// At 62 %: revenue 3,815.47, margin 683.77 = 17.9 % of revenue (about 18 %).
	if v.MarginAtExpectedUtilisation == nil || math.Abs(*v.MarginAtExpectedUtilisation-0.17921) > 1e-5 {
		t.Fatalf("margin = %v, want 0.17921", v.MarginAtExpectedUtilisation)
	}
	if got := v.MarginAtExpected.Display(); got != "683.77" {
		t.Errorf("margin a month = %s, want 683.77", got)
	}
	for _, want := range []string{"8.43 an hour", "50.9 % utilisation", "62 % utilisation", "17.9 % of revenue", "15,112,195 requests a month, 496,840 a day"} {
		if !strings.Contains(v.Text, want) {
			t.Errorf("text %q lacks %q", v.Text, want)
		}
	}
	// The chart: 20 points, margin rising with utilisation and crossing
	// zero between 50 % and 55 %.
	if len(v.Chart) != 20 || v.Chart[9].Margin >= 0 || v.Chart[10].Margin <= 0 {
		t.Errorf("chart = %+v", v.Chart)
	}
}

func TestProviderViewInCompute(t *testing.T) {
	in := mixedInputs(false)
	in.Provider = &ProviderInputs{Currency: "USD", InputPerMTokens: Fig("0.06", "USD/1M tokens", "price list", evDate),
		OutputPerMTokens: Fig("0.25", "USD/1M tokens", "price list", evDate), ExpectedUtilisation: Fig("0.5", "fraction", "plan", evDate)}
	r := Compute(in)
	if r.Provider == nil || r.Provider.RevenueAtCapacityMonthly == nil {
		t.Fatalf("provider = %+v", r.Provider)
	}
	// (2,000 x 0.06 + 100 x 0.25) / 1M = 0.000145 USD x 0.92 = 0.0001334 EUR a request.
	wantDec(t, "revenue per request in EUR", r.Provider.RevenuePerRequest.Exact, "0.0001334")
	if len(r.Provider.Prices) != 2 || r.Provider.Prices[0].Currency != "USD" {
		t.Errorf("prices = %+v", r.Provider.Prices)
	}
	b, _ := json.Marshal(r)
	for _, key := range []string{`"provider":{`, `"revenue_at_capacity_monthly":{`, `"monthly_cost":{`, `"break_even_utilisation":`, `"margin_at_expected_utilisation":`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("JSON lacks %s", key)
		}
	}
}

func TestDisplay(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"0.0057800001", "0.00578"}, {"12.8", "12.80"}, {"2410.8749", "2,410.87"}, {"0.000261123", "0.000261"},
		{"1234567.891", "1,234,567.89"}, {"-0.5", "-0.500"}, {"-1234.5", "-1,234.50"}, {"0", "0.00"}, {"0.009996", "0.0100"}, {"25", "25.00"},
	} {
		if got := DisplayMoney(dec(tc.in)); got != tc.want {
			t.Errorf("DisplayMoney(%s) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for _, tc := range []struct {
		in   float64
		want string
	}{{0.0014, "0.14 %"}, {0.62, "62 %"}, {0.50889, "50.9 %"}, {0.99994, "99.99 %"}, {1, "100 %"}, {0, "0 %"}, {0.1, "10 %"}, {0.000001, "0.0001 %"}} {
		if got := DisplayShare(tc.in); got != tc.want {
			t.Errorf("DisplayShare(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
	// One rule for N: up to the whole request.
	if RoundRequests(dec("11029048.3"), Wanted) != 11029049 || RoundRequests(dec("75000"), Wanted) != 75000 {
		t.Error("RoundRequests")
	}
	b, _ := json.Marshal(NewMoney(dec("0.0057800001")))
	if !strings.Contains(string(b), `"display":"0.00578"`) || !strings.Contains(string(b), `"rounded":"0.01"`) {
		t.Errorf("money JSON = %s", b)
	}
}

func TestOldStoredSectionsStillLoad(t *testing.T) {
	// A self-hosted section and a quote as stored before the pricing
	// models: they load and cost what they did.
	oldSelf := `{"equipment_mode":"rent","purchase_price":null,"depreciation_months":0,
		"rent_per_hour":{"amount":"2.5","unit":"EUR/h","source":"cloud","evidence_date":"2026-11-01"},"rent_hours_per_month":null,
		"labour_hours_per_month":{"amount":"0","unit":"h/month","source":"ops","evidence_date":"2026-11-01"},
		"labour_rate":{"amount":"0","unit":"EUR/h","source":"HR","evidence_date":"2026-11-01"}}`
	var s SelfHostedCosts
	if err := json.Unmarshal([]byte(oldSelf), &s); err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	wantDec(t, "rent", SelfHostedMonthly(s, nil).Lines[0].Monthly.Exact, "1825")
	oldQuote := `{"name":"api-a","provider":"p","model":"m",
		"input_per_m_tokens":{"amount":"0.5","unit":"EUR/1M tokens","source":"q","evidence_date":"2026-11-01"},
		"output_per_m_tokens":{"amount":"1.5","unit":"EUR/1M tokens","source":"q","evidence_date":"2026-11-01"},
		"retry_rate":null,"platform":null,"storage_network":null,"support":null,"integration_labour":null,"monitoring":null}`
	var q Quote
	if err := json.Unmarshal([]byte(oldQuote), &q); err != nil {
		t.Fatal(err)
	}
	qc := QuoteMonthly(q, 256, 128, "contract")
	// (256 x 0.5 + 128 x 1.5) / 1M = 0.00032.
	wantDec(t, "per request", qc.PerRequest.Exact, "0.00032")
	if qc.PerRequestBasis != "(256 input tokens x 0.5 + 128 output tokens x 1.5) / 1M / (1 - 0 retried)" {
		t.Errorf("basis = %q", qc.PerRequestBasis)
	}
}

// bandCase is a quote whose output band starts at a demand no decimal
// holds exactly: 40 M output tokens a month at 231 output tokens a request
// is 173,160.17316... requests. Input 2.50, output 9.80 per M, from 40 M
// output tokens 6.50. At 390,000 requests the cost is exactly 1,692.585:
// 132 (40 M x 3.30 / 1M) + 390,000 x 0.0040015.
func bandCase() QuoteCost {
	q := priceQuote("2.5", "9.8")
	q.Tiers = []PriceTier{{FromMTokens: dec("40"), OutputPerMTokens: Fig("6.5", "EUR/1M tokens", "price page", evDate)}}
	return QuoteMonthly(q, 1000, 231, "contract")
}

// walkBands prices a month of tokens by walking graduated bands, the
// definition the pieces must agree with: each token at its band's price.
func walkBands(tokens decimal.Decimal, starts, prices []string) decimal.Decimal {
	total := decimal.Zero
	for i := range starts {
		lo := dec(starts[i])
		if !tokens.GreaterThan(lo) {
			break
		}
		hi := tokens
		if i+1 < len(starts) && dec(starts[i+1]).LessThan(hi) {
			hi = dec(starts[i+1])
		}
		total = total.Add(hi.Sub(lo).Mul(dec(prices[i])))
	}
	return total.Shift(-6)
}

func TestBandPieceInterceptIsExact(t *testing.T) {
	qc := bandCase()
	last := qc.Segments[len(qc.Segments)-1]
	if want := "173160.17"; last.From.StringFixed(2) != want {
		t.Fatalf("last piece from %s, want %s", last.From, want)
	}
	// The intercept is 40 M x (9.80 - 6.50) / 1M = 132 exactly, not
	// 131.99999999999999999... from usage at a start cut at 16 places.
	wantDec(t, "intercept", last.Intercept.Exact, "132")
	wantDec(t, "slope", last.Slope.Exact, "0.0040015")
	got := qc.MonthlyAt(390_000)
	wantDec(t, "monthly at 390,000", got, "1692.585")
	if m := NewMoney(got); m.Display() != "1,692.59" || m.Rounded.StringFixed(2) != "1692.59" {
		t.Errorf("shown %s (rounded %s), want 1,692.59: half a cent rounds up", m.Display(), m.Rounded)
	}
	// Every piece agrees with walking the bands, at whole demands on
	// either side of the band's start.
	for _, d := range []int64{1, 40_000, 173_160, 173_161, 250_000, 390_000} {
		dd := decimal.NewFromInt(d)
		want := walkBands(dd.Mul(dec("1000")), []string{"0"}, []string{"2.5"}).
			Add(walkBands(dd.Mul(dec("231")), []string{"0", "40000000"}, []string{"9.8", "6.5"}))
		if got := qc.MonthlyAt(d); !got.Equal(want) {
			t.Errorf("monthly at %d = %s, walking the bands %s", d, got, want)
		}
	}
}
