package reports

import (
	"os/exec"
	"strings"
	"testing"
)

// The services hold no HTTP: the command line's import, export and backup
// link neither Echo nor templ through them.
func TestServicesImportNoHTTP(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(dep, "labstack/echo") || strings.Contains(dep, "a-h/templ") || dep == "capplan/web" || strings.HasPrefix(dep, "capplan/testdata") {
			t.Errorf("capplan/web/reports depends on %s", dep)
		}
	}
}
