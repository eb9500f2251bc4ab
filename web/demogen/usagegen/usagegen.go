// Package usagegen writes a synthetic per-request usage log of a GPU box
// shared by several tenants, for tests, benchmarks and the demo report.
//
// The default mix has two tenants whose token counts and serving times
// disagree: "search" is retrieval-augmented generation (long prompts,
// short answers, done in a fraction of a second) and "agents" runs
// multi-turn sessions (each turn re-sends the growing conversation and
// writes a long answer, taking seconds). A token meter charges search far
// more of the box than the time it occupies.
package usagegen

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sort"
)

// Tenant describes one tenant's traffic.
type Tenant struct {
	Name string
	// Rate is the tenant's arrivals per second (Poisson); for a multi-turn
	// tenant, sessions per second.
	Rate float64
	// Prompt and output tokens per request (uniform in [Min, Max]).
	PromptMin, PromptMax int
	OutputMin, OutputMax int
	// Turns is the turns per session (1 for single requests); each turn
	// adds the previous prompt and output to the next prompt and waits
	// ThinkS seconds after the previous answer.
	Turns  int
	ThinkS float64
}

// Config is one log to write.
type Config struct {
	Tenants []Tenant
	// Start is the Unix time of the first arrival window; DurationS its length.
	Start     float64
	DurationS float64
	Seed      uint64
	// CSV writes a CSV log instead of JSON Lines.
	CSV bool
	// PrefillTokensPerS and DecodeS model serving time: a request takes
	// prompt / PrefillTokensPerS + output x DecodeS seconds.
	PrefillTokensPerS float64
	DecodeS           float64
}

// Default is the RAG-and-agents mix over ten minutes.
func Default() Config {
	return Config{
		Tenants: []Tenant{
			{Name: "search", Rate: 3, PromptMin: 3000, PromptMax: 4500, OutputMin: 30, OutputMax: 120, Turns: 1},
			{Name: "agents", Rate: 0.25, PromptMin: 900, PromptMax: 1600, OutputMin: 300, OutputMax: 900, Turns: 4, ThinkS: 2},
		},
		Start:             1795874400, // 2026-11-28 14:00:00 UTC
		DurationS:         600,
		Seed:              1,
		PrefillTokensPerS: 20000,
		DecodeS:           0.004,
	}
}

type request struct {
	tenant         string
	start, end     float64
	prompt, output int
}

// Write generates the log into w, ordered by start time. Memory holds the
// requests of one log; keep DurationS x rates moderate (a few million).
func Write(w io.Writer, cfg Config) error {
	if cfg.PrefillTokensPerS <= 0 || cfg.DecodeS <= 0 || cfg.DurationS <= 0 {
		return fmt.Errorf("usagegen: prefill rate, decode time and duration must be positive")
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15))
	var reqs []request
	for _, t := range cfg.Tenants {
		if t.Rate <= 0 {
			continue
		}
		turns := max(1, t.Turns)
		for at := cfg.Start + rng.ExpFloat64()/t.Rate; at < cfg.Start+cfg.DurationS; at += rng.ExpFloat64() / t.Rate {
			start, history := at, 0
			for turn := 0; turn < turns; turn++ {
				p := history + uniform(rng, t.PromptMin, t.PromptMax)
				o := uniform(rng, t.OutputMin, t.OutputMax)
				d := float64(p)/cfg.PrefillTokensPerS + float64(o)*cfg.DecodeS
				end := start + d
				reqs = append(reqs, request{t.Name, round3(start), round3(end), p, o})
				history = p + o
				start = end + t.ThinkS
			}
		}
	}
	sort.SliceStable(reqs, func(a, b int) bool { return reqs[a].start < reqs[b].start })
	bw := bufio.NewWriter(w)
	if cfg.CSV {
		fmt.Fprintln(bw, "tenant,start,end,prompt_tokens,output_tokens")
	}
	for _, r := range reqs {
		if cfg.CSV {
			fmt.Fprintf(bw, "%s,%.3f,%.3f,%d,%d\n", r.tenant, r.start, r.end, r.prompt, r.output)
			continue
		}
		b, _ := json.Marshal(map[string]any{"tenant": r.tenant, "start": r.start, "end": r.end, "prompt_tokens": r.prompt, "output_tokens": r.output})
		bw.Write(b)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

func uniform(rng *rand.Rand, lo, hi int) int {
	if hi <= lo {
		return lo
	}
	return lo + rng.IntN(hi-lo+1)
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }
