package importers

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"capplan/planner"
)

// benchDir is where the real benchmark files live, read in place.
const benchDir = "../../shared/benchmarks"

func real(parts ...string) string { return filepath.Join(append([]string{benchDir}, parts...)...) }

// nf marks a figure the file does not hold (want nil).
var nf = math.NaN()

// rowWant is what a test expects of one row; NaN floats and -1 ints mean
// "must be nil"; fields left at their zero value in skip are not checked.
type rowWant struct {
	kind               planner.LoadKind
	load               float64
	att, ok, errd, inc int
	dur, rate, outRate float64
	ttftP95, ttftP99   float64
	e2eP95, e2eP99     float64
	warn               []string // codes that must be present
	noWarn             []string // codes that must be absent
	ttftComputed       bool
}

func checkF(t *testing.T, name string, got *float64, want float64) {
	t.Helper()
	if math.IsNaN(want) {
		if got != nil {
			t.Errorf("%s = %v, want nil", name, *got)
		}
		return
	}
	if got == nil {
		t.Errorf("%s = nil, want %v", name, want)
		return
	}
	if d := math.Abs(*got - want); d > 1e-9*math.Max(1, math.Abs(want)) {
		t.Errorf("%s = %v, want %v", name, *got, want)
	}
}

func checkI(t *testing.T, name string, got *int, want int) {
	t.Helper()
	if want < 0 {
		if got != nil {
			t.Errorf("%s = %d, want nil", name, *got)
		}
		return
	}
	if got == nil || *got != want {
		t.Errorf("%s = %v, want %d", name, deref(got), want)
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

func checkRow(t *testing.T, r planner.Row, w rowWant) {
	t.Helper()
	if r.LoadKind != w.kind {
		t.Errorf("load kind = %q, want %q", r.LoadKind, w.kind)
	}
	checkF(t, "load", r.Load, w.load)
	checkI(t, "attempted", r.Attempted, w.att)
	checkI(t, "successful", r.Successful, w.ok)
	checkI(t, "errored", r.Errored, w.errd)
	checkI(t, "incomplete", r.Incomplete, w.inc)
	checkF(t, "duration_s", r.DurationS, w.dur)
	checkF(t, "request_rate", r.RequestRate, w.rate)
	checkF(t, "output_token_rate", r.OutputTokenRate, w.outRate)
	checkF(t, "ttft p95", r.TTFT.P95, w.ttftP95)
	checkF(t, "ttft p99", r.TTFT.P99, w.ttftP99)
	checkF(t, "e2e p95", r.E2E.P95, w.e2eP95)
	checkF(t, "e2e p99", r.E2E.P99, w.e2eP99)
	if r.TTFT.Computed != w.ttftComputed {
		t.Errorf("ttft computed = %v, want %v", r.TTFT.Computed, w.ttftComputed)
	}
	codes := map[string]bool{}
	for _, x := range r.Warnings {
		codes[x.Code] = true
	}
	for _, c := range w.warn {
		if !codes[c] {
			t.Errorf("missing warning %q (have %v)", c, r.Warnings)
		}
	}
	for _, c := range w.noWarn {
		if codes[c] {
			t.Errorf("unexpected warning %q", c)
		}
	}
	// every figure that is set has a provenance
	for name, set := range map[string]bool{"load": r.Load != nil, "successful": r.Successful != nil, "duration_s": r.DurationS != nil,
		"request_rate": r.RequestRate != nil, "ttft_s.p95": r.TTFT.P95 != nil, "e2e_s.p99": r.E2E.P99 != nil} {
		if set && strings.TrimSpace(r.Paths[name]) == "" {
			t.Errorf("figure %s has no path", name)
		}
	}
}
