package view

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependencies holds that the components and view models render from
// plain values: web/view imports neither Echo nor the app's handlers
// (capplan/web) nor its services (web/reports), only the types of planner
// and the store.
func TestDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Skipf("go list unavailable: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		switch {
		case dep == "capplan/web", dep == "capplan/web/reports", strings.Contains(dep, "labstack/echo"):
			t.Errorf("web/view depends on %s", dep)
		}
	}
}
