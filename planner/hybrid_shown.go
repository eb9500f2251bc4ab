package planner

// HybridShownMax is the most box counts a hybrid table shows in full;
// beyond it the table shows a window (see Hybrid.Shown).
const HybridShownMax = 24

// Shown is the options a table of the hybrid plan shows, in order, and
// whether some were left out: all of them up to HybridShownMax; else
// n = 0 to 7, the eight either side of the best and the last three. The
// planner costs every n up to the boxes the busy hour needs, thousands
// when one box serves little of it; the page and the workbook show the
// same window.
func (h *Hybrid) Shown() (shown []HybridOption, cut bool) {
	if len(h.Options) <= HybridShownMax {
		return h.Options, false
	}
	for n, o := range h.Options {
		if n < 8 || (n >= h.Best-8 && n <= h.Best+8) || n >= len(h.Options)-3 {
			shown = append(shown, o)
		}
	}
	return shown, true
}

// IsBest reports whether o is the cheapest of h's options.
func (h *Hybrid) IsBest(o HybridOption) bool {
	return h.Best >= 0 && h.Best < len(h.Options) && h.Options[h.Best].Boxes == o.Boxes
}
