package planner

import (
	"testing"
)

// TestDisplayNumberKeepsThreeFigures: the figures the page showed with two
// significant figures (0.19 req/s, 0.11 tok/J, 0.44 req/s in the busy
// hour, 0.96 req/s, 0.60 %) keep three, as the workbook's 0.000 does.
func TestDisplayNumberKeepsThreeFigures(t *testing.T) {
	for _, tc := range []struct {
		v      float64
		places int
		want   string
	}{
		{0.19, 2, "0.190"}, {0.1904, 2, "0.190"}, {0.11, 2, "0.110"}, {0.4375, 2, "0.438"}, {0.96, 2, "0.960"},
		{1.925, 2, "1.93"}, {12.6, 1, "12.6"}, {8706.234, 1, "8,706.2"}, {631.2969047619048, 1, "631.3"},
		{631.2969047619048, 0, "631"}, {56, 0, "56"}, {300, 0, "300"}, {7.5, 0, "7.50"}, {0, 2, "0.00"},
		{0.0999, 1, "0.0999"}, {0.09996, 2, "0.100"}, {-0.19, 2, "-0.190"}, {0.000261, 2, "0.000261"},
	} {
		if got := DisplayNumber(tc.v, tc.places); got != tc.want {
			t.Errorf("DisplayNumber(%v, %d) = %q, want %q", tc.v, tc.places, got, tc.want)
		}
	}
	for _, tc := range []struct {
		v      float64
		places int
		want   string
	}{
		{0.006, 2, "0.600 %"}, {0.99994, 3, "99.994 %"}, {0.18, 1, "18.0 %"}, {0.08, 1, "8.00 %"}, {1, 2, "100.00 %"},
	} {
		if got := DisplayPercent(tc.v, tc.places); got != tc.want {
			t.Errorf("DisplayPercent(%v, %d) = %q, want %q", tc.v, tc.places, got, tc.want)
		}
	}
}

