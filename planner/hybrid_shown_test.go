package planner

import "testing"

// A hybrid of thousands of box counts shows a window around its best and
// its ends; a short one shows every count.
func TestHybridShownWindow(t *testing.T) {
	h := &Hybrid{Best: 100}
	for n := range 5000 {
		h.Options = append(h.Options, HybridOption{Boxes: n})
	}
	shown, cut := h.Shown()
	if !cut {
		t.Error("5,000 options not cut")
	}
	var got []int
	for _, o := range shown {
		got = append(got, o.Boxes)
	}
	want := []int{0, 1, 2, 3, 4, 5, 6, 7, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 4997, 4998, 4999}
	if len(got) != len(want) {
		t.Fatalf("shown %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("shown %v, want %v", got, want)
		}
	}
	if !h.IsBest(HybridOption{Boxes: 100}) || h.IsBest(HybridOption{Boxes: 99}) {
		t.Error("IsBest does not pick n = 100 alone")
	}
	short := &Hybrid{Options: h.Options[:24]}
	if s, cut := short.Shown(); cut || len(s) != 24 {
		t.Errorf("24 options: shown %d, cut %v", len(s), cut)
	}
}
