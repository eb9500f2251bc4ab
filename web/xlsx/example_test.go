package xlsx

import (
	"time"

	"capplan/planner"
)

// workedInputs is the worked example of docs/method.md: concurrency rows 1, 2, 4,
// 8, 10 where 10 fails p95 end-to-end (ceiling 8); self-hosting EUR 2,000 a
// month and an API quote giving EUR 2,400 for 80,000 requests, hence EUR 25
// and EUR 30 per 1,000.
func workedInputs() planner.Inputs {
	fig := func(a, unit string) *planner.Figure { return planner.Fig(a, unit, "test invoice", "2026-11-01") }
	c := planner.Contract{
		Environment: "staging", Service: "support assistant", ReleaseRevision: "r1", BaselineModel: "llama-8b",
		Artifact: "llama-8b bf16", ArtifactHash: "sha256:ab", VLLMVersion: "0.11.0", BenchmarkTool: "guidellm", ToolVersion: "0.5.0",
		Driver: "570", Device: "H100", DeviceMemoryGiB: planner.F(80), Host: "gpu-1", TestDate: "2026-11-20",
		Workload: planner.Workload{PromptTokens: 1000, OutputTokens: 500, Data: "synthetic", Prompts: "varied"},
		LoadKind: planner.LoadConcurrency, Loads: []float64{1, 2, 4, 8, 10}, RowDurationS: 60, StopAfterErrors: 5,
		Objective: planner.Objective{Percentile: 95, MinSuccess: 0.99, TTFTMax: planner.F(2), E2EMax: planner.F(15), MinHeadroom: planner.F(0.10), NoOOM: true},
	}
	var rows []planner.Row
	for i, l := range []struct{ load, rate, e2e float64 }{{1, 0.4, 5}, {2, 0.8, 6}, {4, 1.5, 8}, {8, 3, 12}, {10, 3.2, 16}} {
		rows = append(rows, planner.Row{
			Source: planner.Source{File: "sweep.json", SHA256: "0f3c", Format: "guidellm", FormatVersion: "0.5", ToolVersion: "0.5.0"},
			Model:  "llama-8b", Index: i, LoadKind: planner.LoadConcurrency, Load: planner.F(l.load),
			Attempted: planner.I(200), Successful: planner.I(200), Errored: planner.I(0), Incomplete: planner.I(0),
			DurationS: planner.F(60), RequestRate: planner.F(l.rate), PromptTokensMean: planner.F(1000), OutputTokensMean: planner.F(500),
			TTFT:     planner.Stat{P50: planner.F(0.2), P95: planner.F(0.5), P99: planner.F(0.7)},
			E2E:      planner.Stat{P50: planner.F(l.e2e - 1), P95: planner.F(l.e2e), P99: planner.F(l.e2e + 1)},
			Observed: planner.Observed{Headroom: planner.F(0.2), PeakMemoryGiB: planner.F(64)},
		})
	}
	return planner.Inputs{
		Currency: "EUR", AsOf: "2026-12-01", Contract: c, Rows: rows,
		Overload: &planner.OverloadTest{Sent: "20 streams for 60 s", Outcome: planner.OverloadRejected429, RetryAfter: true, WorkerHealthy: true, Recovered: true, Date: "2026-11-20"},
		SelfHosted: planner.SelfHostedCosts{
			EquipmentMode: "purchase", PurchasePrice: fig("36000", "EUR"), DepreciationMonths: 36,
			PowerWatts: fig("0", "W"), PowerPricePerKWh: fig("0.30", "EUR/kWh"),
			Facilities: fig("0", "EUR/month"), Hosting: fig("400", "EUR/month"), Support: fig("0", "EUR/month"), Software: fig("0", "EUR/month"),
			Monitoring: fig("0", "EUR/month"), Backup: fig("0", "EUR/month"),
			LabourHoursPerMonth: fig("10", "h/month"), LabourRate: fig("60", "EUR/h"), DowntimeAllowance: fig("0", "EUR/month"),
		},
		Quotes: []planner.Quote{{Name: "hosted-api", Provider: "Example AI", Model: "llama-8b",
			InputPerMTokens: fig("10", "EUR/1M tokens"), OutputPerMTokens: fig("40", "EUR/1M tokens")}},
		Scenarios: []planner.Scenario{
			{Name: "low", MonthlyRequests: 40_000, BusyHourShare: 0.1},
			{Name: "expected", MonthlyRequests: 80_000, BusyHourShare: 0.1},
			{Name: "peak", MonthlyRequests: 200_000, BusyHourShare: 0.1},
		},
		Recommendation: &planner.Recommendation{Decision: "keep", Owner: "A. Lead", ReviewDate: "2027-03-01", Expiry: "2027-06-01",
			Gates: []planner.NonFinancialGate{{Name: "data location", Pass: true}, {Name: "capability", Pass: true}, {Name: "contract", Pass: true},
				{Name: "recovery", Pass: true}, {Name: "exit", Pass: true}}},
		Candidates: []planner.Candidate{{Name: "baseline", Baseline: true, Model: "llama-8b",
			Gate: &planner.RegressionGate{Gate: "support-set", Cases: 200, Pass: true, Date: "2026-11-18"}}},
	}
}

