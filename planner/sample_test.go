package planner

import (
	"math"
	"testing"
)

func TestSampleInterToken(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    Sample
		want float64
		ok   bool
	}{
		{"recorded", Sample{TTFT: 0.5, E2E: 2.5, ITL: 0.02, OutputTokens: 101, OK: true}, 0.02, true},
		{"derived", Sample{TTFT: 0.5, E2E: 2.5, ITL: NoFigure, OutputTokens: 101, OK: true}, 0.02, true},
		{"one token", Sample{TTFT: 0.5, E2E: 0.5, ITL: NoFigure, OutputTokens: 1, OK: true}, 0, false},
		{"tokens unknown", Sample{TTFT: 0.5, E2E: 2.5, ITL: NoFigure, OutputTokens: NoFigure, OK: true}, 0, false},
		{"ttft unknown", Sample{TTFT: NoFigure, E2E: 2.5, ITL: NoFigure, OutputTokens: 101, OK: true}, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := tc.s.InterToken()
			if ok != tc.ok || (ok && math.Abs(got-tc.want) > 1e-6) {
				t.Errorf("InterToken() = %v, %v; want %v, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}
