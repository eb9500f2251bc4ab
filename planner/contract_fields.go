package planner

import "slices"

// ContractHelp is one line of meaning for each field of the contract
// form, keyed as the form and FieldError name them (docs/method.md,
// "Contract"). The form shows it under the field's label.
var ContractHelp = map[string]string{
	"baseline_model":         "The model the box serves, as the benchmark files name it (e.g. meta-llama/Llama-3.1-8B-Instruct); rows of another model do not count.",
	"device":                 "The GPU under test, with a count when more than one: \"H100\", \"2x H200\".",
	"device_memory_gib":      "Usable memory of one device, for the fit and headroom checks (80 for an H100).",
	"vllm_version":           "The serving engine's version or container image digest, so the result can be reproduced.",
	"workload.prompt_tokens": "Mean input tokens per request the test sends; rows far from it do not count.",
	"workload.output_tokens": "Mean output tokens per request the test asks for.",
	"workload.data":          "Synthetic prompts, or a dataset of real ones.",
	"workload.prompts":       "Whether every request sends the same prompt (identical) or not (varied); identical prompts flatter the prefix cache.",
	"load_kind":              "What each row fixes: concurrent requests, a request rate, one at a time (synchronous) or as fast as possible (throughput).",
	"loads":                  "The load of each row, increasing: e.g. 1, 2, 4, 8, 10 concurrent requests.",
	"row_duration_s":         "How long each row runs, in seconds.",
	"stop_after_errors":      "A row stops early after this many errors (blank or 0: no such rule).",
	"stop_rule":              "Any other condition that stops a row (e.g. \"a worker restarts\").",
	"objective":              "The bounds every row is judged against; the percentile is part of the promise (p95 and p99 differ).",
	"environment":            "Where the test runs: staging, production, a lab.",
	"service":                "The service and how it is framed for users (e.g. \"support chat, streaming\").",
	"release_revision":       "The revision of the proxy or release in front of the engine, so the test names what served the requests.",
	"artifact":               "The model files served (e.g. \"llama-3.1-8b bf16\").",
	"artifact_hash":          "A checksum of those files (sha256), proof that the files tested are the files deployed.",
	"candidates":             "Quantized or reconfigured variants to compare against the baseline, if any.",
	"benchmark_tool":         "The tool that sends the load (GuideLLM, vllm bench serve, ...).",
	"tool_version":           "Its version: tools change what they measure between versions.",
	"driver":                 "The GPU driver version (e.g. 570.86).",
	"host":                   "The machine the box is (hostname or instance type).",
	"test_date":              "The day the test runs; load-test figures are judged against it.",
	"workload.dataset":       "The dataset's name when the prompts come from one.",
	"workload.tolerance":     "How far a row's mean tokens may be from the contract's and still count (blank: 10 %).",
	"soak_hours":             "A long run at the admission limit after the rows, in hours (blank: none).",
	"confidence":             "How sure each verdict from per-request records is (blank: 95 %).",
	"refused_target":         "The share of busy-hour requests the sizing allows to be refused or to time out in the queue (blank: 0.1 %).",
	"admission_proposal":     "What you expect to admit, before the results (e.g. \"max 8 in flight, 429 beyond\"); the report proposes its own from the ceiling.",
	"rollback":               "How the service goes back if the test harms it (e.g. \"revert the route to the API\").",
	"owners.test_owner":      "Who runs the test and answers for it.",
	"owners.observer":        "Who watches the service while it runs.",
	"owners.stop_authority":  "Who may stop the test at once if the service suffers.",
	"owners.window":          "When the test may run (e.g. \"Tue 09:00-11:00 UTC\").",
}

// FreezeFields are the contract fields a freeze needs, as Missing names
// them: what it lists for a contract with nothing written. The form marks
// these, the read view lists the missing ones, both from Missing.
func FreezeFields() []string { return Contract{}.Missing() }

// NeededToFreeze reports whether the contract field key is one a freeze
// needs.
func NeededToFreeze(key string) bool { return slices.Contains(FreezeFields(), key) }

// RefusedTargetOrDefault is the share of busy-hour requests the sizing
// may refuse: the contract's, else DefaultRefusedTarget (0.1 %).
func (c Contract) RefusedTargetOrDefault() float64 { return refusedTarget(c) }
