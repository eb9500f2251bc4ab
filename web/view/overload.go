package view

import (
	"capplan/planner"
)

// overloadOutcomes are the choices of what came back above the limit.
var overloadOutcomes = []struct{ Value, Label string }{
	{planner.OverloadRejected429, "refused with HTTP 429"},
	{planner.OverloadBoundedQueue, "queued within the maximum queue age"},
	{planner.OverloadOther, "something else (timeouts, 5xx, OOM, ...)"},
}

// overloadTest is the recorded test, or an empty one for the form.
func overloadTest(in planner.Inputs) planner.OverloadTest {
	if in.Overload == nil {
		return planner.OverloadTest{}
	}
	return *in.Overload
}

// outcomeLabel names an overload outcome for people.
func outcomeLabel(v string) string {
	for _, o := range overloadOutcomes {
		if o.Value == v {
			return o.Label
		}
	}
	return dash(v)
}
