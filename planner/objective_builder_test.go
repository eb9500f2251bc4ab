package planner

import (
	"strings"
	"testing"
)

// Every objective the planner writes comes back from the builder's rows
// as the same text: parse, rows, build.
func TestObjectiveBuilderRoundTrip(t *testing.T) {
	for _, s := range []string{
		"success>=99%,ttft_p95<=2s,e2e_p95<=10s,tpot_p95<=50ms,headroom>=10%,no_oom",
		"success>=99%,ttft_p95<=2s,e2e_p95<=15s",
		"success>=99.5%,ttft_p99<=0.5s,ttfot_p99<=3s,e2e_p99<=20s,speed_p99>=20tok/s,itl_p99<=40ms",
		"success>=95%,e2e_p90<=1.25s,no_oom",
		"success>=100%,ttft_p50<=0.15s,headroom>=12.5%",
	} {
		o, err := ParseObjective(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if o.String() != s {
			t.Fatalf("not the planner's own text: %s writes %s", s, o.String())
		}
		got, err := o.Draft().Build()
		if err != nil {
			t.Fatalf("%s: the rows do not build: %v", s, err)
		}
		if got != s {
			t.Errorf("parse -> builder -> %s, want %s (rows %+v)", got, s, o.Draft())
		}
	}
}

// The rows in words write the text: "95 % of first tokens within 2 s".
func TestObjectiveBuilderWritesTheText(t *testing.T) {
	d := ObjectiveDraft{
		Success: "99",
		Bounds: []ObjectiveBound{
			{Figure: "e2e", Percentile: "95", Bound: "10", Unit: "s"},
			{Figure: "", Percentile: "95", Bound: "", Unit: "s"},      // a spare row
			{Figure: "itl", Percentile: "95", Bound: " ", Unit: "ms"}, // a figure chosen, no limit: spare
			{Figure: "ttft", Percentile: "95 %", Bound: "2000", Unit: "ms"},
			{Figure: "speed", Percentile: "95", Bound: "20", Unit: ""},
		},
		Headroom: "10 %",
		NoOOM:    true,
	}
	got, err := d.Build()
	if err != nil {
		t.Fatal(err)
	}
	if want := "success>=99%,ttft_p95<=2s,e2e_p95<=10s,speed_p95>=20tok/s,headroom>=10%,no_oom"; got != want {
		t.Errorf("built %s, want %s", got, want)
	}
	if got, _ := (ObjectiveDraft{Bounds: []ObjectiveBound{{Percentile: "95", Unit: "s"}}}).Build(); got != "" {
		t.Errorf("a draft of spare rows built %q, want nothing (an objective not yet written)", got)
	}
}

// Bad input is refused by field, in words naming what is wrong.
func TestObjectiveBuilderNamesBadInput(t *testing.T) {
	row := func(fig, p, b, u string) ObjectiveBound {
		return ObjectiveBound{Figure: fig, Percentile: p, Bound: b, Unit: u}
	}
	cases := []struct {
		name  string
		d     ObjectiveDraft
		field string
		want  string
	}{
		{"no success", ObjectiveDraft{Bounds: []ObjectiveBound{row("ttft", "95", "2", "s")}}, "objective.min_success", "share of requests that must succeed"},
		{"success over 100", ObjectiveDraft{Success: "120"}, "objective.min_success", `between 0 and 100, e.g. 99; got "120"`},
		{"bound not a number", ObjectiveDraft{Success: "99", Bounds: []ObjectiveBound{row("ttft", "95", "two", "s")}}, "objective.bounds[0].bound", `positive number, e.g. 2; got "two"`},
		{"bound zero", ObjectiveDraft{Success: "99", Bounds: []ObjectiveBound{row("ttft", "95", "0", "s")}}, "objective.bounds[0].bound", "positive number"},
		{"no figure", ObjectiveDraft{Success: "99", Bounds: []ObjectiveBound{row("", "95", "2", "s")}}, "objective.bounds[0].figure", "choose what the bound 2 limits"},
		{"unknown figure", ObjectiveDraft{Success: "99", Bounds: []ObjectiveBound{row("latency", "95", "2", "s")}}, "objective.bounds[0].figure", `"latency" is not a figure`},
		{"two percentiles", ObjectiveDraft{Success: "99", Bounds: []ObjectiveBound{row("ttft", "95", "2", "s"), row("e2e", "99", "10", "s")}}, "objective.bounds[1].percentile", "differs from row 1's 95 %: one percentile for every bound"},
		{"percentile 100", ObjectiveDraft{Success: "99", Bounds: []ObjectiveBound{row("ttft", "100", "2", "s")}}, "objective.bounds[0].percentile", "between 0 and 100"},
		{"no percentile", ObjectiveDraft{Success: "99", Bounds: []ObjectiveBound{row("ttft", "", "2", "s")}}, "objective.bounds[0].percentile", "required"},
		{"twice", ObjectiveDraft{Success: "99", Bounds: []ObjectiveBound{row("ttft", "95", "2", "s"), row("ttft", "95", "3", "s")}}, "objective.bounds[1].figure", "bounded twice (row 1 and row 2)"},
		{"speed and tpot", ObjectiveDraft{Success: "99", Bounds: []ObjectiveBound{row("tpot", "95", "50", "ms"), row("speed", "95", "20", "tok/s")}}, "objective.bounds[1].figure", "one bound (speed = 1 / ITL), given in row 1"},
		{"speed in seconds", ObjectiveDraft{Success: "99", Bounds: []ObjectiveBound{row("speed", "95", "20", "s")}}, "objective.bounds[0].unit", `answers stream to each user at least is given in tok/s, not "s"`},
		{"latency in tok/s", ObjectiveDraft{Success: "99", Bounds: []ObjectiveBound{row("ttft", "95", "2", "tok/s")}}, "objective.bounds[0].unit", "s or ms"},
		{"headroom", ObjectiveDraft{Success: "99", Headroom: "lots"}, "objective.min_headroom", `got "lots"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.d.Build()
			fes, ok := err.(FieldErrors)
			if !ok {
				t.Fatalf("want field errors, got %v", err)
			}
			for _, fe := range fes {
				if fe.Field == c.field {
					if !strings.Contains(fe.Message, c.want) {
						t.Errorf("%s: %q, want it to say %q", c.field, fe.Message, c.want)
					}
					if l := FieldLabel(c.field); strings.Contains(l, "[") || strings.Contains(l, "_") || strings.Contains(l, "bounds") {
						t.Errorf("%s reads %q, not as the form labels it", c.field, l)
					}
					return
				}
			}
			t.Errorf("no error on %s; got %v", c.field, fes)
		})
	}
}
