package view

import (
	"fmt"
	"net/url"
	"strconv"

	"capplan/planner"
)

// CompareView is the comparison page: the picks, what can be picked, and
// the side-by-side figures.
type CompareView struct {
	Picks []string
	// Ref is the pick the deltas are against, the user's choice (the
	// first pick when none was made).
	Ref     string
	Choices []CompareChoice
	Result  *planner.SideBySide
	Err     string
	Query   string
}

// signedPct is a fraction as a signed percentage: 0.25 -> "+25 %".
func signedPct(d float64) string { return fmt.Sprintf("%+.0f %%", d*100) }

// compareCandidatesQuery picks the report and up to three of its
// non-baseline candidates; "" when it has none.
func compareCandidatesQuery(v Report) string {
	q := url.Values{"s": {SubjectKey(v.R.ID, 0)}}
	for _, cd := range v.Candidates {
		if !cd.Candidate.Baseline && len(q["s"]) < planner.CompareMax {
			q.Add("s", SubjectKey(v.R.ID, cd.ID))
		}
	}
	if len(q["s"]) < planner.CompareMin {
		return ""
	}
	return q.Encode()
}

// refQuery is the comparison's address with key as its reference.
func (v CompareView) refQuery(key string) string {
	return url.Values{"s": v.Picks, "ref": {key}}.Encode()
}

// CompareChoice is one report or candidate that can be compared.
type CompareChoice struct {
	Key, Label string
}

// SubjectKey names a report ("12") or a candidate of it ("12.c3").
func SubjectKey(reportID, candidateID int64) string {
	if candidateID == 0 {
		return strconv.FormatInt(reportID, 10)
	}
	return fmt.Sprintf("%d.c%d", reportID, candidateID)
}
