package reports

import (
	"strconv"

	"capplan/planner"
)

// RowWarnings are the warnings of the report's own rows as the report
// judges them (planner.RowResult.Warnings: the file's own and the checks
// against the contract), by the row's file sha256 and index in it
// (WarningsKey). The imports list, the API's answer to an upload and the
// command line's import say a row's warnings from it.
func (r *Report) RowWarnings() map[string][]planner.Warning {
	out := make(map[string][]planner.Warning, len(r.Result.Matrix))
	for _, rr := range r.Result.Matrix {
		out[WarningsKey(rr.Source.SHA256, rr.Row.Index)] = rr.Warnings
	}
	return out
}

// WarningsKey is a row's key in RowWarnings.
func WarningsKey(sha string, index int) string { return sha + "/" + strconv.Itoa(index) }
