// Package pricegen writes public price catalogues in the shapes their
// publishers ship them, for tests and benchmarks: LiteLLM's
// model_prices_and_context_window.json (an object keyed by model, USD per
// token) and pydantic genai-prices' data (an array of providers with
// their models, prices per million tokens, dated price sets and tiers).
package pricegen

import (
	"fmt"
	"strings"
)

// Model is one model's prices. Prices are literals as the file writes
// them ("" leaves the field out); for LiteLLM they are per token
// ("2.5e-06"), for genai-prices per million tokens ("2.5").
type Model struct {
	Key, Provider, Mode      string
	Input, Output            string
	CacheRead, CacheWrite    string
	BatchInput, BatchOutput  string
	Priority, Above200kInput string
	Extra                    string // raw JSON members added to the entry ("" none)
}

// LiteLLM writes the object of models, with LiteLLM's "sample_spec" entry
// first and the context sizes beside the prices.
func LiteLLM(models []Model) []byte {
	var b strings.Builder
	b.WriteString(`{
  "sample_spec": {"max_tokens": "LEGACY parameter", "input_cost_per_token": 0.0, "output_cost_per_token": 0.0, "litellm_provider": "one of https://docs.litellm.ai/docs/providers", "mode": "one of: chat, embedding, completion, image_generation, audio_transcription, audio_speech, image_generation, moderation, rerank, search"}`)
	for _, m := range models {
		fmt.Fprintf(&b, ",\n  %q: {\"max_input_tokens\": 128000, \"max_output_tokens\": 16384", m.Key)
		add := func(k, v string) {
			if v != "" {
				fmt.Fprintf(&b, ", %q: %s", k, v)
			}
		}
		add("input_cost_per_token", m.Input)
		add("output_cost_per_token", m.Output)
		add("cache_read_input_token_cost", m.CacheRead)
		add("cache_creation_input_token_cost", m.CacheWrite)
		add("input_cost_per_token_batches", m.BatchInput)
		add("output_cost_per_token_batches", m.BatchOutput)
		add("input_cost_per_token_priority", m.Priority)
		add("input_cost_per_token_above_200k_tokens", m.Above200kInput)
		if m.Provider != "" {
			fmt.Fprintf(&b, ", \"litellm_provider\": %q", m.Provider)
		}
		mode := m.Mode
		if mode == "" {
			mode = "chat"
		}
		fmt.Fprintf(&b, ", \"mode\": %q, \"supports_function_calling\": true", mode)
		if m.Extra != "" {
			b.WriteString(", " + m.Extra)
		}
		b.WriteString("}")
	}
	b.WriteString("\n}\n")
	return []byte(b.String())
}

// Dated is one dated price set of a genai-prices model: Since "" is the
// set in force from the start.
type Dated struct {
	Since string
	Model
}

// Provider is one provider of genai-prices data with its models; a model
// with several dated sets lists them in History (its own prices unused).
type Provider struct {
	ID, Name string
	Models   []Model
	History  map[string][]Dated // by model key
}

// GenAIPrices writes the array of providers. A price whose literal starts
// with "{" is written as is (a tiered price).
func GenAIPrices(providers []Provider) []byte {
	var b strings.Builder
	b.WriteString("[\n")
	for i, p := range providers {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `  {"id": %q, "name": %q, "api_pattern": "https://api\\.%s\\.com", "pricing_urls": ["https://example.com/%s/pricing"], "models": [`, p.ID, p.Name, p.ID, p.ID)
		for j, m := range p.Models {
			if j > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "\n    {\"id\": %q, \"name\": %q, \"match\": {\"starts_with\": %q}, \"context_window\": 200000, \"prices\": ", m.Key, strings.ToUpper(m.Key[:1])+m.Key[1:], m.Key)
			if h := p.History[m.Key]; len(h) > 0 {
				b.WriteString("[")
				for k, d := range h {
					if k > 0 {
						b.WriteString(", ")
					}
					b.WriteString("{")
					if d.Since != "" {
						fmt.Fprintf(&b, `"constraint": {"start_date": %q, "type": "start_date"}, `, d.Since)
					}
					b.WriteString(`"prices": ` + genaiSet(d.Model) + "}")
				}
				b.WriteString("]")
			} else {
				b.WriteString(genaiSet(m))
			}
			b.WriteString("}")
		}
		b.WriteString("\n  ]}")
	}
	b.WriteString("\n]\n")
	return []byte(b.String())
}

func genaiSet(m Model) string {
	var parts []string
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, fmt.Sprintf("%q: %s", k, v))
		}
	}
	add("input_mtok", m.Input)
	add("output_mtok", m.Output)
	add("cache_read_mtok", m.CacheRead)
	add("cache_write_mtok", m.CacheWrite)
	if m.Extra != "" {
		parts = append(parts, m.Extra)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// Many is n LiteLLM chat models with distinct keys and prices, for
// benchmarks (about 500 bytes each).
func Many(n int) []Model {
	ms := make([]Model, n)
	for i := range ms {
		ms[i] = Model{Key: fmt.Sprintf("provider-%d/model-%d", i%40, i), Provider: fmt.Sprintf("provider-%d", i%40),
			Input: fmt.Sprintf("%de-07", 1+i%50), Output: fmt.Sprintf("%de-06", 1+i%30), CacheRead: fmt.Sprintf("%de-08", 1+i%50),
			BatchInput: fmt.Sprintf("%de-07", 1+i%50), BatchOutput: fmt.Sprintf("%de-06", 1+i%30),
			Extra: `"supports_vision": true, "supports_prompt_caching": true, "supported_endpoints": ["/v1/chat/completions", "/v1/responses"], "source": "https://example.com/pricing"`}
	}
	return ms
}
