package view

import (
	"capplan/planner"
)

// RowsCarryStarts is true when every matrix row's file recorded when its
// measured window began (planner.Row.StartedAt).
func RowsCarryStarts(res planner.Result) bool {
	for _, m := range res.Matrix {
		if m.Row.StartedAt == nil {
			return false
		}
	}
	return len(res.Matrix) > 0
}
