package view

import (
	"strings"
	"testing"
)

// An editor removes a piece of evidence as an import is removed: asked
// first under a fold ("Remove this file…", then "Yes, remove it"), never
// by one click beside the file's name; a reader gets no way to remove it.
func TestEvidenceRemovalAsksFirst(t *testing.T) {
	v := demoReport(t)
	v.CanEdit = true
	page := renderHTML(t, EvidenceSection(v, SectionForm{}))
	for _, kind := range []string{"telemetry", "soak", "showback"} {
		i := strings.Index(page, `data-testid="evidence-remove-`+kind+`"`)
		if i < 0 {
			t.Errorf("%s: no fold to remove it", kind)
			continue
		}
		start := strings.LastIndex(page[:i], "<details")
		end := strings.Index(page[i:], "</details>")
		if start < 0 || end < 0 {
			t.Fatalf("%s: the removal is not inside a fold", kind)
		}
		fold := page[start : i+end]
		if strings.Contains(page[start:i], " open") || !strings.Contains(fold, "Remove this file…") ||
			!strings.Contains(fold, `data-testid="evidence-remove-confirm-`+kind+`"`) || !strings.Contains(fold, "/evidence/"+kind+"/remove") {
			t.Errorf("%s: removal fold = %s", kind, fold)
		}
		src := strings.Index(page, `data-testid="evidence-source-`+kind+`"`)
		if src < 0 {
			t.Fatalf("%s: no source line", kind)
		}
		if line := page[src : src+strings.Index(page[src:], "</p>")]; strings.Contains(line, "<button") || strings.Contains(line, "<form") {
			t.Errorf("%s: a button beside the file's name: %s", kind, line)
		}
	}
	v.CanEdit = false
	if page := renderHTML(t, EvidenceSection(v, SectionForm{})); strings.Contains(page, "/remove") {
		t.Errorf("a reader is offered to remove evidence")
	}
}
