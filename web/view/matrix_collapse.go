package view

import (
	"net/url"

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
func shownRows(v Report) []planner.RowResult {
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

// matrixURL is the matrix on the page v shows it on (its step, or the
// print view), with every row and every column when asked.
func matrixURL(v Report, allRows, allCols bool) string {
	step := "results"
	if v.Print {
		step = PrintStep
	}
	q := url.Values{}
	if allRows {
		q.Set("rows", "all")
	}
	if allCols {
		q.Set("cols", "all")
	}
	u := StepURL(v.R.ID, step)
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	return u + "#matrix"
}

// MatrixColumns names the report matrix's columns in order (the compact
// matrix of a candidate leaves out those after the peak memory but the
// sources). rowsTableAt writes them; each has its class from matrixCol.
func MatrixColumns(v Report) []string {
	cols := []string{"load", "verdict", "success", "incomplete", "ttft", "e2e"}
	if bounded(v, "tpot") {
		cols = append(cols, "tpot")
	}
	if bounded(v, "itl") {
		cols = append(cols, "itl")
	}
	cols = append(cols, "headroom", "oom", "rate", "errors", "memory",
		"achieved", "output-rate", "attempts", "successes", "duration")
	for _, p := range otherPs(v) {
		cols = append(cols, "ttft-"+PNum(p))
	}
	for _, p := range otherPs(v) {
		cols = append(cols, "e2e-"+PNum(p))
	}
	if !bounded(v, "tpot") {
		cols = append(cols, "tpot-unbounded")
	}
	if !bounded(v, "itl") {
		cols = append(cols, "itl-unbounded")
	}
	return append(cols, "power", "tokens-per-joule", "sources")
}

// objectiveColumn reports whether the matrix shows column col by default:
// the load and verdict, the figures the objective names (TTFT and
// end-to-end before an objective is written), the success rate and the
// throughput. The rest are shown on demand (?cols=all).
func objectiveColumn(v Report, col string) bool {
	o := v.Result.Objective
	switch col {
	case "load", "verdict", "success", "rate", "tpot", "itl":
		return true // tpot and itl stand here only when bounded
	case "ttft":
		return o.Empty() || o.TTFTMax != nil
	case "e2e":
		return o.Empty() || o.E2EMax != nil
	case "headroom":
		return o.MinHeadroom != nil
	case "oom":
		return o.NoOOM
	}
	return false
}

// matrixCol is the class of column col's cells in the report's matrix:
// "more" for a column shown on demand only (see objectiveColumn), "" for
// one always shown and in a candidate's compact matrix.
func matrixCol(v Report, compact bool, col string) string {
	if compact || objectiveColumn(v, col) {
		return ""
	}
	return "more"
}

// ObjectiveColumnCount is how many of the matrix's columns show by
// default.
func ObjectiveColumnCount(v Report) int {
	n := 0
	for _, c := range MatrixColumns(v) {
		if objectiveColumn(v, c) {
			n++
		}
	}
	return n
}
