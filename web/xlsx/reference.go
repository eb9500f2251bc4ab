package xlsx

import (
	"fmt"

	"capplan/planner"
)

// referenceSheet is the public frontier the report is compared with
// (docs/method.md, "Reference rows"): whether the report is a plan, the
// ratio's sentence, the differences, each counted row against the
// frontier (the ratio a live formula of the two figures beside it), and
// the reference rows with whether each matches.
func (b *book) referenceSheet() {
	s := b.sheets[shReference]
	s.cols(34, 18, 30, 12, 14, 12, 16, 18, 60)
	rf := b.r.Result.Reference
	b.title(s, "Reference rows: the public frontier, not evidence")
	if rf == nil {
		s.add("No reference rows.")
		return
	}
	kv := func(label string, val any) { s.add(label, v(b.st.wrap, val)) }
	if rf.Plan {
		kv("Plan", planner.PlanRefusal)
	}
	kv("At the ceiling", rf.Text)
	kv("Matching rule", rf.Rule)
	kv("Matched", fmt.Sprintf("%d of %d", rf.Matched, len(rf.Rows)))
	kv("Box GPUs", fmt.Sprintf("%s (%s)", planner.DisplayNumber(rf.BoxGPUs, 0), rf.GPUsSource))
	for i, d := range rf.Differences {
		label := ""
		if i == 0 {
			label = "What usually explains a gap"
		}
		kv(label, d)
	}
	s.add()
	b.headers(s, "Counted row", "Tok/s per user", "Output tok/s per GPU", "Frontier there", "Share of the frontier", "", "", "", "Note")
	for _, fr := range rf.Ratios {
		row := s.next()
		var ratio any
		if fr.Ratio != nil {
			ratio = fx(b.st.pct, fmt.Sprintf("C%d/D%d", row, row), *fr.Ratio)
		}
		load := fr.LoadText
		if load == "" {
			load = fmt.Sprintf("row %d", fr.MatrixRow+1)
		}
		s.add(load, v(b.st.num, optOrEmpty(fr.Interactivity)), v(b.st.num, optOrEmpty(fr.OutputPerGPU)), v(b.st.num, optOrEmpty(fr.FrontierPerGPU)), ratio, nil, nil, nil, v(b.st.wrap, fr.Outside))
	}
	s.add()
	b.headers(s, "Source, date", "GPU", "Model", "Precision", "Framework", "ISL/OSL", "Tok/s per user", "Output tok/s per GPU", "Match")
	for _, m := range rf.Rows {
		match := "matches"
		if !m.Matched {
			match = "no"
		}
		for _, w := range append(append([]string{}, m.Mismatch...), m.Near...) {
			match += "; " + w
		}
		s.add(v(b.st.wrap, m.Row.Source+", "+m.Row.Date+" ("+m.Row.File+" "+m.Row.Path+")"), m.Row.GPU, m.Row.Model, m.Row.Precision, m.Row.Framework,
			fmt.Sprintf("%d/%d", m.Row.ISL, m.Row.OSL), v(b.st.num, m.Row.Interactivity), v(b.st.num, m.Row.OutputPerGPU), v(b.st.wrap, match))
	}
}
