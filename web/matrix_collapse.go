package web

import "capplan/planner"

// collapseAbove is how many matrix rows the page shows whole; a longer
// matrix shows the rows at the contract's load levels, with a link to all
// of them (a 500-row sweep would otherwise make a page of megabytes).
const collapseAbove = 25

// shownRows are the matrix rows the page shows: every row, unless the
// matrix is longer than collapseAbove and the reader did not ask for all;
// then the rows at the contract's load levels (or, when none is at one,
// the first collapseAbove). It chooses rows; every figure stays as
// planner.Result has it.
func shownRows(v reportView) []planner.RowResult {
	rows := v.Result.Matrix
	if v.AllRows || len(rows) <= collapseAbove {
		return rows
	}
	c := v.In.Contract
	var out []planner.RowResult
	for _, rr := range rows {
		if rr.Row.Load != nil && rr.Row.LoadKind == c.LoadKind && atContractLevel(*rr.Row.Load, c.Loads) {
			out = append(out, rr)
		}
	}
	if len(out) == 0 {
		return rows[:collapseAbove]
	}
	return out
}

func atContractLevel(load float64, levels []float64) bool {
	for _, l := range levels {
		if d := load - l; d < 1e-9 && d > -1e-9 {
			return true
		}
	}
	return false
}

// splitCounted parts rows into those that count and those that do not,
// each in the matrix's order.
func splitCounted(rows []planner.RowResult) (counted, left []planner.RowResult) {
	for _, rr := range rows {
		if rr.Counted {
			counted = append(counted, rr)
		} else {
			left = append(left, rr)
		}
	}
	return counted, left
}
