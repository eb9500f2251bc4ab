package planner

// Helpers shared by the planner tests.

// testObjective is the contract's example: success >= 99 %, p95 TTFT <= 2 s,
// p95 end-to-end <= 15 s, headroom >= 10 %, no OOM.
func testObjective() Objective {
	return Objective{Percentile: 95, MinSuccess: 0.99, TTFTMax: F(2), E2EMax: F(15), MinHeadroom: F(0.10), NoOOM: true}
}

// concRow is a full, passing-shaped concurrency row at streams with the
// given p95 end-to-end latency; tweak fields after.
func concRow(streams, p95e2e float64) Row {
	return Row{
		Model:               "llama-3.1-8b-instruct",
		Source:              Source{File: "c.json", Format: "guidellm"},
		LoadKind:            LoadConcurrency,
		Load:                F(streams),
		AchievedConcurrency: F(streams),
		Attempted:           I(200), Successful: I(200), Errored: I(0), Incomplete: I(0),
		DurationS:        F(60),
		RequestRate:      F(streams * 0.4),
		OutputTokenRate:  F(streams * 50),
		PromptTokensMean: F(256), OutputTokensMean: F(128),
		TTFT:     Stat{Mean: F(0.3), P50: F(0.25), P95: F(0.6), P99: F(0.9), N: 200},
		E2E:      Stat{Mean: F(p95e2e * 0.8), P50: F(p95e2e * 0.75), P95: F(p95e2e), P99: F(p95e2e * 1.1), N: 200},
		Observed: Observed{Headroom: F(0.2), PeakMemoryGiB: F(64)},
	}
}

// matrix builds concurrency rows at the loads with the p95 latencies.
func matrix(loads, p95 []float64) []Row {
	rows := make([]Row, len(loads))
	for i := range loads {
		rows[i] = concRow(loads[i], p95[i])
	}
	return rows
}

func testContract() Contract {
	return Contract{
		Environment: "staging", Service: "extraction", ReleaseRevision: "r42",
		BaselineModel: "llama-3.1-8b-instruct", Artifact: "llama-3.1-8b", ArtifactHash: "sha256:abc",
		VLLMVersion: "0.11.0", BenchmarkTool: "GuideLLM", ToolVersion: "0.4.1",
		Driver: "570.86", Device: "H100 80GB", DeviceMemoryGiB: F(80), Host: "gpu-01",
		TestDate: "2026-11-01",
		Workload: Workload{PromptTokens: 256, OutputTokens: 128, Data: "synthetic", Prompts: "varied"},
		LoadKind: LoadConcurrency, Loads: []float64{1, 2, 4, 8, 10},
		RowDurationS: 60, StopAfterErrors: 5,
		Objective: testObjective(),
	}
}
