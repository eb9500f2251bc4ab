package view

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// The step bar renders from plain values, without a server: every step
// with its state, the page shown marked for assistive tech, and the next
// step named with what is left.
func TestStepNavRendersStatesAndNext(t *testing.T) {
	b := StepBar{Steps: []Step{
		{Name: "", Title: "Overview", URL: "/reports/7", State: StepOptional},
		{Name: "contract", Title: "Contract", URL: "/reports/7/contract", State: StepDone, Current: true},
		{Name: "results", Title: "Results", URL: "/reports/7/results", State: StepNext, Detail: "Import the results"},
		{Name: "costs", Title: "Costs and quotes", URL: "/reports/7/costs", State: StepToDo},
	}}
	var buf bytes.Buffer
	if err := StepNav(b, false).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	for _, want := range []string{
		`data-testid="step-overview" data-state="optional"`,
		`data-testid="step-contract" data-state="done"`,
		`<a href="/reports/7/contract" aria-current="page"`,
		`data-testid="step-results" data-state="next"`,
		`data-testid="step-costs" data-state="todo"`,
		`<a href="/reports/7/results" data-testid="step-next-link">Results</a>`,
		`Import the results`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("step bar lacks %s:\n%s", want, html)
		}
	}
	if strings.Count(html, `aria-current="page"`) != 1 {
		t.Error("more or fewer than one step marked as the page shown")
	}
	if strings.Contains(html, "hx-swap-oob") {
		t.Error("a step bar rendered in place is marked out of band")
	}
	buf.Reset()
	if err := StepNav(b, true).Render(context.Background(), &buf); err != nil || !strings.Contains(buf.String(), `hx-swap-oob="true"`) {
		t.Errorf("out of band: %v %s", err, buf.String())
	}
}

// On the next step itself the bar does not point at itself.
func TestStepNavNoNextLinkOnTheNextStep(t *testing.T) {
	b := StepBar{Steps: []Step{{Name: "results", Title: "Results", URL: "/r", State: StepNext, Current: true}}}
	var buf bytes.Buffer
	if err := StepNav(b, false).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "step-next-link") {
		t.Error("the next step's page links to itself as the next step")
	}
	if n, ok := b.Next(); !ok || n.Name != "results" {
		t.Errorf("Next() = %+v, %v", n, ok)
	}
}

// The objective line is the sentence given, or says it is not written.
func TestObjectiveLine(t *testing.T) {
	var buf bytes.Buffer
	if err := ObjectiveLine("99 % of requests succeed").Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "99 % of requests succeed.") {
		t.Errorf("objective line: %s", buf.String())
	}
	buf.Reset()
	if err := ObjectiveLine("").Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "not written yet") {
		t.Errorf("empty objective line: %s", buf.String())
	}
}
