package planner

import (
	"fmt"
	"strings"
)

// CompareSubject is one report or candidate in a side-by-side comparison:
// its name, the contract it was tested under and its computed result.
type CompareSubject struct {
	Name     string
	Contract Contract
	Result   Result
}

// CompareMin and CompareMax bound a comparison's subjects.
const (
	CompareMin = 2
	CompareMax = 4
)

// CompareColumn is one subject's figures; the deltas are against the first
// subject (the baseline of the comparison).
type CompareColumn struct {
	Name         string   `json:"name"`
	Model        string   `json:"model"`
	Device       string   `json:"device"`
	Ceiling      *float64 `json:"ceiling"`
	CeilingText  string   `json:"ceiling_text"`
	LoadKind     LoadKind `json:"load_kind"`
	MaxInFlight  *int     `json:"max_in_flight"`
	PerBoxRate   *float64 `json:"per_box_rate"`
	TokensPerJ   *float64 `json:"output_tokens_per_joule"`
	CeilingWatts *float64 `json:"ceiling_watts"`
	// CeilingWattsSource is where the ceiling row's power came from
	// (Row.Measured: "telemetry: FILE" or "typed").
	CeilingWattsSource string `json:"ceiling_watts_source,omitempty"`
	// CostPer1000 is self-hosting's cost per 1,000 successful in-objective
	// requests by scenario name.
	CostPer1000 map[string]*Money `json:"cost_per_1000"`
	// Deltas against the first column, as fractions (0.2 = 20 % more); nil
	// where either side is unknown. Empty for the first column.
	CeilingDelta     *float64            `json:"ceiling_delta"`
	MaxInFlightDelta *float64            `json:"max_in_flight_delta"`
	PerBoxRateDelta  *float64            `json:"per_box_rate_delta"`
	TokensPerJDelta  *float64            `json:"output_tokens_per_joule_delta"`
	CostPer1000Delta map[string]*float64 `json:"cost_per_1000_delta"`
}

// CompareDifference names something that differs between the subjects and
// bears on reading the numbers: workload, prompt variety, tool, driver,
// runtime, device or model.
type CompareDifference struct {
	What   string   `json:"what"`
	Values []string `json:"values"`
	Note   string   `json:"note"`
}

// SideBySide is a side-by-side comparison of 2 to 4 reports or candidates.
type SideBySide struct {
	Columns     []CompareColumn     `json:"columns"`
	Scenarios   []string            `json:"scenarios"`
	Differences []CompareDifference `json:"differences"`
	// UpperBound names the subjects whose figures are a best case: every
	// request sent the same prompt.
	UpperBound []string `json:"upper_bound"`
}

// Compare lays 2 to 4 subjects side by side. The differences in what was
// tested come first: numbers measured under different workloads, prompts,
// tools or runtimes do not compare like for like, and the comparison says so
// above the numbers.
func Compare(subjects []CompareSubject) (SideBySide, error) {
	if len(subjects) < CompareMin || len(subjects) > CompareMax {
		return SideBySide{}, fmt.Errorf("a comparison needs %d to %d reports or candidates, not %d", CompareMin, CompareMax, len(subjects))
	}
	out := SideBySide{Columns: []CompareColumn{}, Scenarios: []string{}, Differences: []CompareDifference{}, UpperBound: []string{}}
	seen := map[string]bool{}
	for _, s := range subjects {
		for _, sc := range s.Result.Scenarios {
			if !seen[sc.Scenario.Name] {
				seen[sc.Scenario.Name] = true
				out.Scenarios = append(out.Scenarios, sc.Scenario.Name)
			}
		}
	}
	for i, s := range subjects {
		c := column(s)
		if i > 0 {
			b := out.Columns[0]
			c.CeilingDelta = delta(b.Ceiling, c.Ceiling)
			c.MaxInFlightDelta = delta(intF(b.MaxInFlight), intF(c.MaxInFlight))
			c.PerBoxRateDelta = delta(b.PerBoxRate, c.PerBoxRate)
			c.TokensPerJDelta = delta(b.TokensPerJ, c.TokensPerJ)
			c.CostPer1000Delta = map[string]*float64{}
			for _, name := range out.Scenarios {
				c.CostPer1000Delta[name] = delta(moneyF(b.CostPer1000[name]), moneyF(c.CostPer1000[name]))
			}
		}
		out.Columns = append(out.Columns, c)
	}
	out.Differences = differences(subjects)
	for _, s := range subjects {
		if upperBound(s) {
			out.UpperBound = append(out.UpperBound, s.Name)
		}
	}
	return out, nil
}

