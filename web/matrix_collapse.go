package web

import (
	"fmt"
	"strings"

	"capplan/planner"
)

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

// notCountedSummary is the fold's line: "3 rows not counted: 2 of another
// model, 1 shorter than the contract's rows", each row by its first
// reason.
func notCountedSummary(rows []planner.RowResult) string {
	n := map[string]int{}
	var order []string
	for _, rr := range rows {
		code := ""
		if len(rr.NotCounted) > 0 {
			code = rr.NotCounted[0].Code
		}
		if n[code] == 0 {
			order = append(order, code)
		}
		n[code]++
	}
	parts := make([]string, len(order))
	for i, c := range order {
		parts[i] = fmt.Sprintf("%d %s", n[c], planner.NotCountedLabel(c))
	}
	return fmt.Sprintf("%s not counted: %s", plural(len(rows), "row", "rows"), strings.Join(parts, ", "))
}
