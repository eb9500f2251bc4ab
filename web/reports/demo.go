package reports

import (
	"context"
	"fmt"
	"io"
	"time"

	"capplan/planner"
	"capplan/web/demogen/guidellmgen"
	"capplan/web/store"
)

// DemoTitle is the title of the report seeded into an empty database.
const DemoTitle = "Demo: support assistant on one H100"

// demoTestDaysAgo is how many days before the demo is made its load test
// ran. The demo's evidence is dated from the day it is made too, so it is
// never stale nor dated after its test, whenever it is seeded.
const demoTestDaysAgo = 12

// DemoTestDate is the demo's test date: demoTestDaysAgo days before today.
func DemoTestDate() string {
	return time.Now().UTC().AddDate(0, 0, -demoTestDaysAgo).Format(time.DateOnly)
}

// DemoContract is the frozen contract of the demo report.
func DemoContract() planner.Contract {
	return planner.Contract{
		Environment:     "staging, eu-west",
		Service:         "support assistant: chat completions behind the API gateway",
		ReleaseRevision: "gateway r412",
		BaselineModel:   "meta-llama/Llama-3.1-8B-Instruct",
		Artifact:        "Llama-3.1-8B-Instruct bf16 safetensors",
		ArtifactHash:    "sha256:5f0b02c75b57c5855da9ae460ce51323ea669d8a",
		Candidates:      "FP8 dynamic quantization of the baseline",
		VLLMVersion:     "vllm/vllm-openai:v0.11.0",
		BenchmarkTool:   "guidellm",
		ToolVersion:     "0.5.0",
		Driver:          "NVIDIA 570.133.20, CUDA 12.8",
		Device:          "1x H100 SXM 80GB",
		DeviceMemoryGiB: planner.F(80),
		Host:            "gpu-stg-01",
		TestDate:        DemoTestDate(),
		Workload:        planner.Workload{PromptTokens: 512, OutputTokens: 256, Data: "synthetic", Prompts: "varied"},
		LoadKind:        planner.LoadConcurrency,
		Loads:           []float64{1, 2, 4, 8, 10},
		RowDurationS:    60,
		StopAfterErrors: 5,
		StopRule:        "stop the row on OOM or a worker restart",
		Objective: planner.Objective{
			Percentile: 95, MinSuccess: 0.99,
			TTFTMax: planner.F(2), E2EMax: planner.F(15),
			MinHeadroom: planner.F(0.10), NoOOM: true,
		},
		AdmissionProposal: "max 8 in flight, queue 16, 429 with Retry-After beyond",
		Rollback:          "revert the gateway route to the hosted API",
		Owners:            planner.Owners{TestOwner: "A. Lead", Observer: "B. Reviewer", StopAuthority: "A. Lead", Window: DemoTestDate() + " 09:00-11:00 UTC"},
	}
}

// SeedDemo adds the demo report, owned by the first admin, when the
// database holds no report yet. dataDir is where raw result files go.
func SeedDemo(ctx context.Context, st *store.Store, dataDir string) error {
	return SeedDemoWith(ctx, st, dataDir, nil)
}

// DemoStep adds to the demo report once its results and observed figures
// are in (the HTTP side adds the operations evidence it imports).
type DemoStep func(ctx context.Context, st *store.Store, reportID, userID int64) error

// SeedDemoWith is SeedDemo with extra run after the results are imported.
func SeedDemoWith(ctx context.Context, st *store.Store, dataDir string, extra DemoStep) error {
	reports, err := st.Reports(ctx)
	if err != nil || len(reports) > 0 {
		return err
	}
	owner, err := st.UserByEmail(ctx, "admin")
	if err != nil {
		return fmt.Errorf("demo: the admin account is needed: %w", err)
	}
	id, err := st.CreateReport(ctx, owner, DemoTitle)
	if err != nil {
		return err
	}
	e := store.Edit{ReportID: id, BaseVersion: 1, UserID: owner.ID, Action: "contract edited", Section: "contract", After: "demo contract"}
	if err := st.SaveContract(ctx, e, DemoContract(), nil); err != nil {
		return err
	}
	e = store.Edit{ReportID: id, BaseVersion: 2, UserID: owner.ID, Action: "contract frozen", Section: "contract"}
	if err := st.Freeze(ctx, e); err != nil {
		return err
	}
	return seedDemoResults(ctx, st, dataDir, id, owner.ID, extra)
}

