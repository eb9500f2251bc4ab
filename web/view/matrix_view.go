package view

import (
	"fmt"
	"strconv"
	"strings"

	"capplan/planner"
)

// The helpers below choose classes and words for figures already in
// planner.Result; they compute no figure of their own.

// checkOf returns the verdict's check of a criterion, nil when the
// objective does not check it.
func checkOf(rr planner.RowResult, criterion string) *planner.Check {
	for i := range rr.Verdict.Checks {
		if rr.Verdict.Checks[i].Criterion == criterion {
			return &rr.Verdict.Checks[i]
		}
	}
	return nil
}

// checkClass is the cell class of a checked figure: pass, fail or
// notjudged (measured value missing); "" when the criterion is not checked.
func checkClass(rr planner.RowResult, criterion string) string {
	c := checkOf(rr, criterion)
	switch {
	case c == nil:
		return ""
	case c.Pass == nil:
		return "notjudged"
	case *c.Pass:
		return "pass"
	}
	return "fail"
}

// checkTitle is the check's sentence for a cell's tooltip.
func checkTitle(rr planner.RowResult, criterion string) string {
	c := checkOf(rr, criterion)
	if c == nil {
		return ""
	}
	t := c.Text
	if c.Note != "" {
		t += " (" + c.Note + ")"
	}
	// The confidence of the verdict, on demand (docs/method.md,
	// "Confidence"): the percentile's bounds, or why there are none, and
	// the success rate's interval.
	if criterion == "success" {
		if iv := rr.SuccessInterval; iv != nil {
			t += "; " + iv.Text
		}
		return t
	}
	for _, b := range rr.Bounds {
		if b.Criterion == criterion {
			return t + "; " + b.Text
		}
	}
	if rr.BoundsNote != "" && c.Unit == "s" {
		t += "; " + rr.BoundsNote
	}
	return t
}

// verdictClass maps a verdict state to its class.
func verdictClass(s planner.VerdictState) string {
	switch s {
	case planner.VerdictPass:
		return "pass"
	case planner.VerdictFail:
		return "fail"
	case planner.VerdictStopped:
		return "stopped"
	}
	return "notjudged"
}

// verdictWord is the verdict's name for people.
func verdictWord(s planner.VerdictState) string {
	if s == planner.VerdictNotJudged {
		return "not judged"
	}
	return string(s)
}

// pctOpt writes an optional fraction as a percentage with decimals, or
// more to keep 3 significant figures (planner.DisplayPercent), "—" when
// absent.
func pctOpt(v *float64, decimals int) string {
	if v == nil {
		return "—"
	}
	return planner.DisplayPercent(*v, decimals)
}

// PNum names a percentile: "p95".
func PNum(p float64) string { return "p" + strconv.FormatFloat(p, 'f', -1, 64) }

// rowLoadText is a row's load as set, with its kind.
func rowLoadText(rr planner.RowResult) string {
	r := rr.Row
	switch {
	case r.Load == nil && !rr.LoadKnown:
		return "unknown"
	case r.Load == nil:
		return string(r.LoadKind)
	case r.LoadKind == planner.LoadRate:
		return num(r.Load, 2) + " req/s"
	}
	return strconv.FormatFloat(*r.Load, 'f', -1, 64)
}

// rowAchievedText is what the row achieved: concurrency and the rate of
// successful requests, with the send rate beside it when the file has one.
func rowAchievedText(r planner.Row) string {
	s := num(r.AchievedConcurrency, 1) + " in flight"
	if r.AchievedRate != nil {
		s += " · " + num(r.AchievedRate, 2) + " req/s"
	}
	if r.SendRate != nil && (r.AchievedRate == nil || num(r.SendRate, 2) != num(r.AchievedRate, 2)) {
		s += " (sent " + num(r.SendRate, 2) + " req/s)"
	}
	return s
}

// oomClass colours the OOM cell when the objective checks it.
func oomClass(rr planner.RowResult) string { return checkClass(rr, "no_oom") }

// joinLines puts each string on a line of its own.
func joinLines(ss []string) string { return strings.Join(ss, "\n") }

// optIntField formats an optional count for a form field: "" when absent.
func optIntField(v *int) string {
	if v == nil {
		return ""
	}
	return strconv.Itoa(*v)
}

// judgedP is the objective's percentile, the one the matrix's judged
// latency columns show (p95 before an objective is written).
func judgedP(v Report) float64 {
	if p := v.Result.Objective.Percentile; p > 0 {
		return p
	}
	return 95
}

// otherPs are the percentiles the matrix shows besides the judged one.
func otherPs(v Report) []float64 {
	var out []float64
	for _, p := range []float64{50, 95, 99} {
		if p != judgedP(v) {
			out = append(out, p)
		}
	}
	return out
}

// bounded reports whether the objective bounds TPOT or ITL, whose columns
// then stand with the judged ones.
func bounded(v Report, criterion string) bool {
	o := v.Result.Objective
	switch criterion {
	case "tpot":
		return o.TPOTMax != nil
	case "itl":
		return o.ITLMax != nil
	}
	return false
}

// codeWords is a warning code in words: "planned-row-missing" reads
// "planned row missing".
func codeWords(code string) string { return strings.ReplaceAll(code, "-", " ") }

// otherWarnings are a row's warnings that its not-counted reasons do not
// already say.
func otherWarnings(rr planner.RowResult) []planner.Warning {
	said := map[string]bool{}
	for _, w := range rr.NotCounted {
		said[w.Code] = true
	}
	var out []planner.Warning
	for _, w := range rr.Warnings {
		if !said[w.Code] {
			out = append(out, w)
		}
	}
	return out
}

// sourceShort is a measured figure's source for a table cell: "typed",
// "log" (a GPU log covers the row) or "log, part" (it covers only a part).
func sourceShort(src string) string {
	switch {
	case src == planner.SourceTyped:
		return "typed"
	case strings.Contains(src, " samples"):
		return "log, part"
	case strings.HasPrefix(src, "telemetry: "):
		return "log"
	}
	return src
}

// sourceClass marks a figure from part of a row's window.
func sourceClass(src string) string {
	if strings.Contains(src, " samples") {
		return "partial"
	}
	return ""
}

// goodputTitle says what a row's in-objective rate counts: its successful
// requests on record that met every latency bound.
func goodputTitle(rr planner.RowResult) string {
	g := rr.Goodput
	return fmt.Sprintf("successful requests within every latency bound: %d of %d on record (%s)", g.Good, g.Requests-g.Failed, g.Bounds)
}

// classes joins the class names given, leaving out empty ones.
func classes(names ...string) string {
	var out []string
	for _, n := range names {
		if n != "" {
			out = append(out, n)
		}
	}
	return strings.Join(out, " ")
}
