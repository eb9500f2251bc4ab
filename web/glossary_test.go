package web

import (
	"net/http"
	"strings"
	"testing"

	"capplan/web/view"
)

// The glossary page is reached from the header of every page, shows every
// term under its anchor, and needs no login.
func TestGlossaryPage(t *testing.T) {
	app := newTestApp(t)
	res, body := do(t, http.DefaultClient, http.MethodGet, app.srv.URL+"/glossary", nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("glossary without login: %d", res.StatusCode)
	}
	for _, e := range view.Glossary {
		if !strings.Contains(body, `<dt id="`+e.Key+`" data-testid="glossary-term">`) {
			t.Errorf("glossary page lacks the entry %q", e.Key)
		}
	}
	_, reports := do(t, app.client("lead"), http.MethodGet, app.srv.URL+"/reports", nil)
	if !strings.Contains(reports, `<a href="/glossary" data-testid="nav-glossary">Glossary</a>`) {
		t.Error("the header navigation does not link the glossary")
	}
}
