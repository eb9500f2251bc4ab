package reports

import (
	"context"
	"fmt"
	"strings"
	"time"

	"capplan/planner"
	"capplan/web/store"
)

// The demo report is filled in end to end, so that a first look shows
// every section with real arithmetic: the overload test, an FP8 candidate
// with its own run, the residency plan, self-hosted costs with evidence,
// an API quote, three demand scenarios and a recommendation.

// DemoEntered is what a history entry of the demo's seeding says changed:
// the demo fills each section whole, from nothing.
const DemoEntered = "the demo's figures, entered when the demo was made"

// demoQuoteName is the API quote the demo report is compared with.
const demoQuoteName = "Frontier API (demo)"

// seedDemoPlan fills the demo report's typed-in sections. Evidence dates
// are recent relative to today, so the demo does not go stale.
func seedDemoPlan(ctx context.Context, st *store.Store, dataDir string, reportID, userID int64) error {
	now := time.Now().UTC()
	day := func(daysAgo int) string { return now.AddDate(0, 0, -daysAgo).Format("2006-01-02") }
	edit := func(action, section string) (store.Edit, error) {
		r, err := st.Report(ctx, reportID)
		return store.Edit{ReportID: reportID, BaseVersion: r.Version, UserID: userID, Action: action, Section: section, After: DemoEntered}, err
	}
	save := func(name, action string, v any) error {
		e, err := edit(action, name)
		if err != nil {
			return err
		}
		return st.SaveSection(ctx, e, name, v)
	}
	fig := func(amount, unit, source string, daysAgo int) *planner.Figure {
		return planner.Fig(amount, unit, source, day(daysAgo))
	}

	if err := save(SecSettings, "cost settings changed", Settings{Currency: "EUR", TokenBasis: "contract", MaxBoxes: 2, StaleAfterDays: 90}); err != nil {
		return err
	}
	if err := save(SecOverload, "overload test recorded", planner.OverloadTest{
		Sent:    "20 concurrent streams for 120 s against the admission limit of 8",
		Outcome: planner.OverloadRejected429, RetryAfter: true, WorkerHealthy: true, Recovered: true,
		Date:  day(9),
		Notes: "12 of 20 streams got 429 with Retry-After 9 s; no OOM, no restart; p95 end-to-end of admitted requests stayed at 9.6 s",
	}); err != nil {
		return err
	}
	if err := save(SecRoutes, "residency changed", []planner.Route{{
		Name: "support-chat", Model: "meta-llama/Llama-3.1-8B-Instruct", Residency: "resident",
		MemoryBudgetGiB: planner.F(70), AdmittedConcurrency: planner.I(8),
		QueuePolicy: "queue 8 for at most 30 s, then 429 with Retry-After", Owner: "A. Lead",
		OverloadOutcome: "429 with Retry-After, worker healthy",
	}}); err != nil {
		return err
	}
	if err := save(SecSelfHosted, "self-hosted costs changed", planner.SelfHostedCosts{
		EquipmentMode:       "purchase",
		PurchasePrice:       fig("32000", "EUR", "server invoice 2026-118", 40),
		DepreciationMonths:  36,
		PowerWatts:          fig("650", "W", "BMC average over the test window", 9),
		PowerIdleWatts:      fig("120", "W", "BMC with the model loaded and no requests", 9),
		PowerPricePerKWh:    fig("0.24", "EUR/kWh", "facility contract 2026", 60),
		PUE:                 fig("1.4", "ratio", "facility contract 2026", 60),
		Facilities:          fig("120", "EUR/month", "rack share, facility contract", 60),
		Hosting:             fig("180", "EUR/month", "colocation invoice", 30),
		Support:             fig("90", "EUR/month", "vendor hardware support", 40),
		Software:            fig("0", "EUR/month", "open-source stack; typed zero", 30),
		Monitoring:          fig("40", "EUR/month", "metrics SaaS share", 30),
		Backup:              fig("25", "EUR/month", "object storage for models and configs", 30),
		LabourHoursPerMonth: fig("10", "h/month", "on-call log, last quarter", 20),
		LabourRate:          fig("85", "EUR/h", "finance: loaded rate for platform engineers", 20),
		DowntimeAllowance:   fig("60", "EUR/month", "2 h/month at the hosted API's price", 20),
	}); err != nil {
		return err
	}
	if err := save(SecScenarios, "scenarios changed", []planner.Scenario{
		// The busiest hour as a share of the day's requests, as the
		// gateway's hourly graph shows it: office-hours traffic, a tenth
		// of the day or so in its busiest hour (2.4 to 2.9 times the
		// average rate). The expected month keeps one box busy outside
		// the busiest hour, so owning the base and buying the peak shows.
		{Name: "low", MonthlyRequests: 500_000, BusyHourKind: planner.BusyDayShare, BusyHourShare: 0.12},
		{Name: "expected", MonthlyRequests: 845_000, BusyHourKind: planner.BusyDayShare, BusyHourShare: 0.11},
		{Name: "peak", MonthlyRequests: 1_300_000, BusyHourKind: planner.BusyDayShare, BusyHourShare: 0.10},
	}); err != nil {
		return err
	}
	// The provider view: the box's tokens sold to another team at an
	// internal price list, to see what utilisation covers it.
	if err := save(SecProvider, "provider view changed", &planner.ProviderInputs{
		InputPerMTokens:     fig("1.40", "EUR/1M tokens", "internal price list 2026", 30),
		OutputPerMTokens:    fig("5.50", "EUR/1M tokens", "internal price list 2026", 30),
		ExpectedUtilisation: fig("0.55", "fraction", "capacity plan, next quarter", 30),
	}); err != nil {
		return err
	}
	if err := seedDemoQuote(ctx, st, reportID, userID, fig); err != nil {
		return err
	}
	if err := seedDemoCandidates(ctx, st, dataDir, reportID, userID, day); err != nil {
		return err
	}
	return save(SecRecommendation, "recommendation changed", planner.Recommendation{
		Decision: "change", Owner: "A. Lead", ReviewDate: now.AddDate(0, 3, 0).Format("2006-01-02"), Expiry: now.AddDate(0, 6, 0).Format("2006-01-02"),
		Triggers: []string{
			"utilisation of the box below 30 % for a month",
			"operator hours above 15 a month",
			"self-hosting wins the expected scenario like for like",
			"hardware refresh due",
			"no supported vLLM release for the driver",
		},
		Gates: []planner.NonFinancialGate{
			{Name: "data location", Pass: true, Note: "the API provider processes in the EU region under the DPA"},
			{Name: "capability", Pass: true, Note: "the API's model passed the regression set at 97 %, as the box's did"},
			{Name: "contract", Pass: true, Note: "monthly terms, 30 days notice"},
			{Name: "recovery", Pass: true, Note: "gateway fails over to the box kept warm for a quarter"},
			{Name: "exit", Pass: true, Note: "the box stays in the rack until the review date"},
		},
		Notes: "Change the plan: own one box for the base of the month and send the busy hours' overflow to the API, which costs less per 1,000 successful requests than either all self-hosted or all API in the expected scenario.",
	})
}