// crossoverInputs is the crossover example: F_local 3,000 a month, V_local
// 0.01 and V_api 0.05 per request, hence N = 75,000.
func crossoverInputs() planner.Inputs {
	in := workedInputs()
	in.SelfHosted.Hosting = planner.Fig("1400", "EUR/month", "hosting contract", "2026-11-01")
	in.SelfHosted.PerRequest = planner.Fig("0.01", "EUR", "metered egress", "2026-11-01")
	in.Quotes[0].OutputPerMTokens = planner.Fig("80", "EUR/1M tokens", "price list", "2026-11-01")
	return in
}

func testReport(in planner.Inputs) Report {
	return Report{ID: 7, Title: "Worked example", Owner: "A. Lead", State: "draft", Version: 3,
		Generated: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC), Inputs: in, Result: planner.Compute(in),
		History: []Change{{At: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC), User: "A. Lead", Action: "created", Section: "report"}}}
}

// repeatedLoadInputs adds a second run at 8 streams that failed, in another
// file: the level fails, so the ceiling drops to 4 in the planner and in
// the workbook alike.
func repeatedLoadInputs() planner.Inputs {
	in := workedInputs()
	again := in.Rows[3]
	again.Source.File, again.Source.SHA256, again.Index = "rerun.json", "9a1b", 0
	again.E2E.P95 = planner.F(15.5)
	in.Rows = append(in.Rows, again)
	return in
}

// weakCeilingInputs is the weak-evidence example of docs/method.md: 1
// stream passes on 40 requests, 2 streams fails its success bound on 97
// of 100, 4 streams passes: the ceiling is 1, on weak evidence.
func weakCeilingInputs() planner.Inputs {
	in := workedInputs()
	in.Rows = in.Rows[:3]
	in.Rows[0].Attempted, in.Rows[0].Successful = planner.I(40), planner.I(40)
	in.Rows[1].Attempted, in.Rows[1].Successful, in.Rows[1].Errored = planner.I(100), planner.I(97), planner.I(3)
	return in
}

// sweepInputs has the worked matrix with its two lowest rows thin (40 and
// 78 successful requests): they pass inconclusively below conclusive
// passes, which cover them, so the ceiling stays where the worked
// example puts it.
func sweepInputs() planner.Inputs {
	in := workedInputs()
	in.Rows[0].Attempted, in.Rows[0].Successful = planner.I(40), planner.I(40)
	in.Rows[1].Attempted, in.Rows[1].Successful = planner.I(78), planner.I(78)
	return in
}

// speedInputs has the worked matrix under an output-speed floor of 20
// tok/s/user: judged on the ITL (30 ms at p95, a pass), never on the TPOT
// that includes the first token (70 ms).
func speedInputs() planner.Inputs {
	in := workedInputs()
	in.Contract.Objective.TPOTMax, in.Contract.Objective.TPOTAsSpeed = planner.F(0.05), true
	for i := range in.Rows {
		in.Rows[i].ITL = planner.Stat{P50: planner.F(0.02), P95: planner.F(0.03), P99: planner.F(0.04)}
		in.Rows[i].TPOT = planner.Stat{P50: planner.F(0.06), P95: planner.F(0.07), P99: planner.F(0.08)}
	}
	return in
}

// weakStopInputs has the worked matrix with the 8-stream row shorter than
// the contract's rows: it passes on weak evidence, so the envelope ends
// at 4 below it.
func weakStopInputs() planner.Inputs {
	in := workedInputs()
	in.Rows[3].DurationS = planner.F(40)
	return in
}

// goodputInputs has the capacity example of docs/method.md, "Capacity
// per box": the ceiling row (8 streams) ran 100 s, 200 attempted, 199
// succeeded, 193 within every bound: 1.93 successful in-objective req/s.
// The peak of 138,600 a month at a 5 % busy hour (1.925 req/s) needs one
// box.
func goodputInputs() planner.Inputs {
	in := workedInputs()
	r := &in.Rows[3]
	r.Attempted, r.Successful, r.Errored = planner.I(200), planner.I(199), planner.I(1)
	r.DurationS, r.RequestRate = planner.F(100), planner.F(1.99)
	for i := range 200 {
		s := planner.Sample{TTFT: 0.4, E2E: 10, ITL: planner.NoFigure, OutputTokens: 500, OK: true}
		switch {
		case i < 6 && i%2 == 0:
			s.E2E = 16 // succeeded, missed the end-to-end bound
		case i < 6:
			// Succeeded, missed the TTFT bound: three beyond each bound
			// keep each p95's 95 % upper bound within it (docs/method.md,
			// "Confidence").
			s.TTFT = 2.5
		case i == 6:
			s = planner.Sample{TTFT: planner.NoFigure, E2E: planner.NoFigure, ITL: planner.NoFigure, OutputTokens: planner.NoFigure}
		}
		r.Samples = append(r.Samples, s)
	}
	for i := range in.Scenarios {
		if in.Scenarios[i].Name == "peak" {
			in.Scenarios[i].MonthlyRequests, in.Scenarios[i].BusyHourShare = 138_600, 0.05
		}
	}
	return in
}
