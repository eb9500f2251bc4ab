package view

import (
	"capplan/planner"
)

// rowIDIn is the stored id of a judged row of the report's matrix (cid 0)
// or of candidate cid's (found among the imports attached to it by the
// file's sha256 and the row's position in it), 0 when it has none.
func (v Report) rowIDIn(rr planner.RowResult, cid int64) int64 {
	for _, im := range v.Imports.Imports {
		if im.SHA256 != rr.Source.SHA256 || im.CandidateID != cid {
			continue
		}
		for _, ir := range im.Table {
			if ir.Row.Index == rr.Row.Index {
				return ir.ID
			}
		}
	}
	return 0
}

// backAnchor is the section the sources page of a row links back to.
func backAnchor(cid int64) string {
	if cid == 0 {
		return "matrix"
	}
	return "candidates"
}

// JudgedRow finds the stored row rid among the judged rows: the report's
// matrix, or the matrix of the candidate it was imported into (cid).
func (v Report) JudgedRow(rid int64) (rr planner.RowResult, cid int64, ok bool) {
	for _, rr := range v.Result.Matrix {
		if v.rowIDIn(rr, 0) == rid {
			return rr, 0, true
		}
	}
	for _, cd := range v.Candidates {
		if cr := v.candidateResult(cd.Name); cr != nil {
			for _, rr := range cr.Matrix {
				if v.rowIDIn(rr, cd.ID) == rid {
					return rr, cd.ID, true
				}
			}
		}
	}
	return planner.RowResult{}, 0, false
}
