package planner

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"
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

// TestInputsAndFormulasShowNoRawFloats: figures written into a form or a
// formula keep 6 significant figures, never a float's full digits.
func TestInputsAndFormulasShowNoRawFloats(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{
		{65.599609375, "65.5996"}, {17.637538469083736, "17.6375"}, {59.599999999999994, "59.6"}, {24.000000000000004, "24"},
		{0.00360610607831391, "0.00360611"}, {631.2969047619048, "631.2969"}, {640, "640"}, {0.1, "0.1"}, {0, "0"},
	} {
		if got := DisplayInput(tc.v); got != tc.want {
			t.Errorf("DisplayInput(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
	if got := DisplayInputDecimal(decimal.RequireFromString("2410.8680888888888889")); got != "2410.8681" {
		t.Errorf("DisplayInputDecimal = %q", got)
	}
	if got := DisplayInputDecimal(decimal.RequireFromString("0.00026112")); got != "0.00026112" {
		t.Errorf("DisplayInputDecimal = %q", got)
	}
	// The power line with watts measured by a GPU log.
	w := 631.2969047619048
	sh := SelfHostedMonthly(flatSelf("100", "0"), &w)
	found := false
	for _, l := range sh.Lines {
		if l.Category == "power" {
			found = true
			if !strings.HasPrefix(l.Basis, "631.2969 W x 730 h") {
				t.Errorf("power basis %q", l.Basis)
			}
		}
	}
	if !found {
		t.Error("no power line")
	}
}
