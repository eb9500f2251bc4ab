package view

import (
	"regexp"
	"testing"
)

// The demo's tokens per joule are shown to 3 figures with the exact value
// in the tooltip, in the telemetry table and in the matrix.
func TestTokensPerJouleShowTheirExactValue(t *testing.T) {
	page := stepPageOf(t, demoReport(t), PrintStep)
	for _, id := range []string{"telemetry-tokens-per-joule", "tokens-per-joule"} {
		if m := regexp.MustCompile(`title="exact: ([0-9.]+)" data-testid="` + id + `">([0-9.]+)<`).FindStringSubmatch(page); m == nil || len(m[1]) <= len(m[2]) {
			t.Errorf("%s: no exact value beside the shown one: %v", id, m)
		}
	}
}
