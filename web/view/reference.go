package view

import (
	"strconv"

	"capplan/planner"
)

// ratioLoad names a ratio's row by its load.
func ratioLoad(fr planner.FrontierRatio) string {
	if fr.Load == nil {
		return "row " + strconv.Itoa(fr.MatrixRow+1)
	}
	return fr.LoadText
}

// referenceOrder is the rows the section lists: matched first, at most
// referenceShown.
func referenceOrder(rf *planner.ReferenceResult) []int {
	var out []int
	for _, matched := range []bool{true, false} {
		for i, m := range rf.Rows {
			if m.Matched == matched && len(out) < referenceShown {
				out = append(out, i)
			}
		}
	}
	return out
}

// referenceGroups lists the report's reference rows by file or source, in
// the order they were added.
func referenceGroups(in planner.Inputs) []referenceFileGroup {
	var out []referenceFileGroup
	if in.Reference == nil {
		return out
	}
	at := map[string]int{}
	for _, rr := range in.Reference.Rows {
		g := planner.ReferenceGroup(rr)
		i, ok := at[g]
		if !ok {
			i = len(out)
			at[g] = i
			out = append(out, referenceFileGroup{Name: g})
		}
		out[i].Rows++
	}
	return out
}

// referenceFileGroup is one file or typed source of reference rows.
type referenceFileGroup struct {
	Name string
	Rows int
}