// seedDemoQuote adds the demo's API quote to the library (once) and
// attaches it to the report.
func seedDemoQuote(ctx context.Context, st *store.Store, reportID, userID int64, fig func(string, string, string, int) *planner.Figure) error {
	quotes, err := st.Quotes(ctx)
	if err != nil {
		return err
	}
	var id int64
	for _, q := range quotes {
		if strings.EqualFold(q.Q.Name, demoQuoteName) {
			id = q.ID
		}
	}
	if id == 0 {
		id, err = st.SaveQuote(ctx, userID, store.Quote{
			Q: planner.Quote{
				Name: demoQuoteName, Provider: "Example Cloud AI", Model: "frontier-large",
				InputPerMTokens:   fig("2.50", "EUR/1M tokens", "price list, EU region", 15),
				OutputPerMTokens:  fig("10.00", "EUR/1M tokens", "price list, EU region", 15),
				RetryRate:         fig("0.02", "fraction", "provider status page, last 90 days", 15),
				Platform:          fig("50", "EUR/month", "enterprise tier fee", 15),
				StorageNetwork:    fig("10", "EUR/month", "egress estimate", 15),
				Support:           fig("0", "EUR/month", "included in the tier", 15),
				IntegrationLabour: fig("170", "EUR/month", "2 h/month at the loaded rate", 20),
				Monitoring:        fig("20", "EUR/month", "metrics SaaS share", 30),
			},
			Region: "eu-west", Currency: "EUR", Terms: "monthly, 30 days notice, DPA signed",
			Source: "price list and sales call", EvidenceDate: time.Now().UTC().AddDate(0, 0, -15).Format("2006-01-02"),
		})
		if err != nil {
			return fmt.Errorf("demo quote: %w", err)
		}
	}
	r, err := st.Report(ctx, reportID)
	if err != nil {
		return err
	}
	return st.AttachQuote(ctx, store.Edit{ReportID: reportID, BaseVersion: r.Version, UserID: userID, Action: "quote attached", Section: "costs", After: demoQuoteName}, id)
}

