package planner

import "testing"

// A row whose file named no model takes the one typed for it: judged
// against the contract's model like a file's, and not used when the file
// names one.
func TestTypedModelOfARowIsJudged(t *testing.T) {
	has := func(ws []Warning, code string) bool {
		for _, w := range ws {
			if w.Code == code {
				return true
			}
		}
		return false
	}
	want := "meta-llama/Llama-3.1-8B-Instruct"
	r := Row{Observed: Observed{Model: "mistralai/Mistral-7B"}}
	if r.ModelName() != "mistralai/Mistral-7B" || !has(Eligibility(r, Contract{}, want, LoadConcurrency), "model-mismatch") {
		t.Errorf("a typed other model: %q, not judged a mismatch", r.ModelName())
	}
	r.Observed.Model = " " + want
	if has(Eligibility(r, Contract{}, want, LoadConcurrency), "model-mismatch") {
		t.Error("the typed contract model is judged a mismatch")
	}
	r = Row{Model: want, Observed: Observed{Model: "mistralai/Mistral-7B"}}
	if r.ModelName() != want {
		t.Errorf("the file's model %q gives way to a typed one: %q", want, r.ModelName())
	}
	if (Row{}).ModelName() != "" {
		t.Error("a row with no model names one")
	}
}
