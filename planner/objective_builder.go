package planner

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The objective builder: the objective as rows in words ("95 % of first
// tokens within 2 s"), which write exactly the text ParseObjective reads
// (docs/method.md, "Objective"). A form holds an ObjectiveDraft; Build
// turns it into the objective's text, naming each bad field.

// ObjectiveFigure is a figure a bound of the objective can name.
type ObjectiveFigure struct {
	// Key is the term's name in the objective's text: "ttft" of ttft_p95.
	Key string
	// Words read between the percentile and the bound: "95 % of" +
	// "first tokens within" + "2 s".
	Words string
	// Units are the units its bound is typed in, the first the usual.
	Units []string
}

// ObjectiveFigures are the figures in the order the objective's text
// writes them.
var ObjectiveFigures = []ObjectiveFigure{
	{Key: "ttft", Words: "first tokens within", Units: []string{"s", "ms"}},
	{Key: "ttfot", Words: "first visible tokens (after reasoning) within", Units: []string{"s", "ms"}},
	{Key: "e2e", Words: "whole answers within", Units: []string{"s", "ms"}},
	{Key: "tpot", Words: "answers take per output token at most", Units: []string{"ms", "s"}},
	{Key: "speed", Words: "answers stream to each user at least", Units: []string{"tok/s"}},
	{Key: "itl", Words: "gaps between tokens within", Units: []string{"ms", "s"}},
}

// ObjectiveUnits are every unit a bound may be typed in.
var ObjectiveUnits = []string{"s", "ms", "tok/s"}

// objectiveFigure finds a figure by its key.
func objectiveFigure(key string) (ObjectiveFigure, bool) {
	for _, f := range ObjectiveFigures {
		if f.Key == key {
			return f, true
		}
	}
	return ObjectiveFigure{}, false
}

// ObjectiveBound is one row of the builder, as typed: "95 % of first
// tokens within 2 s" is {Figure: "ttft", Percentile: "95", Bound: "2",
// Unit: "s"}.
type ObjectiveBound struct {
	Figure     string
	Percentile string
	Bound      string
	Unit       string
}

// blank reports whether the row gives no limit: a spare row of the form,
// whatever figure, percentile and unit it shows.
func (b ObjectiveBound) blank() bool {
	return strings.TrimSpace(b.Bound) == ""
}

// ObjectiveDraft is the objective as the builder's fields hold it: the
// share of requests that must succeed and the share of device memory to
// keep free, in per cent as typed, the bounds, and no OOM.
type ObjectiveDraft struct {
	Success  string
	Bounds   []ObjectiveBound
	Headroom string
	NoOOM    bool
}

// ObjectiveBoundKey is the form key of a part of the builder's row i:
// "objective.bounds[0].bound".
func ObjectiveBoundKey(i int, part string) string {
	return fmt.Sprintf("objective.bounds[%d].%s", i, part)
}

// Draft is the objective in the builder's rows, in the order String
// writes its terms; Build of it writes String again.
func (o Objective) Draft() ObjectiveDraft {
	if o.Empty() {
		return ObjectiveDraft{}
	}
	d := ObjectiveDraft{Success: strings.TrimSuffix(fmtPercent(o.MinSuccess), "%"), NoOOM: o.NoOOM}
	p := fmtNum(o.Percentile)
	for _, b := range []struct {
		key string
		v   *float64
	}{{"ttft", o.TTFTMax}, {"ttfot", o.TTFOTMax}, {"e2e", o.E2EMax}, {"tpot", o.TPOTMax}, {"itl", o.ITLMax}} {
		if b.v == nil {
			continue
		}
		if b.key == "tpot" && o.TPOTAsSpeed {
			d.Bounds = append(d.Bounds, ObjectiveBound{Figure: "speed", Percentile: p, Bound: fmtSpeed(OutputSpeed(*b.v)), Unit: "tok/s"})
			continue
		}
		t := fmtDuration(*b.v)
		unit := "s"
		if strings.HasSuffix(t, "ms") {
			unit = "ms"
		}
		d.Bounds = append(d.Bounds, ObjectiveBound{Figure: b.key, Percentile: p, Bound: strings.TrimSuffix(t, unit), Unit: unit})
	}
	if o.MinHeadroom != nil {
		d.Headroom = strings.TrimSuffix(fmtPercent(*o.MinHeadroom), "%")
	}
	return d
}

// Empty reports whether nothing of the objective was given: no share,
// no bound, no OOM rule.
func (d ObjectiveDraft) Empty() bool {
	if strings.TrimSpace(d.Success) != "" || strings.TrimSpace(d.Headroom) != "" || d.NoOOM {
		return false
	}
	for _, b := range d.Bounds {
		if !b.blank() {
			return false
		}
	}
	return true
}

// Build writes the objective's text from the builder's rows, as
// ParseObjective reads it and String writes it: "success>=99%,
// ttft_p95<=2s,e2e_p95<=15s". Rows without a limit are
// spare and skipped. An empty draft is "" (a contract not yet written).
// Every bad field is named under its form key (objective.min_success,
// objective.bounds[i].bound, ...).
func (d ObjectiveDraft) Build() (string, error) {
	if d.Empty() {
		return "", nil
	}
	var es FieldErrors
	terms := []string{}
	success := strings.TrimSpace(d.Success)
	if success == "" {
		es.add("objective.min_success", "required once the objective says anything: the share of requests that must succeed, e.g. 99")
	} else if v, ok := percentNumber(success); !ok {
		es.add("objective.min_success", fmt.Sprintf("must be a share in per cent between 0 and 100, e.g. 99; got %q", success))
	} else {
		terms = append(terms, "success>="+v+"%")
	}
	seen := map[string]int{}
	percentile, firstRow := "", 0
	for i, b := range d.Bounds {
		if b.blank() {
			continue
		}
		key := func(part string) string { return ObjectiveBoundKey(i, part) }
		row := fmt.Sprintf("row %d", i+1)
		fig, ok := objectiveFigure(strings.TrimSpace(b.Figure))
		if !ok {
			if strings.TrimSpace(b.Figure) == "" {
				es.add(key("figure"), "choose what the bound "+strings.TrimSpace(b.Bound)+" limits (first tokens, whole answers, ...)")
			} else {
				es.add(key("figure"), fmt.Sprintf("%q is not a figure an objective bounds", b.Figure))
			}
			continue
		}
		if j, twice := seen[fig.Key]; twice {
			es.add(key("figure"), fmt.Sprintf("%s is bounded twice (row %d and %s): one bound each", fig.Words, j+1, row))
			continue
		}
		if other, pair := map[string]string{"tpot": "speed", "speed": "tpot"}[fig.Key]; pair {
			if j, given := seen[other]; given {
				es.add(key("figure"), fmt.Sprintf("the output speed per user and the time per output token are one bound (speed = 1 / ITL), given in row %d already: give one of the two", j+1))
				continue
			}
		}
		seen[fig.Key] = i
		p := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(b.Percentile), "%"))
		pv, err := strconv.ParseFloat(p, 64)
		switch {
		case p == "":
			es.add(key("percentile"), "required: the share of requests the bound holds for, e.g. 95")
			continue
		case err != nil || !(pv > 0 && pv < 100):
			es.add(key("percentile"), fmt.Sprintf("must be a number between 0 and 100 (exclusive), e.g. 95; got %q", b.Percentile))
			continue
		}
		p = strconv.FormatFloat(pv, 'f', -1, 64)
		if percentile == "" {
			percentile, firstRow = p, i
		} else if p != percentile {
			es.add(key("percentile"), fmt.Sprintf("%s %% differs from row %d's %s %%: one percentile for every bound", p, firstRow+1, percentile))
			continue
		}
		bound := strings.TrimSpace(b.Bound)
		bv, err := strconv.ParseFloat(strings.ReplaceAll(bound, ",", "."), 64)
		if err != nil || !(bv > 0) || math.IsInf(bv, 0) {
			es.add(key("bound"), fmt.Sprintf("must be a positive number, e.g. 2; got %q", bound))
			continue
		}
		unit := strings.TrimSpace(b.Unit)
		if unit == "" {
			unit = fig.Units[0]
		}
		if !containsString(fig.Units, unit) {
			es.add(key("unit"), fmt.Sprintf("%s is given in %s, not %q", fig.Words, orList(fig.Units), unit))
			continue
		}
		num := strconv.FormatFloat(bv, 'f', -1, 64)
		if fig.Key == "speed" {
			terms = append(terms, "speed_p"+p+">="+num+"tok/s")
		} else {
			terms = append(terms, fig.Key+"_p"+p+"<="+num+unit)
		}
	}
	if h := strings.TrimSpace(d.Headroom); h != "" {
		if v, ok := percentNumber(h); !ok {
			es.add("objective.min_headroom", fmt.Sprintf("must be a share in per cent between 0 and 100, e.g. 10; got %q", h))
		} else {
			terms = append(terms, "headroom>="+v+"%")
		}
	}
	if d.NoOOM {
		terms = append(terms, "no_oom")
	}
	if len(es) > 0 {
		return "", es
	}
	o, err := ParseObjective(strings.Join(terms, ","))
	if err != nil {
		// The rows were each checked above; what is left is a rule of the
		// whole (a bound out of range after conversion).
		if fes, ok := err.(FieldErrors); ok {
			return "", fes
		}
		return "", FieldErrors{{Field: "objective", Message: err.Error()}}
	}
	return o.String(), nil
}

// percentNumber reads a share typed in per cent ("99", "99.5 %") as the
// number the objective's text writes; false outside 0..100.
func percentNumber(s string) (string, bool) {
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "%"))
	v, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", "."), 64)
	if err != nil || v < 0 || v > 100 {
		return "", false
	}
	return strconv.FormatFloat(v, 'f', -1, 64), true
}