func column(s CompareSubject) CompareColumn {
	r := s.Result
	c := CompareColumn{Name: s.Name, Model: s.Contract.BaselineModel, Device: s.Contract.Device,
		Ceiling: r.Envelope.Ceiling, CeilingText: r.Envelope.Text, LoadKind: r.Envelope.LoadKind,
		MaxInFlight: r.Admission.MaxInFlight, PerBoxRate: r.Capacity.PerBoxRate, CostPer1000: map[string]*Money{}}
	if r.Envelope.CeilingRow != nil && *r.Envelope.CeilingRow < len(r.Matrix) {
		rr := r.Matrix[*r.Envelope.CeilingRow]
		c.CeilingWatts, c.CeilingWattsSource = rr.PowerWattsMean, rr.PowerWattsSource
		c.TokensPerJ = rr.Row.OutputTokensPerJoule()
	}
	for _, sc := range r.Scenarios {
		for _, o := range sc.Options {
			if o.Kind == "self-hosted" {
				c.CostPer1000[sc.Scenario.Name] = o.CostPer1000
			}
		}
	}
	return c
}

// delta is b / a - 1, nil when either is unknown or a is zero.
func delta(a, b *float64) *float64 {
	if a == nil || b == nil || *a == 0 {
		return nil
	}
	return F(*b / *a - 1)
}

func intF(v *int) *float64 {
	if v == nil {
		return nil
	}
	return F(float64(*v))
}

func moneyF(m *Money) *float64 {
	if m == nil {
		return nil
	}
	f, _ := m.Exact.Float64()
	return &f
}

// upperBound is true when the subject sent one prompt over and over: with
// prefix caching every request after the first hits the cache, so its
// figures are a best case, not typical.
func upperBound(s CompareSubject) bool {
	if strings.EqualFold(strings.TrimSpace(s.Contract.Workload.Prompts), "identical") {
		return true
	}
	for _, m := range s.Result.Matrix {
		if m.Row.IdenticalPrompts != nil && *m.Row.IdenticalPrompts {
			return true
		}
	}
	return false
}

// differences lists every attribute on which the subjects differ.
func differences(subjects []CompareSubject) []CompareDifference {
	out := []CompareDifference{}
	check := func(what, note string, val func(CompareSubject) string) {
		vals := make([]string, len(subjects))
		differ := false
		for i, s := range subjects {
			vals[i] = val(s)
			if vals[i] != vals[0] {
				differ = true
			}
		}
		if differ {
			out = append(out, CompareDifference{What: what, Values: vals, Note: note})
		}
	}
	check("workload", "different request shapes: throughput and latency do not compare like for like", func(s CompareSubject) string {
		w := s.Contract.Workload
		return fmt.Sprintf("%d prompt / %d output tokens, %s", w.PromptTokens, w.OutputTokens, orUnknown(w.Data))
	})
	check("prompt variety", "identical prompts with prefix caching are an upper bound, not a typical figure", func(s CompareSubject) string {
		if upperBound(s) {
			return "identical"
		}
		return orUnknown(s.Contract.Workload.Prompts)
	})
	check("benchmark tool", "tools define and measure latency differently", func(s CompareSubject) string {
		return strings.TrimSpace(orUnknown(s.Contract.BenchmarkTool) + " " + s.Contract.ToolVersion)
	})
	check("driver", "", func(s CompareSubject) string { return orUnknown(s.Contract.Driver) })
	check("vLLM version", "", func(s CompareSubject) string { return orUnknown(s.Contract.VLLMVersion) })
	check("device", "", func(s CompareSubject) string { return orUnknown(s.Contract.Device) })
	check("model", "", func(s CompareSubject) string { return orUnknown(s.Contract.BaselineModel) })
	check("objective", "rows were judged against different objectives", func(s CompareSubject) string { return s.Result.ObjectiveText })
	return out
}

func orUnknown(s string) string {
	if strings.TrimSpace(s) == "" {
		return "not recorded"
	}
	return s
}
