// Package guidellmgen writes realistic GuideLLM 0.5-0.6 style reports
// (family D, metadata.version 1) of any size from a simple serving model,
// for tests, benchmarks and the demo report.
//
// The serving model: below a saturation load the time to first token and
// the per-token decode time grow slowly with the load; above it requests
// queue, so TTFT and end-to-end latency jump and a few requests fail. With
// the default Config, loads 1, 2, 4 and 8 pass and 10 fails an objective of
// success >= 99 %, p95 TTFT <= 2 s and p95 end-to-end <= 15 s.
package guidellmgen

// Kind is how the load levels are set.
type Kind string

// The load kinds the generator writes.
const (
	Concurrency Kind = "concurrency" // GuideLLM "concurrent" strategy, load = streams
	Rate        Kind = "rate"        // GuideLLM "constant" strategy, load = req/s
)

// Config describes the report to write; zero fields take the defaults.
type Config struct {
	Model          string    // default "meta-llama/Llama-3.1-8B-Instruct"
	Kind           Kind      // default Concurrency
	Loads          []float64 // default 1, 2, 4, 8, 10
	RequestsPerRow int       // default 200
	// TargetBytes, when > 0, overrides RequestsPerRow so that the file is
	// about this size.
	TargetBytes  int64
	PromptTokens int   // default 512
	OutputTokens int   // default 256
	Seed         int64 // default 1; the output is a function of Config alone
	// Saturation is the load above which requests queue; default 9.
	Saturation float64
	// IdenticalPrompts makes every request send the same prompt.
	IdenticalPrompts bool
	// Version is written as metadata.guidellm_version; default "0.5.3".
	Version string
}

// withDefaults returns c with zero fields set to their defaults.
func (c Config) withDefaults() Config {
	if c.Model == "" {
		c.Model = "meta-llama/Llama-3.1-8B-Instruct"
	}
	if c.Kind == "" {
		c.Kind = Concurrency
	}
	if len(c.Loads) == 0 {
		c.Loads = []float64{1, 2, 4, 8, 10}
	}
	if c.RequestsPerRow <= 0 {
		c.RequestsPerRow = 200
	}
	if c.PromptTokens <= 0 {
		c.PromptTokens = 512
	}
	if c.OutputTokens <= 1 {
		c.OutputTokens = 256
	}
	if c.Seed == 0 {
		c.Seed = 1
	}
	if c.Saturation <= 0 {
		c.Saturation = 9
	}
	if c.Version == "" {
		c.Version = "0.5.3"
	}
	return c
}
