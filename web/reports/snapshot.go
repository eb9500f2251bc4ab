package reports

import (
	"encoding/json"

	"capplan/planner"
)

// approvedInputs returns the inputs kept when the report was approved, so
// that an approved report never moves (library quotes edited, evidence
// ageing, exchange rates). The rows' per-request records are not in the
// snapshot's JSON: they are taken from the live rows, which approval made
// read-only, matched by file and position.
func approvedInputs(snap []byte, live planner.Inputs) (planner.Inputs, error) {
	in, err := decodeSnapshot(snap)
	if err != nil {
		return in, err
	}
	attach := func(dst, src []planner.Row) {
		type key struct {
			sha string
			idx int
		}
		by := map[key][]planner.Sample{}
		for _, row := range src {
			by[key{row.Source.SHA256, row.Index}] = row.Samples
		}
		for i := range dst {
			dst[i].Samples = by[key{dst[i].Source.SHA256, dst[i].Index}]
		}
	}
	attach(in.Rows, live.Rows)
	for i := range in.Candidates {
		for _, c := range live.Candidates {
			if c.Name == in.Candidates[i].Name {
				attach(in.Candidates[i].Rows, c.Rows)
			}
		}
	}
	return in, nil
}

// snapshot is what approval keeps: every input, and the rows' sources,
// which planner.Row leaves out of its JSON.
type snapshot struct {
	Inputs           planner.Inputs              `json:"inputs"`
	Sources          []planner.Source            `json:"sources"`
	CandidateSources map[string][]planner.Source `json:"candidate_sources"`
}

// EncodeSnapshot is the record approval keeps of in.
func EncodeSnapshot(in planner.Inputs) ([]byte, error) {
	sn := snapshot{Inputs: in, CandidateSources: map[string][]planner.Source{}}
	for _, r := range in.Rows {
		sn.Sources = append(sn.Sources, r.Source)
	}
	for _, c := range in.Candidates {
		for _, r := range c.Rows {
			sn.CandidateSources[c.Name] = append(sn.CandidateSources[c.Name], r.Source)
		}
	}
	return json.Marshal(sn)
}

func decodeSnapshot(data []byte) (planner.Inputs, error) {
	var sn snapshot
	if err := json.Unmarshal(data, &sn); err != nil {
		return planner.Inputs{}, err
	}
	in := sn.Inputs
	for i := range in.Rows {
		if i < len(sn.Sources) {
			in.Rows[i].Source = sn.Sources[i]
		}
	}
	for ci, c := range in.Candidates {
		for i := range c.Rows {
			if src := sn.CandidateSources[c.Name]; i < len(src) {
				in.Candidates[ci].Rows[i].Source = src[i]
			}
		}
	}
	return in, nil
}