// seedDemoCandidates records the baseline and an FP8 variant, each with its
// regression gate; the FP8 variant has a run of its own.
func seedDemoCandidates(ctx context.Context, st *store.Store, dataDir string, reportID, userID int64, day func(int) string) error {
	cands := []planner.Candidate{
		{Name: "baseline", Baseline: true, Model: "meta-llama/Llama-3.1-8B-Instruct", Artifact: "bf16 safetensors", ArtifactHash: "sha256:5f0b02c75b57c5855da9ae460ce51323ea669d8a",
			Gate:            &planner.RegressionGate{Gate: "support-regression-v3", Cases: 240, Pass: true, Date: day(12)},
			ArtifactSizeGiB: planner.F(15), LoadedMemoryGiB: planner.F(62), ColdStartS: planner.F(48)},
		{Name: "fp8", Model: "meta-llama/Llama-3.1-8B-Instruct-FP8", Artifact: "fp8 dynamic safetensors", ArtifactHash: "sha256:0d9e3c7a41f2b8e6c5d4a3b2c1f0e9d8c7b6a5f4", Quantization: "fp8",
			Gate:            &planner.RegressionGate{Gate: "support-regression-v3", Cases: 240, Pass: true, Date: day(11)},
			ArtifactSizeGiB: planner.F(8.5), LoadedMemoryGiB: planner.F(56), ColdStartS: planner.F(31)},
	}
	var fp8 int64
	for _, c := range cands {
		r, err := st.Report(ctx, reportID)
		if err != nil {
			return err
		}
		id, err := st.SaveCandidate(ctx, store.Edit{ReportID: reportID, BaseVersion: r.Version, UserID: userID, Action: "candidate added", Section: "candidates", After: c.Name}, 0, c)
		if err != nil {
			return fmt.Errorf("demo candidate %s: %w", c.Name, err)
		}
		if c.Name == "fp8" {
			fp8 = id
		}
	}
	// The FP8 run: the same workload, saturating later.
	if err := importDemoFile(ctx, st, dataDir, DemoFP8ResultsFile, reportID, userID, fp8); err != nil {
		return fmt.Errorf("demo fp8: %w", err)
	}
	rows, err := st.Rows(ctx, reportID)
	if err != nil {
		return err
	}
	for _, sr := range rows {
		load, ok := sr.Row.LoadValue()
		if sr.CandidateID != fp8 || !ok {
			continue
		}
		o := demoObserved[load]
		o.PeakMemoryGiB, o.Headroom = planner.F(*o.PeakMemoryGiB-6), planner.F(*o.Headroom+0.07)
		r, err := st.Report(ctx, reportID)
		if err != nil {
			return err
		}
		if err := st.SetObserved(ctx, store.Edit{ReportID: reportID, BaseVersion: r.Version, UserID: userID, Action: "observed figures typed in", Section: "candidates", After: DemoEntered}, sr.ID, o); err != nil {
			return err
		}
	}
	return nil
}
