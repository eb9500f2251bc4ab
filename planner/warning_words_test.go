package planner

import "testing"

// Each difference from the contract is said with the file's value and the
// contract's; a warning of the file's own says its message in a sentence.
func TestWarningSentences(t *testing.T) {
	c := testContract()
	c.BenchmarkTool = "vllm-bench"
	r := concRow(8, 12)
	r.Model = "mistral-7b"
	r.Source.Format = "guidellm"
	r.LoadKind = LoadRate
	r.PromptTokensMean = F(600)
	r.Successful = I(40)
	r.DurationS = F(30)
	got := map[string]string{}
	for _, w := range append(CheckRow(r, c, c.BaselineModel), Eligibility(r, c, c.BaselineModel, LoadConcurrency)...) {
		got[w.Code] = WarningSentence(w)
	}
	for code, want := range map[string]string{
		"model-mismatch":     "The file's model is mistral-7b; the contract names llama-3.1-8b-instruct.",
		"tool-mismatch":      "The file was written by guidellm; the contract names vllm-bench.",
		"load-kind-mismatch": "The file sets its load as a request rate; the contract's rows are concurrent streams.",
		"workload-mismatch":  "The file's mean prompt tokens are 600; the contract's are 256 (within ±10 %).",
		"few-requests":       "The row has 40 successful requests; the contract's p95 needs at least 100.",
		"short-row":          "The row ran 30 s; the contract's rows run 60 s.",
	} {
		if got[code] != want {
			t.Errorf("%s: %q, want %q", code, got[code], want)
		}
	}
	for _, tc := range []struct {
		w    Warning
		want string
	}{
		{Warning{Code: "no-tokens", Message: "3 of the 200 requests received no output tokens"}, "Requests with no output tokens count as failed: 3 of the 200 requests received no output tokens."},
		{Warning{Code: "planned-row-missing", Message: "the contract plans load 16 concurrent streams but no row has it"}, "The contract plans load 16 concurrent streams but no row has it."},
		{Warning{Code: "odd-thing"}, "Odd thing."},
	} {
		if s := WarningSentence(tc.w); s != tc.want {
			t.Errorf("%s: %q, want %q", tc.w.Code, s, tc.want)
		}
	}
}
