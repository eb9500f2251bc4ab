package web

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestEmptyRecommendationShowsItsErrors: saving the recommendation form
// with nothing in it is refused with the field to fill, shown in the
// section (which takes the focus), and saves nothing.
func TestEmptyRecommendationShowsItsErrors(t *testing.T) {
	app := newTestApp(t)
	id, _ := seedMatrix(t, app)
	lead := app.client("lead")
	before := reportVersion(t, app, id)
	for _, hdr := range [][]string{{"HX-Request", "true"}, nil} {
		res, body := do(t, lead, "POST", fmt.Sprintf("%s/reports/%d/recommendation", app.srv.URL, id), url.Values{"version": {before}, "decision": {""}}, hdr...)
		if res.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("empty recommendation (%v): status %d", hdr, res.StatusCode)
		}
		if !strings.Contains(body, `data-testid="err-decision"`) || !strings.Contains(body, "say keep, change or stop") {
			t.Errorf("empty recommendation (%v): no error on the decision", hdr)
		}
		// Announced, and focusable for app.js when no field is marked.
		if !strings.Contains(body, `role="alert" tabindex="-1" data-testid="form-errors"`) {
			t.Errorf("empty recommendation (%v): the error summary is not announced", hdr)
		}
	}
	if got := reportVersion(t, app, id); got != before {
		t.Errorf("version %s → %s: an empty recommendation was saved", before, got)
	}
}
