package view

import (
	"context"
	"io"

	"github.com/a-h/templ"
)

// stepBarOf is the step bar of v: each step's state from the report's
// path (planner.Path), each path step counted in the step showing its
// section (BarOf).
func stepBarOf(v Report) StepBar {
	p := v.Result.Path
	path := make([]PathStep, len(p.Steps))
	for i, ps := range p.Steps {
		path[i] = PathStep{Step: stepOf(ps.Section), Label: ps.Label, Done: ps.Done, Next: i == p.Next}
	}
	return BarOf(Steps, path, v.Step, v.Print, func(step string) string { return StepURL(v.R.ID, step) })
}

// headOf is the head of every page of report v, as plain values.
func headOf(v Report) Head {
	h := Head{Title: v.R.Title, Owner: v.R.Owner, Updated: When(v.R.UpdatedAt),
		Objective: v.In.Contract.Objective.Sentence(), Bar: stepBarOf(v)}
	if !v.Print {
		h.PrintURL = StepURL(v.R.ID, PrintStep)
	}
	return h
}

// sectionViews are the sections of step as v shows them.
func sectionViews(v Report, step string) []templ.Component {
	var out []templ.Component
	for _, s := range sectionsOf(step) {
		out = append(out, s.View(v))
	}
	return out
}

// StepKey names a step in test ids ("overview" for "").
func StepKey(name string) string {
	if name == "" {
		return "overview"
	}
	return name
}

// chart is the chart that draw returns, drawn once per computed version of
// the report and shared by its views (reports.Report.Derived): draw must
// use only what the version computes to (v.In, v.Result), nothing of the
// user's or the request's.
func (v Report) chart(name string, draw func() templ.Component) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		if v.Derived == nil {
			return draw().Render(ctx, w)
		}
		b, err := v.Derived.Derived("chart "+name, func(w io.Writer) error { return draw().Render(ctx, w) })
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	})
}

// PrintStep names the print view among the steps' addresses.
const PrintStep = "print"
