package planner

import (
	"fmt"
	"slices"
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

// CompareColumn is one subject's figures; the deltas are against the
// reference subject (SideBySide.Reference, the one the user chose).
type CompareColumn struct {
	Name string `json:"name"`
	// Reference is true for the column the others are measured against.
	Reference   bool     `json:"reference"`
	Model       string   `json:"model"`
	Device      string   `json:"device"`
	Ceiling     *float64 `json:"ceiling"`
	CeilingText string   `json:"ceiling_text"`
	// CeilingLowerBound is true when every counted row passed: the
	// ceiling is "at least" its figure.
	CeilingLowerBound bool     `json:"ceiling_lower_bound"`
	LoadKind          LoadKind `json:"load_kind"`
	MaxInFlight       *int     `json:"max_in_flight"`
	PerBoxRate        *float64 `json:"per_box_rate"`
	TokensPerJ        *float64 `json:"output_tokens_per_joule"`
	CeilingWatts      *float64 `json:"ceiling_watts"`
	// CeilingWattsSource is where the ceiling row's power came from
	// (Row.Measured: "telemetry: FILE" or "typed").
	CeilingWattsSource string `json:"ceiling_watts_source,omitempty"`
	// CostPer1000 is self-hosting's cost per 1,000 successful in-objective
	// requests by scenario name.
	CostPer1000 map[string]*Money `json:"cost_per_1000"`
	// Deltas against the reference column, as fractions (0.2 = 20 % more);
	// nil where either side is unknown. Empty for the reference column.
	// CeilingDelta is nil too when the two ceilings are loads of different
	// kinds (req/s against concurrent streams): a percentage across units
	// means nothing, and CeilingOtherUnit says so.
	CeilingDelta     *float64            `json:"ceiling_delta"`
	CeilingOtherUnit bool                `json:"ceiling_other_unit,omitempty"`
	MaxInFlightDelta *float64            `json:"max_in_flight_delta"`
	PerBoxRateDelta  *float64            `json:"per_box_rate_delta"`
	TokensPerJDelta  *float64            `json:"output_tokens_per_joule_delta"`
	CostPer1000Delta map[string]*float64 `json:"cost_per_1000_delta"`
}

// CompareDifference names something that differs between the subjects and
// bears on reading the numbers: workload, prompt variety, tool, driver,
// runtime, device or model; the demand of a scenario, where the power came
// from (measured or typed), the self-hosted prices and the currency, each
// of which moves a figure of the table. Values are by column, in the
// columns' order; Moves names the figures of the table it moves.
type CompareDifference struct {
	What   string   `json:"what"`
	Values []string `json:"values"`
	Note   string   `json:"note"`
	Moves  []string `json:"moves,omitempty"`
}

// SideBySide is a side-by-side comparison of 2 to 4 reports or candidates.
type SideBySide struct {
	Columns []CompareColumn `json:"columns"`
	// Reference is the index in Columns of the subject the deltas are
	// against.
	Reference   int                 `json:"reference"`
	Scenarios   []string            `json:"scenarios"`
	Differences []CompareDifference `json:"differences"`
	// UpperBound names the subjects whose figures are a best case: every
	// request sent the same prompt.
	UpperBound []string `json:"upper_bound"`
	// DemandDiffers names the scenarios whose demand is not the same in
	// every subject: their cost per 1,000 moves with the demand as well as
	// with the box.
	DemandDiffers map[string]bool `json:"demand_differs"`
	// Objective is the one objective every subject was judged against, in
	// words; "" when they differ (then it is a difference).
	Objective string `json:"objective"`
}

// Compare lays 2 to 4 subjects side by side, the deltas against the
// subject at index ref (the reference the user chose; 0 when out of
// range). The differences in what was tested come first: numbers measured
// under different workloads, prompts, tools or runtimes, for different
// demand, with measured against typed power or under other prices do not
// compare like for like, and the comparison says so above the numbers.
func Compare(subjects []CompareSubject, ref int) (SideBySide, error) {
	if len(subjects) < CompareMin || len(subjects) > CompareMax {
		return SideBySide{}, fmt.Errorf("a comparison needs %d to %d reports or candidates, not %d", CompareMin, CompareMax, len(subjects))
	}
	if ref < 0 || ref >= len(subjects) {
		ref = 0
	}
	out := SideBySide{Columns: []CompareColumn{}, Reference: ref, Scenarios: []string{}, Differences: []CompareDifference{}, UpperBound: []string{}, DemandDiffers: map[string]bool{}}
	seen := map[string]bool{}
	for _, s := range subjects {
		for _, sc := range s.Result.Scenarios {
			if !seen[sc.Scenario.Name] {
				seen[sc.Scenario.Name] = true
				out.Scenarios = append(out.Scenarios, sc.Scenario.Name)
			}
		}
	}
	for _, s := range subjects {
		out.Columns = append(out.Columns, column(s))
	}
	b := out.Columns[ref]
	out.Columns[ref].Reference = true
	for i := range out.Columns {
		if i == ref {
			continue
		}
		c := &out.Columns[i]
		if b.LoadKind != "" && c.LoadKind != "" && normKind(b.LoadKind) != normKind(c.LoadKind) {
			c.CeilingOtherUnit = b.Ceiling != nil && c.Ceiling != nil
		} else {
			c.CeilingDelta = delta(b.Ceiling, c.Ceiling)
		}
		c.MaxInFlightDelta = delta(intF(b.MaxInFlight), intF(c.MaxInFlight))
		c.PerBoxRateDelta = delta(b.PerBoxRate, c.PerBoxRate)
		c.TokensPerJDelta = delta(b.TokensPerJ, c.TokensPerJ)
		c.CostPer1000Delta = map[string]*float64{}
		for _, name := range out.Scenarios {
			c.CostPer1000Delta[name] = delta(moneyF(b.CostPer1000[name]), moneyF(c.CostPer1000[name]))
		}
	}
	out.Differences = differences(subjects)
	if !slices.ContainsFunc(out.Differences, func(d CompareDifference) bool { return d.What == "objective" }) {
		out.Objective = subjects[0].Result.Objective.Sentence()
	}
	for _, name := range out.Scenarios {
		if d, ok := demandDifference(subjects, name); ok {
			out.DemandDiffers[name] = true
			out.Differences = append(out.Differences, d)
		}
	}
	out.Differences = append(out.Differences, costDifferences(subjects)...)
	for _, s := range subjects {
		if upperBound(s) {
			out.UpperBound = append(out.UpperBound, s.Name)
		}
	}
	return out, nil
}

// ReferenceName is the name of the subject the deltas are against.
func (c SideBySide) ReferenceName() string {
	if c.Reference < 0 || c.Reference >= len(c.Columns) {
		return ""
	}
	return c.Columns[c.Reference].Name
}

func column(s CompareSubject) CompareColumn {
	r := s.Result
	c := CompareColumn{Name: s.Name, Model: s.Contract.BaselineModel, Device: s.Contract.Device,
		Ceiling: r.Envelope.Ceiling, CeilingText: r.Envelope.Text, LoadKind: r.Envelope.LoadKind,
		CeilingLowerBound: r.Envelope.State == EnvelopeLowerBound,
		MaxInFlight:       r.Admission.MaxInFlight, PerBoxRate: r.Capacity.PerBoxRate, CostPer1000: map[string]*Money{}}
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
	// The objectives differ by their syntax (two wordings of one bound
	// are one objective); each is shown as its sentence.
	if i := slices.IndexFunc(subjects, func(s CompareSubject) bool { return s.Result.ObjectiveText != subjects[0].Result.ObjectiveText }); i > 0 {
		vals := make([]string, len(subjects))
		for i, s := range subjects {
			vals[i] = s.Result.Objective.Sentence()
		}
		out = append(out, CompareDifference{What: "objective", Values: vals, Note: "rows were judged against different objectives"})
	}
	return out
}

// demandDifference is the difference in one scenario's demand between the
// subjects (the month's requests and the busiest hour's rate, which set the
// boxes and so the cost per 1,000), ok false when every subject has the
// same demand for it.
func demandDifference(subjects []CompareSubject, name string) (CompareDifference, bool) {
	vals := make([]string, len(subjects))
	differ := false
	var first *ScenarioResult
	for i, s := range subjects {
		var sc *ScenarioResult
		for j := range s.Result.Scenarios {
			if s.Result.Scenarios[j].Scenario.Name == name {
				sc = &s.Result.Scenarios[j]
			}
		}
		switch {
		case sc == nil:
			vals[i] = "no such scenario"
		default:
			vals[i] = fmt.Sprintf("%s requests a month, busiest hour %s req/s", DisplayCount(sc.Scenario.MonthlyRequests), DisplayNumber(sc.BusyHourRate, 2))
		}
		if i == 0 {
			first = sc
			continue
		}
		if (sc == nil) != (first == nil) || (sc != nil && (sc.Scenario.MonthlyRequests != first.Scenario.MonthlyRequests || vals[i] != vals[0])) {
			differ = true
		}
	}
	if !differ {
		return CompareDifference{}, false
	}
	return CompareDifference{What: "demand (" + name + ")", Values: vals,
		Note:  "planned for different demand: this scenario's cost per 1,000 moves with the demand (and the boxes it needs), not only with the box",
		Moves: []string{"cost per 1,000 (" + name + ")"}}, true
}

// powerKind says where a subject's power came from, for tokens per joule
// (the ceiling row's) and the power cost (the ceiling row's, else the
// costs' typed figure): "measured (telemetry: smi.csv)", "typed at the
// ceiling row", "typed in the costs" or "not known".
func powerKind(s CompareSubject) string {
	src := ""
	if r := s.Result.Envelope.CeilingRow; r != nil && *r < len(s.Result.Matrix) {
		src = s.Result.Matrix[*r].PowerWattsSource
	}
	switch {
	case strings.HasPrefix(src, "telemetry"):
		return "measured (" + src + ")"
	case src == SourceTyped:
		return "typed at the ceiling row"
	case s.Result.SelfHosted.PowerWattsSource == "typed":
		return "typed in the costs"
	}
	return "not known"
}

// costDifferences are the differences in what prices the self-hosted
// option: where its power came from, the currency, the monthly cost of a
// box and the cost of each request.
func costDifferences(subjects []CompareSubject) []CompareDifference {
	out := []CompareDifference{}
	// check adds a difference when key differs between the subjects,
	// showing each subject's val.
	check := func(what, note string, moves []string, key, val func(CompareSubject) string) {
		vals := make([]string, len(subjects))
		keys := make([]string, len(subjects))
		for i, s := range subjects {
			keys[i], vals[i] = key(s), val(s)
		}
		if !allSame(keys) {
			out = append(out, CompareDifference{What: what, Values: vals, Note: note, Moves: moves})
		}
	}
	same := func(f func(CompareSubject) string) (func(CompareSubject) string, func(CompareSubject) string) {
		return f, f
	}
	powerClass := func(s CompareSubject) string {
		k := powerKind(s)
		if strings.HasPrefix(k, "measured") {
			return "measured"
		}
		return k
	}
	check("power", "measured and typed watts are not alike (a typed figure is an estimate): tokens per joule and the power cost follow the watts",
		[]string{"power at the ceiling", "output tokens per joule", "cost per 1,000"}, powerClass, powerKind)
	k, v := same(func(s CompareSubject) string { return orUnknown(s.Result.Currency) })
	check("currency", "costs in different currencies do not compare until converted", []string{"cost per 1,000"}, k, v)
	k, v = same(func(s CompareSubject) string {
		return DisplayMoney(s.Result.SelfHosted.FixedPerBox.Exact) + " " + s.Result.Currency
	})
	check("self-hosted cost a month per box", "the boxes are priced differently: the cost per 1,000 moves with the price as well as with the capacity", []string{"cost per 1,000"}, k, v)
	k, v = same(func(s CompareSubject) string {
		return DisplayMoney(s.Result.SelfHosted.PerRequest.Exact) + " " + s.Result.Currency
	})
	check("self-hosted cost per request", "each request (its power and the like) is priced differently: the cost per 1,000 moves with it", []string{"cost per 1,000"}, k, v)
	return out
}

func allSame(v []string) bool {
	for _, x := range v {
		if x != v[0] {
			return false
		}
	}
	return true
}

func orUnknown(s string) string {
	if strings.TrimSpace(s) == "" {
		return "not recorded"
	}
	return s
}