// DemoResultsFile is the name of the demo report's generated result file.
const DemoResultsFile = "guidellm-demo-benchmarks.json"

// DemoFP8ResultsFile is the name of the demo's FP8 candidate run.
const DemoFP8ResultsFile = "guidellm-demo-fp8-benchmarks.json"

// demoFiles are the generator settings of the demo's GuideLLM result files.
var demoFiles = map[string]guidellmgen.Config{
	DemoResultsFile:    {},
	DemoFP8ResultsFile: {Model: "meta-llama/Llama-3.1-8B-Instruct-FP8", Seed: 2, Saturation: 12},
}

// openDemoFile streams one of the demo's result files from the generator;
// closing it stops the generator.
func openDemoFile(name string) (io.ReadCloser, error) {
	cfg, ok := demoFiles[name]
	if !ok {
		return nil, fmt.Errorf("no demo file %q", name)
	}
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(guidellmgen.Write(pw, cfg)) }()
	return pr, nil
}

// importDemoFile imports one demo result file (into candidate, or the main
// matrix when 0) through the same import path as an upload.
func importDemoFile(ctx context.Context, st *store.Store, dataDir, name string, reportID, userID, candidate int64) error {
	f, err := openDemoFile(name)
	if err != nil {
		return fmt.Errorf("demo results: %w", err)
	}
	defer f.Close()
	batch := NewImportBatch(dataDir, 0)
	defer batch.Close()
	batch.Candidate = candidate
	if err := batch.Add(name, f); err != nil {
		return fmt.Errorf("demo results: %w", err)
	}
	_, err = CommitLatest(ctx, st, batch, reportID, userID)
	return err
}

// seedDemoResults imports the demo's GuideLLM report (loads 1, 2, 4, 8
// and 10 streams; 10 fails the demo objective) and fills in the rest.
func seedDemoResults(ctx context.Context, st *store.Store, dataDir string, reportID, userID int64, extra DemoStep) error {
	if err := importDemoFile(ctx, st, dataDir, DemoResultsFile, reportID, userID, 0); err != nil {
		return err
	}
	if err := seedDemoObserved(ctx, st, reportID, userID); err != nil {
		return err
	}
	if extra != nil {
		if err := extra(ctx, st, reportID, userID); err != nil {
			return err
		}
	}
	return seedDemoPlan(ctx, st, dataDir, reportID, userID)
}

// demoObserved is what the demo's lead typed in per load level: the server
// side no benchmark client sees. The headroom falls below the objective's
// 10 % at 10 streams.
var demoObserved = map[float64]planner.Observed{
	1:  {PeakMemoryGiB: planner.F(65.6), Headroom: planner.F(0.18), PowerWatts: planner.F(420), OOMChecked: true},
	2:  {PeakMemoryGiB: planner.F(66.4), Headroom: planner.F(0.17), PowerWatts: planner.F(480), OOMChecked: true},
	4:  {PeakMemoryGiB: planner.F(68.0), Headroom: planner.F(0.15), PowerWatts: planner.F(560), OOMChecked: true},
	8:  {PeakMemoryGiB: planner.F(69.6), Headroom: planner.F(0.13), PowerWatts: planner.F(640), OOMChecked: true},
	10: {PeakMemoryGiB: planner.F(73.6), Headroom: planner.F(0.08), PowerWatts: planner.F(690), OOMChecked: true},
}

func seedDemoObserved(ctx context.Context, st *store.Store, reportID, userID int64) error {
	rows, err := st.Rows(ctx, reportID)
	if err != nil {
		return err
	}
	for _, sr := range rows {
		load, ok := sr.Row.LoadValue()
		o, known := demoObserved[load]
		if !ok || !known {
			continue
		}
		r, err := st.Report(ctx, reportID)
		if err != nil {
			return err
		}
		e := store.Edit{ReportID: reportID, BaseVersion: r.Version, UserID: userID, Action: "observed figures typed in", Section: "matrix", After: DemoEntered}
		if err := st.SetObserved(ctx, e, sr.ID, o); err != nil {
			return err
		}
	}
	return nil
}
