package web

import (
	"capplan/planner"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// num formats an optional figure with the given decimals, "—" when absent.
func num(v *float64, decimals int) string {
	if v == nil {
		return "—"
	}
	return strconv.FormatFloat(*v, 'f', decimals, 64)
}

// optNum formats an optional figure for a form field: "" when absent.
func optNum(v *float64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatFloat(*v, 'f', -1, 64)
}

// plainNum formats a float without trailing zeros, "" for zero.
func plainNum(v float64) string {
	if v == 0 {
		return ""
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func plainInt(v int) string {
	if v == 0 {
		return ""
	}
	return strconv.Itoa(v)
}

// optInt formats an optional count, "—" when absent.
func optInt(v *int) string {
	if v == nil {
		return "—"
	}
	return strconv.Itoa(*v)
}

func joinLoads(ls []float64) string {
	parts := make([]string, len(ls))
	for i, l := range ls {
		parts[i] = strconv.FormatFloat(l, 'f', -1, 64)
	}
	return strings.Join(parts, ", ")
}

// when formats a timestamp for people: UTC, to the minute.
func when(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

// pct shows a share as a percentage by the planner's rule: 0.14 %, 62 %.
func pct(v float64) string { return planner.DisplayShare(v) }

func itoa64(v int64) string { return strconv.FormatInt(v, 10) }

func sprintf(format string, a ...any) string { return fmt.Sprintf(format, a...) }

func parseDate(s string) (time.Time, error) { return time.Parse("2006-01-02", s) }

func itoa(v int) string { return strconv.Itoa(v) }

func dash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "—"
	}
	return s
}

func joinStrings(ss []string) string { return strings.Join(ss, ", ") }

func pctField(v float64) string {
	if v == 0 {
		return ""
	}
	return strconv.FormatFloat(v*100, 'f', -1, 64)
}

func optPctField(v *float64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatFloat(*v*100, 'f', -1, 64)
}

func workloadText(w planner.Workload) string {
	if w == (planner.Workload{}) {
		return "—"
	}
	s := fmt.Sprintf("%d prompt tokens → %d output tokens", w.PromptTokens, w.OutputTokens)
	if w.Data != "" {
		s += ", " + w.Data
	}
	if w.Dataset != "" {
		s += " (" + w.Dataset + ")"
	}
	if w.Prompts != "" {
		s += ", " + w.Prompts + " prompts"
	}
	return s + ", mean tokens within ±" + pctField(w.ToleranceOrDefault()) + " %"
}

// toleranceField is the workload tolerance for its form field: empty for
// the default.
func toleranceField(t float64) string {
	if t == 0 {
		return ""
	}
	return pctField(t)
}

func durationText(s float64) string {
	if s == 0 {
		return "duration —"
	}
	return strconv.FormatFloat(s, 'f', -1, 64) + " s"
}

func stopText(c planner.Contract) string {
	var parts []string
	if c.StopAfterErrors > 0 {
		parts = append(parts, fmt.Sprintf("stop after %d errors", c.StopAfterErrors))
	}
	if c.StopRule != "" {
		parts = append(parts, c.StopRule)
	}
	if len(parts) == 0 {
		return "no stop rule"
	}
	return strings.Join(parts, "; ")
}

// fieldLabel names a form field as people read it ("Success rate at
// least"), not by its key ("objective.min_success").
func fieldLabel(key string) string { return planner.FieldLabel(key) }
