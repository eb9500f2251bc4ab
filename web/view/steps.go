// Package view holds the templ components of the report's pages (every
// section, the step pages, the print view, the step bar, the forms) and
// the view models they render, built from plain values so that they are
// rendered and tested without a server or a database (docs/ARCHITECTURE.md,
// "Pages in the browser"). It imports planner and the store's types, never
// Echo, the app's handlers or its services.
package view

// StepState is where a step of the report stands.
type StepState string

const (
	StepDone     StepState = "done"     // every check the step stands for holds
	StepNext     StepState = "next"     // the first step not done: the one to do now
	StepToDo     StepState = "todo"     // not done, after the next one
	StepOptional StepState = "optional" // no check depends on it
)

// Step is one step in the step bar.
type Step struct {
	Name    string // "" for the overview
	Title   string
	URL     string
	State   StepState
	Current bool   // the page shown is this step
	Detail  string // what is left, or "done"
}

// StepBar is the bar on every step page: each step with its state, and
// the next step named.
type StepBar struct {
	Steps []Step
}

// Next is the step to do now, if any.
func (b StepBar) Next() (Step, bool) {
	for _, s := range b.Steps {
		if s.State == StepNext {
			return s, true
		}
	}
	return Step{}, false
}

// StateText is a step's state in words.
func (s Step) StateText() string {
	switch s.State {
	case StepDone:
		return "done"
	case StepNext:
		return "next"
	case StepOptional:
		return "optional"
	}
	return "to do"
}

// Answer is the colour of an answer: yes, no, or not yet.
type Answer string

const (
	AnswerYes    Answer = "yes"
	AnswerNo     Answer = "no"
	AnswerNotYet Answer = "open"
)
