package view

import (
	"strings"

	"capplan/planner"
)

// looseningUnaccepted reports whether the objective was loosened after
// results and no reviewer has accepted the objective in force.
func looseningUnaccepted(res planner.Result) bool {
	for _, it := range res.ExitCheck {
		if it.ID == "objective_loosened" {
			return !it.Pass
		}
	}
	return false
}

// amendedChange is the change of one term ("workload", "objective") made
// after results, as the planner words it, or "".
func amendedChange(amended []string, field string) string {
	for _, a := range amended {
		if strings.HasPrefix(a, field+":") {
			return a
		}
	}
	return ""
}

// amendmentUnaccepted reports whether the workload or objective was
// amended after results and no reviewer has accepted the terms in force.
func amendmentUnaccepted(res planner.Result) bool {
	for _, it := range res.ExitCheck {
		if it.ID == "amended_after_results" {
			return !it.Pass
		}
	}
	return false
}
