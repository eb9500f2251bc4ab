package view

import (
	"slices"
)

// planKept are the planned loads without the missing ones: the rows that
// were run, as the plan amendment's form fills them in.
func planKept(planned, missing []float64) []float64 {
	var out []float64
	for _, l := range planned {
		if !slices.Contains(missing, l) {
			out = append(out, l)
		}
	}
	return out
}

// planMissingText asks for the missing rows: "Run the missing row (16)
// and import its file".
func planMissingText(missing []float64) string {
	if len(missing) == 1 {
		return "Run the missing row (" + JoinLoads(missing) + ") and import its file"
	}
	return "Run the missing rows (" + JoinLoads(missing) + ") and import their files"
}
