package view

import (
	"strings"
	"testing"
)

// An admission limit overridden with its reason (6 in flight on a box
// whose demonstrated ceiling is 8, a queue of 12): the envelope shows the
// limit in force, marked overridden with the reason, the queue size, the
// engine flag to set, and the ceiling the rows demonstrated.
func TestEnvelopeShowsAnOverriddenAdmissionLimit(t *testing.T) {
	v := demoReport(t)
	six, twelve := 6, 12
	v.In.Admission.OverrideMaxInFlight, v.In.Admission.OverrideReason, v.In.Admission.QueueSize = &six, "shared box", &twelve
	v = withInputs(v, v.In)
	env := sectionIn(stepPageOf(t, v, "results"), "envelope")
	for _, want := range []string{`<strong>6</strong>`, `data-testid="overridden"`, "shared box", `data-testid="queue-size">12<`, "--max-num-seqs 6", "Demonstrated ceiling: 8"} {
		if !strings.Contains(env, want) {
			t.Errorf("envelope lacks %q", want)
		}
	}
	// Without the override, none of it.
	env = sectionIn(stepPageOf(t, demoReport(t), "results"), "envelope")
	if strings.Contains(env, `data-testid="overridden"`) || strings.Contains(env, "--max-num-seqs 6") {
		t.Error("the demo's own limit is shown as overridden")
	}
}
