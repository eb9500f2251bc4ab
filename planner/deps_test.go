package planner

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependencies holds the rule that planner is the domain root: it
// imports the standard library and a decimal library, never the web layer,
// the store or the importers.
func TestDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "capplan/planner").CombinedOutput()
	if err != nil {
		t.Skipf("go list unavailable: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"web", "echo", "sqlite", "importers"} {
			if strings.Contains(dep, banned) {
				t.Errorf("planner depends on %s (contains %q)", dep, banned)
			}
		}
	}
}
