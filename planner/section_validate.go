package planner

import (
	"fmt"
	"math"
)

// Validate checks what a lead typed in about one row: figures not negative,
// headroom a fraction from 0 to 1, and a reason for a stopped row. Field
// names are the Observed JSON names ("headroom", "stop_reason", ...).
func (o Observed) Validate() error {
	var es FieldErrors
	nonNegative(&es, "peak_memory_gib", o.PeakMemoryGiB)
	nonNegative(&es, "power_watts", o.PowerWatts)
	if h := o.Headroom; h != nil && (*h < 0 || *h > 1 || math.IsNaN(*h)) {
		es.add("headroom", fmt.Sprintf("a share of device memory from 0 to 100 %%, got %s", fmtPct(*h)))
	}
	if o.Replicas != nil && *o.Replicas < 1 {
		es.add("replicas", fmt.Sprintf("the replicas that served the row must be 1 or more, got %d", *o.Replicas))
	}
	if o.Stopped && o.StopReason == "" {
		es.add("stop_reason", "a stopped row needs the reason it was stopped")
	}
	return es.err()
}

// OutputTokensPerJoule is the row's output token rate divided by its
// measured average power (Measured: telemetry over typed); nil when either
// is unknown or the power is not positive.
func (r Row) OutputTokensPerJoule() *float64 {
	w := r.Measured().PowerWatts
	if r.OutputTokenRate == nil || w == nil || *w <= 0 {
		return nil
	}
	return F(*r.OutputTokenRate / *w)
}

// Validate checks a recommendation saved from its form: it states a
// decision, since a recommendation without one says nothing. The rest may
// come later; the exit check lists what is still missing.
func (r Recommendation) Validate() error {
	var es FieldErrors
	if r.Decision == "" {
		es.add("recommendation.decision", "say keep, change or stop: a recommendation without a decision is not saved")
	}
	return es.err()
}

// Validate checks the lead's admission choices; field names start
// "admission." as in Inputs.Validate.
func (a AdmissionInput) Validate() error {
	var es FieldErrors
	a.validate(&es)
	return es.err()
}

// Validate checks an overload test record: the outcome is one of the
// Overload* constants and the date, when given, is YYYY-MM-DD.
func (t OverloadTest) Validate() error {
	var es FieldErrors
	switch t.Outcome {
	case "", OverloadRejected429, OverloadBoundedQueue, OverloadOther:
	default:
		es.add("outcome", fmt.Sprintf("want %s, %s or %s, got %q", OverloadRejected429, OverloadBoundedQueue, OverloadOther, t.Outcome))
	}
	checkDate(&es, "date", t.Date, false)
	return es.err()
}

// Validate checks one candidate: a name, fit figures not negative, and a
// regression gate record that names its gate, counts its cases and is dated.
func (c Candidate) Validate() error {
	var es FieldErrors
	if c.Name == "" {
		es.add("name", "required")
	}
	nonNegative(&es, "artifact_size_gib", c.ArtifactSizeGiB)
	nonNegative(&es, "loaded_memory_gib", c.LoadedMemoryGiB)
	nonNegative(&es, "cold_start_s", c.ColdStartS)
	if g := c.Gate; g != nil {
		if g.Gate == "" {
			es.add("gate.gate", "name the regression gate")
		}
		if g.Cases <= 0 {
			es.add("gate.cases", "a gate runs at least one case")
		}
		checkDate(&es, "gate.date", g.Date, true)
	}
	return es.err()
}

// Validate checks one route of the residency plan.
func (r Route) Validate() error {
	var es FieldErrors
	if r.Name == "" {
		es.add("name", "required")
	}
	if r.Residency != "resident" && r.Residency != "switched" {
		es.add("residency", fmt.Sprintf("want resident or switched, got %q", r.Residency))
	}
	nonNegative(&es, "memory_budget_gib", r.MemoryBudgetGiB)
	nonNegative(&es, "cold_start_s", r.ColdStartS)
	if r.AdmittedConcurrency != nil && *r.AdmittedConcurrency < 0 {
		es.add("admitted_concurrency", "must not be negative")
	}
	return es.err()
}

func nonNegative(es *FieldErrors, field string, v *float64) {
	if v != nil && (*v < 0 || math.IsNaN(*v) || math.IsInf(*v, 0)) {
		es.add(field, fmt.Sprintf("must be a number not below 0, got %s", fmtNum(*v)))
	}
}

// Validate checks the provider view's inputs; field names start
// "provider." as in Inputs.Validate.
func (p ProviderInputs) Validate() error {
	var es FieldErrors
	p.validate(&es, "provider")
	return es.err()
}
