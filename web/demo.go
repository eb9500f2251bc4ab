package web

import (
	"context"
	"fmt"

	"capplan/planner"
	"capplan/web/store"
)

// DemoTitle is the title of the report seeded into an empty database.
const DemoTitle = "Demo: support assistant on one H100"

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
		TestDate:        "2026-11-20",
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
		Owners:            planner.Owners{TestOwner: "A. Lead", Observer: "B. Reviewer", StopAuthority: "A. Lead", Window: "2026-11-20 09:00-11:00 UTC"},
	}
}

// SeedDemo adds the demo report, owned by the first admin, when the
// database holds no report yet. dataDir is where raw result files go.
func SeedDemo(ctx context.Context, st *store.Store, dataDir string) error {
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
	return st.Freeze(ctx, e)
}
